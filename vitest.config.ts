import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Heavy suites run with `npm run test:heavy` (vitest.heavy.config.ts), the Windows ones under Wine
    // with `npm run test:windows` (vitest.windows.config.ts); fixtures are user code (a vitest suite too).
    exclude: [...configDefaults.exclude, 'test/heavy/**', 'test/windows/**', 'test/fixtures/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Integration tests start real runtimes; two cores is all a CI machine has.
    maxWorkers: 2,
    globalSetup: ['test/support/globalSetup.ts'],
    // Each test's server would start a Roslyn worker at its first .NET stop: dozens of them, none used.
    env: { DEBUGBRIDGE_COMPILER_PRESTART: '0' },
  },
});
