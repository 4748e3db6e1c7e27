/**
 * `npm run test:reliability`: the reliability suite at the counts the issue asks for (10,000 fuzzed
 * calls, 500 workflows, 32 concurrent sessions, every kill scenario on both runtimes). `npm test`
 * runs the same files at a CI size.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/reliability/**/*.test.ts'],
    env: { ...base.test?.env, DEBUGBRIDGE_RELIABILITY: 'full' },
    testTimeout: 1_800_000,
  },
});
