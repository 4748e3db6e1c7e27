/** The Node test-runner fixture: its runners (jest, vitest) are its own dev dependencies. */
import { fileURLToPath } from 'node:url';
import { installFromLock } from './lockInstall.js';

export const NODE_TEST_FIXTURE = fileURLToPath(new URL('../fixtures/testing/node/', import.meta.url));

export function installNodeTestFixture(): void {
  installFromLock(NODE_TEST_FIXTURE);
}
