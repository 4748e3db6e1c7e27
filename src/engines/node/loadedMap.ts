/**
 * One source map, read with @jridgewell/trace-mapping. A map names the files it was made from;
 * only those present on disk are mapped to, so a program whose map points at absent sources is
 * debugged in the JavaScript that runs.
 */
import { existsSync, realpathSync } from 'node:fs';
import { pathOfUrl } from './scriptRegistry.js';
import { allGeneratedPositionsFor, FlattenMap, GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND, originalPositionFor, type SourceNeedle, type TraceMap } from '@jridgewell/trace-mapping';

/** How far below a line without code a breakpoint may move to find one. */
const NEXT_LINE_SEARCH = 50;

/** 0-based, as V8 counts. */
export interface GeneratedPosition {
  line: number;
  column: number;
}

/** 1-based, as the agent reads. */
export interface OriginalPosition {
  file: string;
  line: number;
  column: number;
}

export class LoadedMap {
  static parse(text: string, mapUrl: string): LoadedMap {
    return LoadedMap.of(JSON.parse(text) as object, mapUrl);
  }

  /** A map already parsed; its mappings may be encoded or decoded. */
  static of(map: object, mapUrl: string): LoadedMap {
    return new LoadedMap(new FlattenMap(map as Parameters<typeof FlattenMap>[0], mapUrl));
  }

  /** Absolute path of each source (undefined where it is no file), and whether it is on disk. */
  private readonly files: (string | undefined)[];
  private readonly present: boolean[];
  private readonly indexByFile = new Map<string, number>();

  constructor(private readonly trace: TraceMap) {
    this.files = trace.resolvedSources.map(pathOfUrl);
    this.present = this.files.map((f) => !!f && existsSync(f));
    this.files.forEach((file, i) => {
      if (!file) return;
      this.indexByFile.set(file, i);
      if (this.present[i]) this.indexByFile.set(realPath(file), i);
    });
  }

  /** The source files this map names that are on disk. */
  get sources(): string[] {
    return this.files.filter((f, i): f is string => !!f && this.present[i]);
  }

  mapsFile(file: string): boolean {
    return this.indexByFile.has(file) || this.indexByFile.has(realPath(file));
  }

  /** The text of a source as the map carries it (its `sourcesContent`): what the script was compiled from. */
  contentOf(file: string): string | undefined {
    const index = this.indexByFile.get(file) ?? this.indexByFile.get(realPath(file));
    return index === undefined ? undefined : (this.trace.sourcesContent?.[index] ?? undefined);
  }

  /** Where generated code came from; undefined for generated-only code and for absent sources. */
  originalOf(line: number, column: number): OriginalPosition | undefined {
    const hit = originalPositionFor(this.trace, { line: line + 1, column, bias: GREATEST_LOWER_BOUND });
    if (hit.source === null) return undefined;
    const index = this.trace.resolvedSources.indexOf(hit.source);
    const file = this.files[index];
    if (!file || !this.present[index]) return undefined;
    return { file, line: hit.line, column: hit.column + 1 };
  }

  /**
   * The first generated position of an original line (1-based), or of the next line that has
   * code when it has none; undefined when nothing below it maps either.
   */
  generatedOf(file: string, line: number, column?: number): GeneratedPosition | undefined {
    const index = this.indexByFile.get(file) ?? this.indexByFile.get(realPath(file));
    if (index === undefined) return undefined;
    const source = this.trace.resolvedSources[index];
    for (let l = line; l < line + NEXT_LINE_SEARCH; l++) {
      const needle: SourceNeedle = { source, line: l, column: l === line && column ? column - 1 : 0, bias: LEAST_UPPER_BOUND };
      const all = allGeneratedPositionsFor(this.trace, needle).filter((p) => p.line !== null);
      if (!all.length) continue;
      const first = all.reduce((a, b) => (b.line < a.line || (b.line === a.line && b.column < a.column) ? b : a));
      return { line: first.line - 1, column: first.column };
    }
    return undefined;
  }
}

const realPaths = new Map<string, string>();

function realPath(file: string): string {
  let real = realPaths.get(file);
  if (real === undefined) {
    try {
      real = realpathSync(file);
    } catch {
      real = file;
    }
    realPaths.set(file, real);
  }
  return real;
}
