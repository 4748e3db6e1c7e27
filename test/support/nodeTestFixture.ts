/** The Node test-runner fixtures: their runners (jest, vitest; mocha and chai) are their own dev dependencies. */
import { fileURLToPath } from 'node:url';
import { installFromLock } from './lockInstall.js';

export const NODE_TEST_FIXTURE = fileURLToPath(new URL('../fixtures/testing/node/', import.meta.url));
/** An ES module package with mocha, chai and node:assert suites (one of them CommonJS). */
export const MOCHA_FIXTURE = fileURLToPath(new URL('../fixtures/testing/mocha/', import.meta.url));

export function installNodeTestFixture(): void {
  installFromLock(NODE_TEST_FIXTURE);
}

export function installMochaFixture(): void {
  installFromLock(MOCHA_FIXTURE);
}
