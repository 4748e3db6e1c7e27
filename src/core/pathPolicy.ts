/**
 * Path arguments the agent passes (program, breakpoint and source files, cwd, interpreters): made
 * absolute, checked for the kind of file they must be, and — when DEBUGBRIDGE_ROOTS lists folders —
 * required to fall under one of them after symbolic links are followed. Not a sandbox: the debugged
 * program and evaluated expressions run with the server's rights; the roots bound what the server
 * itself opens and starts on the agent's word.
 */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { DebugError } from './errors.js';

export type PathKind = 'file' | 'directory' | 'file or directory' | 'any';

export class PathPolicy {
  private readonly roots: string[];

  constructor(roots: string[] = []) {
    this.roots = roots.filter(Boolean).map((root) => realOrResolved(resolve(root)));
  }

  /** The roots from DEBUGBRIDGE_ROOTS (the platform's path-list separator: `:` or `;`). */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): PathPolicy {
    return new PathPolicy((env.DEBUGBRIDGE_ROOTS ?? '').split(delimiter));
  }

  get restricted(): boolean {
    return this.roots.length > 0;
  }

  /**
   * `path` made absolute against `cwd`, under the roots, and (when it exists) of the given kind.
   * `what` names the argument in errors ("program", "breakpoint file", …).
   */
  resolve(path: string, cwd: string, what: string, kind: PathKind = 'any'): string {
    const full = isAbsolute(path) ? resolve(path) : resolve(cwd, path);
    this.requireAllowed(full, what);
    const stats = statOrUndefined(full);
    if (stats && !matchesKind(stats, kind)) {
      throw new DebugError('INVALID_ARGUMENT', `The ${what} ${full} is ${describeKind(stats)}, not a ${kind}.`, `Pass a ${kind === 'directory' ? 'folder' : 'regular file'}.`);
    }
    return full;
  }

  /** Throws PATH_NOT_ALLOWED when roots are set and `full` (links followed unless told not to) is under none of them. */
  requireAllowed(full: string, what: string, { followLinks = true } = {}): void {
    if (!this.restricted) return;
    const real = followLinks ? realOrResolved(full) : join(realOrResolved(dirname(full)), basename(full));
    if (this.roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))) return;
    throw new DebugError(
      'PATH_NOT_ALLOWED',
      `The ${what} ${full}${real !== full ? ` (${real})` : ''} is outside the folders this server may use: ${this.roots.join(', ')}.`,
      'Use a path under one of them; the folders are set by DEBUGBRIDGE_ROOTS where the server is started.',
    );
  }
}

/** The real path of `full`, or of its nearest existing ancestor with the rest appended. */
function realOrResolved(full: string): string {
  try {
    return realpathSync.native(full);
  } catch {
    const parent = dirname(full);
    return parent === full ? full : join(realOrResolved(parent), basename(full));
  }
}

function statOrUndefined(full: string): Stats | undefined {
  try {
    return statSync(full);
  } catch {
    return undefined;
  }
}

function matchesKind(stats: Stats, kind: PathKind): boolean {
  switch (kind) {
    case 'file':
      return stats.isFile();
    case 'directory':
      return stats.isDirectory();
    case 'file or directory':
      return stats.isFile() || stats.isDirectory();
    case 'any':
      return true;
  }
}

export function describeKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}
