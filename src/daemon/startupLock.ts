/**
 * A lock that one process at a time holds, and that a process can take over from a holder that
 * died: a folder whose one entry names its holder (`<pid>.<nonce>`), put in place with rename(2).
 * rename replaces an empty folder and fails on a non-empty one, so taking the free lock, and taking
 * it over after removing a dead holder's entry, are each one atomic step: of two processes that
 * race, the second gets ENOTEMPTY and sees the first as the holder. A dead holder's entry is removed
 * by its exact name, which no later holder has, so a slow process can never remove a live one's.
 * (POSIX only: Windows cannot rename a folder onto another.)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessRunning } from '../core/processAlive.js';

export type LockAttempt = { release(): void } | { holder: number };

/** Takes the lock at `path`, or answers the pid of the live process that holds it. */
export function takeLock(path: string): LockAttempt {
  const entry = `${process.pid}.${randomBytes(6).toString('hex')}`;
  const candidate = `${path}.${entry}`;
  mkdirSync(candidate, { mode: 0o700 });
  writeFileSync(join(candidate, entry), '');
  try {
    for (;;) {
      try {
        renameSync(candidate, path);
        return { release: () => release(path, entry) };
      } catch (e) {
        if (!isCode(e, 'ENOTEMPTY', 'EEXIST')) throw e;
      }
      const entries = holderEntries(path);
      const live = entries.map(pidOf).find(isProcessRunning);
      if (live !== undefined) return { holder: live };
      for (const dead of entries) rmSync(join(path, dead), { force: true });
    }
  } finally {
    rmSync(candidate, { recursive: true, force: true }); // gone already when the rename took the lock
  }
}

function release(path: string, entry: string): void {
  rmSync(join(path, entry), { force: true });
  try {
    rmdirSync(path);
  } catch (e) {
    // ENOTEMPTY: the next holder already put its folder in place of the emptied one.
    if (!isCode(e, 'ENOENT', 'ENOTEMPTY', 'EEXIST')) throw e;
  }
}

function holderEntries(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (e) {
    if (isCode(e, 'ENOENT')) return []; // released meanwhile: try again
    throw e;
  }
}

function pidOf(entry: string): number {
  return Number.parseInt(entry, 10);
}

function isCode(e: unknown, ...codes: string[]): boolean {
  return codes.includes((e as NodeJS.ErrnoException).code ?? '');
}
