/**
 * Fixtures with npm dependencies of their own (TypeScript runners, test frameworks) install them
 * from their committed lock, once: `npm ci` when node_modules is missing or older than the lock, so
 * a fresh clone's `npm test` runs these tests instead of skipping them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** An install from npm's cache took 10–20 s on 2 busy cores; a cold one downloads about 60 MB. */
const INSTALL_BUDGET_MS = 240_000;

export function installFromLock(dir: string): void {
  const installed = join(dir, 'node_modules', '.package-lock.json');
  const lock = join(dir, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: INSTALL_BUDGET_MS });
}
