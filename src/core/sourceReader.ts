/**
 * Reads source lines for stop context and inspect_source, cached by path and modification time.
 * Only regular files are read, without ever blocking (a FIFO or /dev/zero would hang or flood the
 * server) and up to a size cap; a few recent files are kept.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { DebugError } from './errors.js';
import { describeKind } from './pathPolicy.js';

export interface SourceLine {
  line: number;
  text: string;
  current: boolean;
}

export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;
const MAX_LINE_CHARS = 240;
const CACHED_FILES = 32;
const READ_CHUNK = 1024 * 1024;

const cache = new Map<string, { mtimeMs: number; lines: string[] }>();

function linesOf(file: string): string[] {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new DebugError('PROGRAM_NOT_FOUND', `Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`, 'Check the path.');
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new DebugError('INVALID_ARGUMENT', `${file} is ${describeKind(stats)}; only regular files are read.`, 'Pass a source file.');
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stats.mtimeMs) {
      cache.delete(file);
      cache.set(file, hit);
      return hit.lines;
    }
    if (stats.size > MAX_SOURCE_BYTES) throw tooLarge(file, stats.size);
    const lines = readCapped(fd, file).split(/\r?\n/);
    cache.set(file, { mtimeMs: stats.mtimeMs, lines });
    if (cache.size > CACHED_FILES) cache.delete(cache.keys().next().value!);
    return lines;
  } finally {
    closeSync(fd);
  }
}

/** Reads to the end; files whose size the system does not know (/proc, /sys) still stop at the cap. */
function readCapped(fd: number, file: string): string {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, READ_CHUNK, null);
    } catch (e) {
      throw new DebugError('INVALID_ARGUMENT', `Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`, 'Pass a source file.');
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_SOURCE_BYTES) throw tooLarge(file, total);
    chunks.push(chunk.subarray(0, n));
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function tooLarge(file: string, bytes: number): DebugError {
  return new DebugError(
    'INVALID_ARGUMENT',
    `${file} has ${Math.ceil(bytes / 1024)} KB or more; source is read from files up to ${MAX_SOURCE_BYTES / 1024 / 1024} MB.`,
    'Look at the values with inspect_variables / inspect_evaluate instead, or pass a smaller file.',
  );
}

/** `before` lines above `line` and `after` below it, and how many lines the file has; throws a DebugError. */
export function sourceWindow(file: string, line: number, before: number, after: number): { lines: SourceLine[]; totalLines: number } {
  return windowOf(linesOf(file), line, before, after);
}

/** The same window of lines read elsewhere (a target's file). */
export function windowOf(lines: string[], line: number, before: number, after: number): { lines: SourceLine[]; totalLines: number } {
  const first = Math.max(1, line - before);
  const last = Math.min(lines.length, line + after);
  const out: SourceLine[] = [];
  for (let n = first; n <= last; n++) {
    const raw = lines[n - 1];
    out.push({ line: n, text: raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}…` : raw, current: n === line });
  }
  return { lines: out, totalLines: lines.length };
}

/** The same window for a stop's context; undefined when the file cannot be read. */
export function readSourceWindow(file: string, line: number, before: number, after: number): SourceLine[] | undefined {
  try {
    return sourceWindow(file, line, before, after).lines;
  } catch {
    return undefined;
  }
}

/** Every line of a source file (cached, with the same limits); undefined when it cannot be read. */
export function readSourceLines(file: string): string[] | undefined {
  try {
    return linesOf(file);
  } catch {
    return undefined;
  }
}

/** One line of a file (1-based), or undefined when the file cannot be read or is shorter. */
export function lineAt(file: string | undefined, line: number): string | undefined {
  return file ? readSourceLines(file)?.[line - 1] : undefined;
}

/** Forgets what was read of `file`: it was edited (a live edit), and a write within the same mtime tick must not show the old text. */
export function forgetSource(file: string): void {
  cache.delete(file);
}
