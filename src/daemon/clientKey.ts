/**
 * Which client a shell command is, so the daemon keeps each client's sessions apart (parallel
 * agents of one user share the daemon). The first of:
 *
 *  1. `DEBUGBRIDGE_CLIENT`, when set: the caller names itself;
 *  2. the terminal: a command with a controlling terminal belongs to that terminal's session (Linux,
 *     read from /proc: the session id and when its leader started, so a reused id is another client);
 *  3. the project folder: the nearest folder above the working folder that holds `.git`, else the
 *     working folder itself (so a `cd src` stays the same client).
 *
 * Commands run without a terminal (an agent's shell tool, CI) are told apart by their folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ClientKey {
  key: string;
  /** What makes this client's session ids whole for another client (`python-1@<tag>`). */
  tag: string;
}

export function clientKey(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ClientKey {
  const named = env.DEBUGBRIDGE_CLIENT?.trim();
  if (named) return { key: `env:${named}`, tag: /^[\w.-]{1,32}$/.test(named) ? named : hashTag(named) };
  const terminal = terminalSession();
  const key = terminal ? `tty:${terminal}` : `dir:${projectFolder(cwd)}`;
  return { key, tag: hashTag(key) };
}

function hashTag(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 6);
}

/** `<session id>.<leader's start time>` when this process has a controlling terminal (Linux). */
function terminalSession(): string | undefined {
  const fields = statFields('self');
  if (!fields) return undefined;
  // After "pid (comm)": state ppid pgrp session tty_nr …; field 22 (index 19 here) is the start time.
  const [session, tty] = [fields[3], fields[4]];
  if (!tty || tty === '0') return undefined;
  const started = statFields(session)?.[19];
  return started ? `${session}.${started}` : session;
}

function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function projectFolder(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}
