/**
 * Where the shell daemon lives: a folder only this user can enter (the XDG runtime dir, else one
 * under the OS temp dir that is checked to be ours and private), holding the socket (mode 0600),
 * the lock a starting daemon holds until it listens, and the daemons' log. On Windows the socket is a named pipe.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { DebugError } from '../core/errors.js';

export interface DaemonPaths {
  dir: string;
  socket: string;
  lock: string;
  log: string;
}

function userName(): string {
  try {
    return userInfo().username.replace(/[^\w.-]/g, '_');
  } catch {
    return 'user';
  }
}

/** The folder: DEBUGBRIDGE_RUNTIME_DIR, else $XDG_RUNTIME_DIR/debugbridge, else <tmp>/debugbridge-<uid>. */
export function daemonPaths(env: NodeJS.ProcessEnv = process.env): DaemonPaths {
  const owner = process.getuid?.() ?? userName();
  const dir = env.DEBUGBRIDGE_RUNTIME_DIR || (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'debugbridge') : join(tmpdir(), `debugbridge-${owner}`));
  const socket = process.platform === 'win32' ? `\\\\.\\pipe\\debugbridge-${userName()}-${Buffer.from(dir).toString('hex').slice(-16)}` : join(dir, 'daemon.sock');
  return { dir, socket, lock: join(dir, 'daemon.lock'), log: join(dir, 'daemon.log') };
}

/** Creates the folder if needed and refuses one that another user owns or others can enter. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new DebugError('INVALID_STATE', `${dir} is not a folder of this user.`, 'Remove it, or point DEBUGBRIDGE_RUNTIME_DIR at a private folder.');
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
