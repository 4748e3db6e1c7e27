/**
 * Function breakpoints in one isolate. V8 breaks on a function only for a function object it is
 * handed, which may not exist yet; so the named functions are found in the scripts' source text
 * (functionLocator) and a breakpoint goes on each one's first statement, by the script's URL.
 * Scripts loaded now are searched when the breakpoints are set; scripts that load later are
 * searched as they load (the load hooks hand their source here before they run).
 */
import type { Protocol } from 'devtools-protocol';
import type { BreakpointBinding, FunctionBreakpointSpec } from '../../core/types.js';
import { v8Condition } from './breakpointConditions.js';
import type { CdpClient } from './cdpClient.js';
import { answersTo, shortName, type FunctionSite } from './functionNames.js';
import type { ScriptRegistry } from './scriptRegistry.js';

interface FunctionBreakpoint {
  spec: FunctionBreakpointSpec;
  condition?: string;
  v8Ids: string[];
  locations: Protocol.Debugger.Location[];
  /** `url:line:column` of every place it was set, so a script searched twice is not doubled. */
  placed: Set<string>;
}

export class FunctionBreakpoints {
  private breakpoints: FunctionBreakpoint[] = [];
  private readonly byV8Id = new Map<string, FunctionBreakpoint>();
  /** Sites found per script URL and source length (a script reloaded with other text is searched again). */
  private readonly sites = new Map<string, FunctionSite[]>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly sources = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly cdp: CdpClient,
    private readonly scripts: ScriptRegistry,
  ) {}

  get active(): boolean {
    return this.breakpoints.length > 0;
  }

  /** What must appear in a script's text for it to hold one of the functions. */
  shortNames(): string[] {
    return [...new Set(this.breakpoints.map((b) => shortName(b.spec.function)))];
  }

  async replaceAll(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    const conditions = specs.map((spec) => v8Condition(spec));
    for (const old of this.breakpoints) {
      for (const v8Id of old.v8Ids) {
        this.byV8Id.delete(v8Id);
        await this.cdp.send('Debugger.removeBreakpoint', { breakpointId: v8Id }).catch(() => undefined);
      }
    }
    this.breakpoints = specs.map((spec, i) => ({ spec, condition: conditions[i], v8Ids: [], locations: [], placed: new Set() }));
    if (specs.length) {
      await Promise.all(
        this.scripts.userScripts().map(async (script) => {
          const source = await this.sourceOf(script.scriptId);
          if (source !== undefined) await this.search(script.url, source);
        }),
      );
    }
    return Promise.all(this.breakpoints.map((bp) => this.binding(bp)));
  }

  /** A loaded script's source, fetched once. */
  async sourceOf(scriptId: string): Promise<string | undefined> {
    let source = this.sources.get(scriptId);
    if (!source) {
      source = this.cdp.send('Debugger.getScriptSource', { scriptId }).then((a) => a.scriptSource, () => undefined);
      this.sources.set(scriptId, source);
    }
    return source;
  }

  /** Searches a script's source (before it runs, or already loaded) and places the breakpoints it answers. */
  search(url: string, source: string): Promise<void> {
    if (!this.breakpoints.length || !this.shortNames().some((n) => source.includes(n))) return Promise.resolve();
    const work = this.placeIn(url, source);
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }

  private async placeIn(url: string, source: string): Promise<void> {
    const key = `${url}\n${source.length}`;
    let sites = this.sites.get(key);
    if (!sites) {
      const { locateFunctions } = await import('./functionLocator.js');
      this.sites.set(key, (sites = locateFunctions(source)));
    }
    await Promise.all(this.breakpoints.flatMap((bp) => sites.filter((site) => answersTo(site, bp.spec.function)).map((site) => this.place(bp, url, site))));
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  resolved(event: Protocol.Debugger.BreakpointResolvedEvent): Promise<BreakpointBinding> | undefined {
    const bp = this.byV8Id.get(event.breakpointId);
    if (!bp) return undefined;
    bp.locations.push(event.location);
    return this.binding(bp);
  }

  bindings(ids: number[]): Promise<BreakpointBinding[]> {
    return Promise.all(this.breakpoints.filter((bp) => ids.includes(bp.spec.id)).map((bp) => this.binding(bp)));
  }

  sessionIdsOf(v8Ids: string[]): number[] {
    return [...new Set(v8Ids.flatMap((v8Id) => this.byV8Id.get(v8Id)?.spec.id ?? []))];
  }

  private async place(bp: FunctionBreakpoint, url: string, site: FunctionSite): Promise<void> {
    const key = `${url}:${site.line}:${site.column}`;
    if (bp.placed.has(key)) return;
    bp.placed.add(key);
    const answer = await this.cdp
      .send('Debugger.setBreakpointByUrl', { url, lineNumber: site.line, columnNumber: site.column, condition: bp.condition })
      .catch(() => undefined);
    if (!answer || !this.breakpoints.includes(bp)) return;
    bp.v8Ids.push(answer.breakpointId);
    bp.locations.push(...answer.locations);
    this.byV8Id.set(answer.breakpointId, bp);
  }

  private async binding(bp: FunctionBreakpoint): Promise<BreakpointBinding> {
    const { spec } = bp;
    if (!bp.locations.length) {
      const message = bp.placed.size
        ? 'pending: binds when the script that defines it loads'
        : `pending: no function named ${spec.function} in the scripts loaded so far; binds when a script that defines it loads`;
      return { id: spec.id, verified: false, message };
    }
    const places = await Promise.all(bp.locations.map((l) => this.scripts.location(l.scriptId, l.lineNumber, l.columnNumber ?? 0)));
    const [first] = places;
    const others = places.length - 1;
    return {
      id: spec.id,
      verified: true,
      file: first.file,
      line: first.line,
      column: first.column,
      message: others ? `bound in ${places.length} places; the first is shown` : undefined,
    };
  }
}
