/**
 * The Node test-runner fixture installs its runners (jest, vitest) as its own dev dependencies from
 * the npm registry, once: `npm ci` from the committed lock when node_modules is missing or older.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun } from './commands.js';

export const NODE_TEST_FIXTURE = fileURLToPath(new URL('../fixtures/testing/node/', import.meta.url));

/** An install from npm's cache took 10–20 s on 2 busy cores; a cold one downloads about 60 MB. */
const INSTALL_BUDGET_MS = 240_000;

export async function installNodeTestFixture(): Promise<void> {
  const installed = join(NODE_TEST_FIXTURE, 'node_modules', '.package-lock.json');
  const lock = join(NODE_TEST_FIXTURE, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  await mustRun('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: NODE_TEST_FIXTURE, budgetMs: INSTALL_BUDGET_MS });
}
