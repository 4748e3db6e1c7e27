import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** `npm run test:heavy`: the suites too heavy for `npm test` (test/heavy/), with the same settings. */
export default defineConfig({
  test: { ...base.test, include: ['test/heavy/**/*.test.ts'], exclude: configDefaults.exclude },
});
