import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:windows`: the Windows stories under Wine (test/windows/). One file at a time: each
 * starts Wine processes, and the wineserver of one prefix serves them all.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/windows/**/*.test.ts'],
    exclude: configDefaults.exclude,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 900_000,
  },
});
