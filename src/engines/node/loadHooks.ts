/**
 * Pauses before code loads, so breakpoints that cannot be placed ahead (through source maps, or
 * on functions found in the source) bind before that code runs:
 * - ES modules: V8's instrumentation breakpoint, "before a script with a source map runs", or
 *   "before any script runs" while function breakpoints are set;
 * - CommonJS (for which V8's does not fire, nodejs/node#31138): a conditional breakpoint on the
 *   call of node's compile function (handed over by the preload), whose condition asks a small
 *   filter in the debuggee whether this module holds what the breakpoints look for.
 * Hooks are set only while such breakpoints exist; otherwise loading costs nothing.
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from './cdpClient.js';
import type { FunctionBreakpoints } from './functionBreakpoints.js';
import { loadHookFilterSource } from './loadHookFilter.js';
import type { NodeBreakpoints } from './nodeBreakpoints.js';
import type { ScriptRegistry } from './scriptRegistry.js';
import type { SourceMapCache } from './sourceMaps.js';

type Instrumentation = Protocol.Debugger.SetInstrumentationBreakpointRequest['instrumentation'];

/** The preload's pause that lets the compile hook be set before the program's first module. */
const ARM_FUNCTION = 'debugbridgeArmLoadHook';
const COMPILE_FUNCTION = 'globalThis[Symbol.for("debugbridge.compile")]';
const FILTER = 'globalThis[globalThis.Symbol.for("debugbridge.loadHook")]';
/** Evaluated in the frame of node's `Module.prototype._compile(content, filename)`: node's own scope has no bare `Symbol`. */
const COMPILE_CONDITION = `${FILTER}?.(arguments[0], arguments[1], this)`;
const MODULE_OF_COMPILE_FRAME = '[arguments[1], arguments[0]]';

export class LoadHooks {
  private instrumentation?: { kind: Instrumentation; id: string };
  private filter = 'undefined';
  private compileHook?: string;

  constructor(
    private readonly cdp: CdpClient,
    private readonly scripts: ScriptRegistry,
    private readonly maps: SourceMapCache,
    private readonly lines: NodeBreakpoints,
    private readonly functions: FunctionBreakpoints,
    /** URL of the preload script in this isolate, when the program runs with it. */
    private readonly preloadUrl: string | undefined,
  ) {}

  /** Brings the hooks in line with the breakpoints as they are now. */
  async update(): Promise<void> {
    const mapped = this.lines.mappedFiles();
    const names = this.functions.active ? this.functions.shortNames() : [];
    const wanted = mapped.length > 0 || names.length > 0;
    const kind: Instrumentation | undefined = names.length ? 'beforeScriptExecution' : mapped.length ? 'beforeScriptWithSourceMapExecution' : undefined;
    const filter = wanted ? loadHookFilterSource([...new Set(mapped.map((f) => basename(f)))], names) : 'undefined';
    // The filter first: an evaluation is a script, and V8 would stop before it once instrumented.
    if (filter !== this.filter && this.preloadUrl) {
      this.filter = filter;
      const expression = `${FILTER} = ${filter}, undefined`;
      await this.cdp.send('Runtime.evaluate', { expression, silent: true }).catch(() => undefined);
      await (wanted ? this.armCompileHook() : this.disarmCompileHook());
    }
    if (kind !== this.instrumentation?.kind) await this.instrument(kind);
  }

  /** Whether this pause is one of ours rather than something to show. */
  owns(event: Protocol.Debugger.PausedEvent): boolean {
    if (event.reason === 'instrumentation') return true;
    if (this.compileHook && event.hitBreakpoints?.includes(this.compileHook)) return true;
    const top = event.callFrames[0];
    return !!top && top.functionName === ARM_FUNCTION && !!this.preloadUrl && this.scripts.urlOf(top.location.scriptId) === this.preloadUrl;
  }

  /** Binds what the loading script needs; the caller resumes. */
  async handle(event: Protocol.Debugger.PausedEvent): Promise<void> {
    if (event.reason === 'instrumentation') return this.beforeModule(event.data as { scriptId: string; url: string });
    const frame = event.callFrames[0].callFrameId;
    if (event.callFrames[0].functionName === ARM_FUNCTION) return this.armCompileHook(frame);
    const answer = await this.cdp.send('Debugger.evaluateOnCallFrame', { callFrameId: frame, expression: MODULE_OF_COMPILE_FRAME, returnByValue: true, silent: true });
    const [filename, content] = (answer.result.value ?? []) as [string?, string?];
    if (typeof filename === 'string' && typeof content === 'string') await this.beforeCommonJs(pathToFileURL(filename).href, content);
  }

  /** Sets the breakpoint on node's compile function, once the preload has handed it over (it pauses for this when it has). */
  private async armCompileHook(callFrameId?: string): Promise<void> {
    if (this.compileHook) return;
    const answer = callFrameId
      ? await this.cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression: COMPILE_FUNCTION, silent: true })
      : await this.cdp.send('Runtime.evaluate', { expression: COMPILE_FUNCTION, silent: true });
    const compile = answer.result;
    if (compile.type !== 'function' || !compile.objectId) return;
    const hook = await this.cdp.send('Debugger.setBreakpointOnFunctionCall', { objectId: compile.objectId, condition: COMPILE_CONDITION }).catch(() => undefined);
    this.compileHook = hook?.breakpointId;
  }

  private async disarmCompileHook(): Promise<void> {
    const id = this.compileHook;
    this.compileHook = undefined;
    if (id) await this.cdp.send('Debugger.removeBreakpoint', { breakpointId: id }).catch(() => undefined);
  }

  private async beforeModule(data: { scriptId: string; url: string }): Promise<void> {
    const script = this.scripts.get(data.scriptId);
    if (!script) return;
    const map = await this.scripts.mapOf(script);
    const work: Promise<unknown>[] = [];
    if (map) work.push(this.lines.bindMapped(script.url, map));
    if (this.functions.active) {
      work.push(this.functions.sourceOf(script.scriptId).then((source) => (source === undefined ? undefined : this.functions.search(script.url, source))));
    }
    await Promise.all(work);
  }

  private async beforeCommonJs(url: string, content: string): Promise<void> {
    const work: Promise<unknown>[] = [this.functions.search(url, content)];
    const sourceMapURL = sourceMapUrlOf(content);
    if (sourceMapURL) {
      const map = await this.maps.load(url, sourceMapURL);
      if (map) work.push(this.lines.bindMapped(url, map));
    }
    await Promise.all(work);
  }

  private async instrument(kind: Instrumentation | undefined): Promise<void> {
    const old = this.instrumentation;
    this.instrumentation = undefined;
    if (old) await this.cdp.send('Debugger.removeBreakpoint', { breakpointId: old.id }).catch(() => undefined);
    if (!kind) return;
    const answer = await this.cdp.send('Debugger.setInstrumentationBreakpoint', { instrumentation: kind }).catch(() => undefined);
    if (answer) this.instrumentation = { kind, id: answer.breakpointId };
  }
}

/** The URL in a script's last `//# sourceMappingURL=` comment, as V8 reads it. */
export function sourceMapUrlOf(content: string): string | undefined {
  const at = content.lastIndexOf('sourceMappingURL=');
  if (at < 0) return undefined;
  return /\/\/[#@]\s*sourceMappingURL=(\S+)\s*$/.exec(content.slice(Math.max(0, at - 8)))?.[1];
}
