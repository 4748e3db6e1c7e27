/** Helpers the framework drivers share: running a short command, finding a project's root folder. */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DebugError } from '../core/errors.js';

export interface CommandResult {
  code: number | undefined;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (listing tests, probing a runner); never throws for a non-zero exit. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal },
): Promise<CommandResult> {
  return new Promise((resolvePromise) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 60_000, signal: options.signal, maxBuffer: 32 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : undefined) : 0;
        resolvePromise({ code, stdout: String(stdout), stderr: String(stderr || (error && typeof error.code !== 'number' ? error.message : '')) });
      },
    );
  });
}

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
