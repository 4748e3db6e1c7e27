/**
 * Line breakpoints as V8 knows them, in one isolate. A user breakpoint binds two ways:
 * - directly, by the URL of the file it names (JavaScript, or TypeScript that node strips in
 *   place), so it arms before its script loads;
 * - through source maps, in every script whose map names the file, at the generated position of
 *   the line (or of the next line with code); scripts that load later are bound as they load.
 * A binding is verified once V8 names a location, told back in the file the user named.
 */
import { existsSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Protocol } from 'devtools-protocol';
import type { BreakpointBinding, BreakpointSpec } from '../../core/types.js';
import { v8Condition } from './breakpointConditions.js';
import type { CdpClient } from './cdpClient.js';
import { CdpRequestError } from './cdpRequestError.js';
import type { ScriptRegistry } from './scriptRegistry.js';
import type { LoadedMap } from './sourceMaps.js';

/** One V8 breakpoint: by URL regex (direct) or by a mapped script's exact URL. */
interface V8Ref {
  v8Id: string;
  mapped: boolean;
  locations: Protocol.Debugger.Location[];
}

interface LineBreakpoint {
  spec: BreakpointSpec;
  file: string;
  condition?: string;
  refs: V8Ref[];
  /** Script URLs this breakpoint is placed in through their maps, and the placing. */
  mappedUrls: Map<string, Promise<void>>;
  error?: string;
}

export class NodeBreakpoints {
  private readonly byFile = new Map<string, LineBreakpoint[]>();
  private readonly byV8Id = new Map<string, LineBreakpoint>();
  private readonly inFlight = new Set<Promise<unknown>>();

  /** Files whose breakpoints were placed ahead in the compiled scripts that will run them. */
  private readonly predicted = new Set<string>();

  constructor(
    private readonly cdp: CdpClient,
    private readonly scripts: ScriptRegistry,
    /** Whether a file's breakpoints bind by its own URL (else only through source maps). */
    private readonly direct: (file: string) => boolean,
    /** The compiled scripts on disk that will run a file, with their maps (none when unknown). */
    private readonly predict: (file: string) => Promise<{ url: string; map: LoadedMap }[]>,
  ) {}

  /** Replaces every breakpoint of `file`; one binding per spec, same order. */
  replaceFile(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.track(this.place(file, specs));
  }

  /**
   * Resolves once every breakpoint being set is recorded. A program may hit a new breakpoint
   * before we have read V8's answer naming it: a pause waits for this before naming its hits.
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Files whose breakpoints bind only through the maps of scripts as they load (what the load hooks look for). */
  mappedFiles(): string[] {
    return [...this.byFile.entries()].filter(([file, bps]) => bps.length && !this.direct(file) && !this.predicted.has(file)).map(([file]) => file);
  }

  /** A script with this map loads (or has loaded): places the breakpoints of the files it maps. */
  bindMapped(url: string, map: LoadedMap): Promise<void> {
    const work = [...this.byFile.entries()].filter(([file]) => map.mapsFile(file));
    if (!work.length) return Promise.resolve();
    return this.track(Promise.all(work.flatMap(([file, bps]) => bps.map((bp) => this.placeMapped(bp, file, url, map)))).then(() => undefined));
  }

  /** V8 bound a breakpoint in a script that just loaded: the binding, if it is one of ours. */
  resolved(event: Protocol.Debugger.BreakpointResolvedEvent): Promise<BreakpointBinding> | undefined {
    const bp = this.byV8Id.get(event.breakpointId);
    const ref = bp?.refs.find((r) => r.v8Id === event.breakpointId);
    if (!bp || !ref) return undefined;
    ref.locations.push(event.location);
    return this.binding(bp);
  }

  /** The current binding of each session breakpoint id given (launch answers after the scripts loaded). */
  bindings(ids: number[]): Promise<BreakpointBinding[]> {
    const all = [...this.byFile.values()].flat();
    return Promise.all(ids.flatMap((id) => all.filter((b) => b.spec.id === id).map((bp) => this.binding(bp))));
  }

  /** The conditions of these session breakpoints, where they have one. */
  conditionsOf(ids: number[]): { id: number; condition: string }[] {
    const all = [...this.byFile.values()].flat();
    return ids.flatMap((id) => {
      const condition = all.find((b) => b.spec.id === id)?.spec.condition?.trim();
      return condition ? [{ id, condition }] : [];
    });
  }

  sessionIdsOf(v8Ids: string[]): number[] {
    return [...new Set(v8Ids.flatMap((v8Id) => this.byV8Id.get(v8Id)?.spec.id ?? []))];
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.catch(() => undefined).finally(() => this.inFlight.delete(work));
    return work;
  }

