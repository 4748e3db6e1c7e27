/** The .NET test-framework fixtures: xUnit and NUnit under VSTest, MSTest as a Microsoft.Testing.Platform program. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { requireRuntime } from './runtimes.js';

export const DOTNET_TEST_FIXTURES = fileURLToPath(new URL('../fixtures/testing/dotnet/', import.meta.url));
export const PRICES = join(DOTNET_TEST_FIXTURES, 'Calc', 'Prices.cs');

export const project = (name: string) => join(DOTNET_TEST_FIXTURES, name);
export const testsFile = (name: string) => join(DOTNET_TEST_FIXTURES, name, 'PricesTests.cs');

/** The MSTest fixture's tests as test_list gives them, in its order: each [DataRow] by its arguments, a DisplayName as given. */
export const MSTEST_IDS = [
  'MstestTests.CartTests.TotalPlain',
  'MstestTests.CartTests.TotalOfPens (1,10)',
  'MstestTests.CartTests.TotalOfPens (3,31)',
  'MstestTests.CartTests.total with "quotes" and spaces',
  'MstestTests.CartTests.PoolErrorsAreCollected',
  'MstestTests.PricesTests.Adds',
  'MstestTests.PricesTests.Totals',
];

// Attach and launch are Linux-only so far in the .NET engine.
export const dotnetRuns = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);

/** The first debug_test of a fixture restores its packages and builds it: minutes on a cold, busy machine. */
export const FIRST_RUN_MS = 300_000;
