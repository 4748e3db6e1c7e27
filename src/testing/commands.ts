/** Helpers the framework drivers share: finding a project's root folder, command lines, listing errors. */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DebugError } from '../core/errors.js';

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest folder at or above `path` holding one of `markers`, or undefined. */
export function findUp(path: string, markers: string[]): string | undefined {
  let dir = isDirectory(path) ? resolve(path) : dirname(resolve(path));
  while (true) {
    if (markers.some((m) => existsSync(join(dir, m)))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The folder of a file, or the folder itself. */
export function folderOf(path: string): string {
  return isDirectory(path) ? path : dirname(path);
}

/** Quotes an argument for the command line shown to the agent (never executed through a shell). */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(command: string, args: string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}

/** The last lines of a text, capped. */
export function lastLines(text: string, lines: number, chars: number): string {
  const kept = text.trimEnd().split('\n').slice(-lines).join('\n');
  return kept.length > chars ? `…${kept.slice(-chars)}` : kept;
}

/** A runner's listing that failed: what it said, and what to do. */
export function listFailed(what: string, output: string): DebugError {
  return new DebugError('LAUNCH_FAILED', `${what} failed:\n${lastLines(output, 15, 3000)}`, 'Fix what it says (imports, syntax, build errors), then list again.');
}
