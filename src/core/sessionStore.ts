/**
 * The session file: each server keeps its sessions' configurations and breakpoints in a file of
 * its own (named by its pid) in the OS state/temp dir, never the user's cwd. A server that starts
 * later adopts the files of servers that are gone, ran in the same working folder and changed
 * recently, and lists their sessions as recoverable, so `session_restart` relaunches them with their
 * breakpoints (e.g. after a hot reload). Other projects' files are left to their own servers.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { BreakpointRecord } from './breakpointRegistry.js';
import { isProcessAlive } from './processAlive.js';
import type { SessionConfig } from './sessionConfig.js';

export interface StoredSession {
  sessionId: string;
  /** The shell client it belonged to (the daemon's); none for a server with one client. */
  client?: { key: string; tag: string };
  config: SessionConfig;
  breakpoints: Omit<BreakpointRecord, 'binding' | 'hits'>[];
  savedAt: number;
  /** When the server that ran it went away (set when a later server adopts it). */
  orphanedAt?: number;
}

/** Sessions of a server that ended longer ago than this are not offered again. */
export const RECOVERABLE_MS = 3600 * 1000;
/** The most recent orphans offered again; older ones are let go. */
export const MAX_RECOVERABLE = 5;
/** Files untouched this long are removed, whichever folder they belong to. */
const STALE_MS = 24 * 3600 * 1000;

interface StoreFile {
  pid?: number;
  cwd?: string;
  sessions?: StoredSession[];
}

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

export class SessionStore {
  private readonly file: string;

  constructor(
    private readonly dir = defaultStateDir(),
    private readonly cwd = process.cwd(),
  ) {
    this.file = join(dir, `sessions-${process.pid}.json`);
  }

  get path(): string {
    return this.file;
  }

  /**
   * Takes over the files of servers of this folder that are gone; returns the sessions they left
   * alive within the last hour, the most recent few.
   */
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
        const age = Date.now() - statSync(full).mtimeMs;
        if (age > STALE_MS) {
          rmSync(full, { force: true });
          continue;
        }
        if (isProcessAlive(Number(m[1]))) continue;
        const stored = JSON.parse(readFileSync(full, 'utf8')) as StoreFile;
        if (stored.cwd !== this.cwd) continue;
        // Rename first: of two servers starting at once, only one gets the file.
        const claimed = `${full}.claimed-${process.pid}`;
        renameSync(full, claimed);
        rmSync(claimed, { force: true });
        // A session adopted before (and offered again by a server that ended since) keeps its
        // own time: it does not become recent again with each server that passes it on.
        const orphanedAt = Date.now() - age;
        for (const session of stored.sessions ?? []) adopted.push({ ...session, orphanedAt: session.orphanedAt ?? orphanedAt });
      } catch {
        // Unreadable or claimed by another server: not ours.
      }
    }
    return adopted
      .filter((s) => Date.now() - s.orphanedAt! <= RECOVERABLE_MS)
      .sort((a, b) => b.orphanedAt! - a.orphanedAt!)
      .slice(0, MAX_RECOVERABLE);
  }

  save(sessions: StoredSession[]): void {
    try {
      if (sessions.length === 0) {
        rmSync(this.file, { force: true });
        return;
      }
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.tmp`;
      const content: StoreFile = { pid: process.pid, cwd: this.cwd, sessions };
      writeFileSync(tmp, JSON.stringify(content, null, 1), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch {
      // Persistence is a convenience: a read-only temp dir must not break debugging.
    }
  }
}
