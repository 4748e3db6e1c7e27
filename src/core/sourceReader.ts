/** Reads source lines for stop context and inspect_source, cached by path and modification time. */
import { readFileSync, statSync } from 'node:fs';

export interface SourceLine {
  line: number;
  text: string;
  current: boolean;
}

const cache = new Map<string, { mtimeMs: number; lines: string[] }>();
const MAX_LINE_CHARS = 240;

function linesOf(file: string): string[] | undefined {
  try {
    const { mtimeMs } = statSync(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit.lines;
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    cache.set(file, { mtimeMs, lines });
    return lines;
  } catch {
    return undefined;
  }
}

/** `before` lines above `line` and `after` below it; undefined when the file cannot be read. */
export function readSourceWindow(file: string, line: number, before: number, after: number): SourceLine[] | undefined {
  const lines = linesOf(file);
  if (!lines) return undefined;
  const first = Math.max(1, line - before);
  const last = Math.min(lines.length, line + after);
  const out: SourceLine[] = [];
  for (let n = first; n <= last; n++) {
    const raw = lines[n - 1];
    out.push({ line: n, text: raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}…` : raw, current: n === line });
  }
  return out;
}

export function sourceLineCount(file: string): number | undefined {
  return linesOf(file)?.length;
}
