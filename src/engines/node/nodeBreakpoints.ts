/**
 * Line breakpoints as V8 knows them: one `setBreakpointByUrl` per user breakpoint, bound by URL
 * so it arms before its script loads. A binding is verified once V8 names a location; a location
 * on another line means V8 moved it to the next statement.
 */
import { existsSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Protocol } from 'devtools-protocol';
import type { BreakpointBinding, BreakpointSpec } from '../../core/types.js';
import type { CdpClient } from './cdpClient.js';
import { CdpRequestError } from './cdpRequestError.js';
import { v8Condition } from './breakpointConditions.js';
import type { ScriptRegistry } from './scriptRegistry.js';

interface V8Breakpoint {
  spec: BreakpointSpec;
  file: string;
  v8Id?: string;
  locations: Protocol.Debugger.Location[];
  error?: string;
}

export class NodeBreakpoints {
  private readonly byFile = new Map<string, V8Breakpoint[]>();
  private readonly byV8Id = new Map<string, V8Breakpoint>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly scripts: ScriptRegistry) {}

  /** Replaces every breakpoint of `file`; one binding per spec, same order. */
  replaceFile(cdp: CdpClient, file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    const work = this.place(cdp, file, specs);
    this.inFlight.add(work);
    void work.catch(() => undefined).finally(() => this.inFlight.delete(work));
    return work;
  }

  /**
   * Resolves once every breakpoint being set is recorded. A program may hit a new breakpoint
   * before we have read V8's answer naming it: a pause waits for this before naming its hits.
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async place(cdp: CdpClient, file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    const conditions = specs.map((spec) => v8Condition(spec)); // a bad hit condition fails before anything changes
    for (const old of this.byFile.get(file) ?? []) {
      if (!old.v8Id) continue;
      this.byV8Id.delete(old.v8Id);
      await cdp.send('Debugger.removeBreakpoint', { breakpointId: old.v8Id }).catch(() => undefined);
    }
    const urlRegex = urlRegexFor(file);
    const placed: V8Breakpoint[] = [];
    for (const [i, spec] of specs.entries()) {
      const bp: V8Breakpoint = { spec, file, locations: [] };
      try {
        const answer = await cdp.send('Debugger.setBreakpointByUrl', {
          urlRegex,
          lineNumber: spec.line - 1,
          columnNumber: spec.column === undefined ? undefined : spec.column - 1,
          condition: conditions[i],
        });
        bp.v8Id = answer.breakpointId;
        bp.locations = answer.locations;
        this.byV8Id.set(answer.breakpointId, bp);
      } catch (e) {
        bp.error = e instanceof CdpRequestError ? e.reason : (e as Error).message;
      }
      placed.push(bp);
    }
    this.byFile.set(file, placed);
    return placed.map((bp) => this.binding(bp));
  }

  /** V8 bound a breakpoint in a script that just loaded: the binding if it is one of ours. */
  resolved(event: Protocol.Debugger.BreakpointResolvedEvent): BreakpointBinding | undefined {
    const bp = this.byV8Id.get(event.breakpointId);
    if (!bp) return undefined;
    bp.locations.push(event.location);
    return this.binding(bp);
  }

  /** The current binding of each session breakpoint id given (launch answers after the scripts loaded). */
  bindings(ids: number[]): BreakpointBinding[] {
    const all = [...this.byFile.values()].flat();
    return ids.flatMap((id) => {
      const bp = all.find((b) => b.spec.id === id);
      return bp ? [this.binding(bp)] : [];
    });
  }

  sessionIdsOf(v8Ids: string[]): number[] {
    const ids = v8Ids.flatMap((v8Id) => {
      const bp = this.byV8Id.get(v8Id);
      return bp ? [bp.spec.id] : [];
    });
    return [...new Set(ids)];
  }

  private binding(bp: V8Breakpoint): BreakpointBinding {
    const { spec } = bp;
    if (bp.error) return { id: spec.id, verified: false, file: bp.file, line: spec.line, message: bp.error };
    const [at] = bp.locations;
    if (!at) return { id: spec.id, verified: false, file: bp.file, line: spec.line, message: 'pending: binds when the script loads' };
    const line = at.lineNumber + 1;
    return {
      id: spec.id,
      verified: true,
      file: this.scripts.pathOf(at.scriptId) ?? bp.file,
      line,
      column: (at.columnNumber ?? 0) + 1,
      message: line !== spec.line ? `moved from line ${spec.line} to the next statement, line ${line}` : undefined,
    };
  }
}

/** Matches the script by its file URL or plain path, under the given name and its real path. */
function urlRegexFor(file: string): string {
  const names = new Set([file]);
  if (existsSync(file)) names.add(realpathSync(file));
  const alternatives = [...names].flatMap((name) => [pathToFileURL(name).href, name]).map(escapeRegex);
  return `^(?:${alternatives.join('|')})$`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
