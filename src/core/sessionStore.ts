/**
 * The session file: each server keeps its sessions' configurations and breakpoints in a file of
 * its own (named by its pid) in the OS state/temp dir, never the user's cwd. A server that starts
 * later adopts the files of servers that are gone, and lists their sessions as recoverable, so
 * `session_restart` relaunches them with their breakpoints (e.g. after a hot reload).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { BreakpointRecord } from './breakpointRegistry.js';
import type { SessionConfig } from './session.js';

export interface StoredSession {
  sessionId: string;
  config: SessionConfig;
  breakpoints: Omit<BreakpointRecord, 'binding' | 'hits'>[];
  savedAt: number;
}

const STALE_MS = 24 * 3600 * 1000;

export function defaultStateDir(): string {
  if (process.env.DEBUGBRIDGE_STATE_DIR) return process.env.DEBUGBRIDGE_STATE_DIR;
  const xdg = process.env.XDG_STATE_HOME;
  if (xdg) return join(xdg, 'debugbridge');
  const user = (() => {
    try {
      return userInfo().username;
    } catch {
      return 'user';
    }
  })();
  return process.platform === 'win32' ? join(homedir(), 'AppData', 'Local', 'debugbridge') : join(tmpdir(), `debugbridge-${user}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SessionStore {
  private readonly file: string;

  constructor(private readonly dir = defaultStateDir()) {
    this.file = join(dir, `sessions-${process.pid}.json`);
  }

  get path(): string {
    return this.file;
  }

  /** Takes over the files of servers that are no longer running; returns their sessions. */
  adoptOrphans(): StoredSession[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const adopted: StoredSession[] = [];
    for (const name of names) {
      const m = /^sessions-(\d+)\.json$/.exec(name);
      if (!m || Number(m[1]) === process.pid) continue;
      const full = join(this.dir, name);
      try {
        if (Date.now() - statSync(full).mtimeMs > STALE_MS) {
          rmSync(full, { force: true });
          continue;
        }
        if (isAlive(Number(m[1]))) continue;
        // Rename first: of two servers starting at once, only one gets the file.
        const claimed = `${full}.claimed-${process.pid}`;
        renameSync(full, claimed);
        const parsed = JSON.parse(readFileSync(claimed, 'utf8')) as { sessions?: StoredSession[] };
        rmSync(claimed, { force: true });
        adopted.push(...(parsed.sessions ?? []));
      } catch {
        // Unreadable or claimed by another server: not ours.
      }
    }
    return adopted;
  }

  save(sessions: StoredSession[]): void {
    try {
      if (sessions.length === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.tmp`;
      writeFileSync(tmp, JSON.stringify({ pid: process.pid, sessions }, null, 1), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch {
      // Persistence is a convenience: a read-only temp dir must not break debugging.
    }
  }
}
