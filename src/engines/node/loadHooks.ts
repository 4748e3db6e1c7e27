/**
 * Pauses before code loads, so breakpoints that cannot be placed ahead (through source maps, or
 * on functions found in the source) bind before that code runs:
 * - ES modules: V8's instrumentation breakpoint, "before a script with a source map runs", or
 *   "before any script runs" while function breakpoints are set;
 * - CommonJS (for which V8's does not fire): the preload's hook, which pauses before compiling a
 *   module whose source map names a file with breakpoints, or whose text holds a function name
 *   asked for. What it looks for is written into the isolate's global as a small request.
 * Hooks are set only while such breakpoints exist; otherwise loading costs nothing.
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from './cdpClient.js';
import type { FunctionBreakpoints } from './functionBreakpoints.js';
import type { NodeBreakpoints } from './nodeBreakpoints.js';
import type { ScriptRegistry } from './scriptRegistry.js';
import type { SourceMapCache } from './sourceMaps.js';

type Instrumentation = Protocol.Debugger.SetInstrumentationBreakpointRequest['instrumentation'];

export const HOOK_FUNCTION = 'debugbridgeLoadHook';
const REQUEST_SYMBOL = 'debugbridge.loadHook';
const CONTENT_OF_HOOK_FRAME = '[filename, content]';

export class LoadHooks {
  private instrumentation?: { kind: Instrumentation; id: string };
  private request = 'undefined';

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
    const kind: Instrumentation | undefined = names.length ? 'beforeScriptExecution' : mapped.length ? 'beforeScriptWithSourceMapExecution' : undefined;
    const request = mapped.length || names.length ? JSON.stringify({ mapped: [...new Set(mapped.map((f) => basename(f)))], names }) : 'undefined';
    // The request first: an evaluation is a script, and V8 would stop before it once instrumented.
    if (request !== this.request && this.preloadUrl) {
      this.request = request;
      const expression = `globalThis[Symbol.for(${JSON.stringify(REQUEST_SYMBOL)})] = ${request}, undefined`;
      await this.cdp.send('Runtime.evaluate', { expression, silent: true }).catch(() => undefined);
    }
    if (kind !== this.instrumentation?.kind) await this.instrument(kind);
  }

  /** Whether this pause is one of ours rather than something to show. */
  owns(event: Protocol.Debugger.PausedEvent): boolean {
    if (event.reason === 'instrumentation') return true;
    const top = event.callFrames[0];
    return !!top && top.functionName === HOOK_FUNCTION && !!this.preloadUrl && this.scripts.urlOf(top.location.scriptId) === this.preloadUrl;
  }

  /** Binds what the loading script needs; the caller resumes. */
  async handle(event: Protocol.Debugger.PausedEvent): Promise<void> {
    if (event.reason === 'instrumentation') return this.beforeModule(event.data as { scriptId: string; url: string });
    const answer = await this.cdp.send('Debugger.evaluateOnCallFrame', { callFrameId: event.callFrames[0].callFrameId, expression: CONTENT_OF_HOOK_FRAME, returnByValue: true, silent: true });
    const [filename, content] = (answer.result.value ?? []) as [string?, string?];
    if (typeof filename === 'string' && typeof content === 'string') await this.beforeCommonJs(pathToFileURL(filename).href, content);
  }

  private async beforeModule(data: { scriptId: string; url: string }): Promise<void> {
    const script = this.scripts.get(data.scriptId);
    if (!script) return;
    const map = await this.scripts.mapOf(script);
    const work: Promise<unknown>[] = [];
    if (map) work.push(this.lines.bindMapped(script.url, map));
    if (this.functions.active) {
      work.push(
        this.cdp
          .send('Debugger.getScriptSource', { scriptId: script.scriptId })
          .then((s) => this.functions.search(script.url, s.scriptSource))
          .catch(() => undefined),
      );
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
