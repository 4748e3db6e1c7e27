/**
 * A runner that ended cleanly before any test ran, without saying that nothing matched: the listing
 * decides between "no such test" (with the closest names) and the runner's own failure.
 */
import { describe, expect, it } from 'vitest';
import { testNotListed, type PreparedTest } from '../../src/testing/testRun.js';
import { DebugError } from '../../src/core/errors.js';

const IDS = ['XunitTests.PricesTests.Totals', 'XunitTests.PricesTests.Adds', 'XunitTests.CartTests.Empty'];

function prepared(test: string | undefined, list: () => Promise<{ tests: { id: string }[] }>): PreparedTest {
  return { driver: { name: 'dotnet', list }, request: { path: '/repo/XunitTests', test, cwd: '/repo' } } as unknown as PreparedTest;
}
const listing = async () => ({ tests: IDS.map((id) => ({ id })) });
const signal = new AbortController().signal;

describe('testNotListed', () => {
  it('answers TEST_NOT_FOUND with the closest names when no listed test bears the name', async () => {
    const error = await testNotListed(prepared('Totalz', listing), signal);
    expect(error).toBeInstanceOf(DebugError);
    expect(error?.code).toBe('TEST_NOT_FOUND');
    expect(error?.message).toMatch(/Closest: XunitTests\.PricesTests\.Totals/);
  });

  it('leaves the runner failure as it is when the test is listed, nothing was named, or the listing fails', async () => {
    expect(await testNotListed(prepared('PricesTests.Totals', listing), signal)).toBeUndefined();
    expect(await testNotListed(prepared(undefined, listing), signal)).toBeUndefined();
    expect(await testNotListed(prepared('Totalz', () => Promise.reject(new Error('build failed'))), signal)).toBeUndefined();
  });
});