  private async place(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    const conditions = specs.map((spec) => v8Condition(spec)); // a bad hit condition fails before anything changes
    for (const old of this.byFile.get(file) ?? []) {
      for (const ref of old.refs) {
        this.byV8Id.delete(ref.v8Id);
        await this.cdp.send('Debugger.removeBreakpoint', { breakpointId: ref.v8Id }).catch(() => undefined);
      }
    }
    const placed: LineBreakpoint[] = specs.map((spec, i) => ({ spec, file, condition: conditions[i], refs: [], mappedUrls: new Map() }));
    this.byFile.set(file, placed);
    if (this.direct(file)) {
      const urlRegex = urlRegexFor(file);
      await Promise.all(placed.map((bp) => this.setV8(bp, false, { urlRegex, lineNumber: bp.spec.line - 1, columnNumber: column0(bp.spec.column) })));
      return Promise.all(placed.map((bp) => this.binding(bp)));
    }
    const loaded = this.scripts.mappedScripts(file.includes('node_modules'));
    const [maps, ahead] = await Promise.all([Promise.all(loaded.map((s) => this.scripts.mapOf(s))), specs.length ? this.predict(file) : []]);
    if (ahead.length) this.predicted.add(file);
    else this.predicted.delete(file);
    const targets = [...loaded.flatMap((s, i) => (maps[i]?.mapsFile(file) ? [{ url: s.url, map: maps[i]! }] : [])), ...ahead];
    await Promise.all(targets.flatMap(({ url, map }) => placed.map((bp) => this.placeMapped(bp, file, url, map))));
    return Promise.all(placed.map((bp) => this.binding(bp)));
  }

  /** Places a breakpoint in one mapped script, once: a second call waits for the first. */
  private placeMapped(bp: LineBreakpoint, file: string, url: string, map: LoadedMap): Promise<void> {
    let placing = bp.mappedUrls.get(url);
    if (!placing) {
      const at = map.generatedOf(file, bp.spec.line, bp.spec.column);
      if (at) placing = this.setV8(bp, true, { url, lineNumber: at.line, columnNumber: at.column });
      else {
        bp.error ??= `no code at or below line ${bp.spec.line} in the JavaScript ${file} compiles to`;
        placing = Promise.resolve();
      }
      bp.mappedUrls.set(url, placing);
    }
    return placing;
  }

  private async setV8(bp: LineBreakpoint, mapped: boolean, where: Omit<Protocol.Debugger.SetBreakpointByUrlRequest, 'condition'>): Promise<void> {
    try {
      const answer = await this.cdp.send('Debugger.setBreakpointByUrl', { ...where, condition: bp.condition });
      if (this.byFile.get(bp.file)?.includes(bp) === false) {
        // Replaced while this was in flight.
        await this.cdp.send('Debugger.removeBreakpoint', { breakpointId: answer.breakpointId }).catch(() => undefined);
        return;
      }
      bp.refs.push({ v8Id: answer.breakpointId, mapped, locations: answer.locations });
      this.byV8Id.set(answer.breakpointId, bp);
      bp.error = undefined;
    } catch (e) {
      if (!bp.refs.length) bp.error = e instanceof CdpRequestError ? e.reason : (e as Error).message;
    }
  }

  private async binding(bp: LineBreakpoint): Promise<BreakpointBinding> {
    const { spec } = bp;
    const ref = bp.refs.find((r) => r.locations.length);
    if (!ref) {
      const message = bp.error ?? (this.direct(bp.file) || bp.mappedUrls.size ? 'pending: binds when the script loads' : 'pending: binds when a script compiled from this file loads');
      return { id: spec.id, verified: false, file: bp.file, line: spec.line, message };
    }
    const at = ref.locations[0];
    const where = ref.mapped
      ? await this.scripts.location(at.scriptId, at.lineNumber, at.columnNumber ?? 0)
      : { file: this.scripts.pathOf(at.scriptId) ?? bp.file, line: at.lineNumber + 1, column: (at.columnNumber ?? 0) + 1 };
    const file = where.file ?? bp.file;
    const moved = where.line !== spec.line && sameFile(file, bp.file);
    return {
      id: spec.id,
      verified: true,
      file,
      line: where.line,
      column: where.column,
      message: moved ? `moved from line ${spec.line} to the next statement, line ${where.line}` : undefined,
    };
  }
}

function column0(column: number | undefined): number | undefined {
  return column === undefined ? undefined : column - 1;
}

function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Matches the script by its file URL or plain path, under the given name and its real path. */
export function urlRegexFor(file: string): string {
  const names = new Set([file]);
  if (existsSync(file)) names.add(realpathSync(file));
  const alternatives = [...names].flatMap((name) => [pathToFileURL(name).href, name]).map(escapeRegex);
  return `^(?:${alternatives.join('|')})$`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
