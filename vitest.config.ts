import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Integration tests start real runtimes; two cores is all a CI machine has.
    maxWorkers: 2,
    globalSetup: ['test/support/globalSetup.ts'],
  },
});
