/**
 * The scripts one V8 isolate has parsed: which file each comes from and its source map. Paused
 * call frames may carry an empty `url`; their `location.scriptId` always maps through here. A
 * location in a script with a map is told in the file the map leads to, where that file exists.
 */
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Protocol } from 'devtools-protocol';
import type { LoadedMap, OriginalPosition, SourceMapCache } from './sourceMaps.js';

export interface ScriptInfo {
  scriptId: string;
  url: string;
  sourceMapURL?: string;
  /** When V8 parsed it, or when a live edit last replaced its text (ms since the epoch). */
  sourceAt: number;
  /** The map of the text a live edit gave it (V8 announces no new script for an edit). */
  editedMap?: LoadedMap;
}

/** A place in a script, told in its original source where there is one. */
export interface ScriptLocation {
  file?: string;
  line: number;
  column: number;
  /** True when the place is in the map's original source rather than the script itself. */
  mapped: boolean;
}

export class ScriptRegistry {
  private readonly scripts = new Map<string, ScriptInfo>();
  private readonly idsByUrl = new Map<string, string[]>();
  private readonly parsedListeners: ((script: ScriptInfo) => void)[] = [];

  constructor(private readonly maps: SourceMapCache) {}

  parsed(event: Protocol.Debugger.ScriptParsedEvent): void {
    if (!event.url) return;
    const script: ScriptInfo = { scriptId: event.scriptId, url: event.url, sourceMapURL: event.sourceMapURL || undefined, sourceAt: Date.now() };
    this.scripts.set(event.scriptId, script);
    this.idsByUrl.set(event.url, [...(this.idsByUrl.get(event.url) ?? []), event.scriptId]);
    for (const listener of this.parsedListeners) listener(script);
  }

  onParsed(listener: (script: ScriptInfo) => void): void {
    this.parsedListeners.push(listener);
  }

  get(scriptId: string): ScriptInfo | undefined {
    return this.scripts.get(scriptId);
  }

  urlOf(scriptId: string): string | undefined {
    return this.scripts.get(scriptId)?.url;
  }

  byUrl(url: string): ScriptInfo[] {
    return (this.idsByUrl.get(url) ?? []).flatMap((id) => this.scripts.get(id) ?? []);
  }

  /** Scripts loaded from files, with a source map; those under node_modules only when asked. */
  mappedScripts(includeDependencies: boolean): ScriptInfo[] {
    return [...this.scripts.values()].filter((s) => s.sourceMapURL && s.url.startsWith('file:') && (includeDependencies || !isDependency(s.url)));
  }

  /** Scripts loaded from files, dependencies included. */
  fileScripts(): ScriptInfo[] {
    return [...this.scripts.values()].filter((s) => pathOfUrl(s.url));
  }

  /** Scripts the user wrote: loaded from files outside node_modules. */
  userScripts(): ScriptInfo[] {
    return [...this.scripts.values()].filter((s) => s.url.startsWith('file:') && !isDependency(s.url));
  }

  /** The absolute path of a script loaded from a file; undefined for node internals and evals. */
  pathOf(scriptId: string): string | undefined {
    const url = this.urlOf(scriptId);
    return url ? pathOfUrl(url) : undefined;
  }

  /** A live edit replaced the script's text; `map` is the new text's map, when it has one. */
  edited(scriptId: string, map: LoadedMap | undefined): void {
    const script = this.scripts.get(scriptId);
    if (!script) return;
    script.sourceAt = Date.now();
    script.editedMap = map;
  }

  mapOf(script: ScriptInfo | undefined): Promise<LoadedMap | undefined> {
    if (script?.editedMap) return Promise.resolve(script.editedMap);
    if (!script?.sourceMapURL) return Promise.resolve(undefined);
    return this.maps.load(script.url, script.sourceMapURL);
  }

  /** A 0-based V8 location as the agent reads it: 1-based, in the original source where there is one. */
  async location(scriptId: string, line: number, column: number): Promise<ScriptLocation> {
    const original = await this.originalOf(scriptId, line, column);
    if (original) return { ...original, mapped: true };
    return { file: this.pathOf(scriptId), line: line + 1, column: column + 1, mapped: false };
  }

  async originalOf(scriptId: string, line: number, column: number): Promise<OriginalPosition | undefined> {
    const map = await this.mapOf(this.scripts.get(scriptId));
    return map?.originalOf(line, column);
  }
}

export function pathOfUrl(url: string): string | undefined {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  // CommonJS scripts of old Node versions are named by their plain path.
  return isAbsolute(url) ? url : undefined;
}

export function isDependency(urlOrPath: string): boolean {
  return /[\\/]node_modules[\\/]/.test(urlOrPath);
}
