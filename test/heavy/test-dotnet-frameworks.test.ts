/**
 * debug_test for the other .NET frameworks (`npm run test:heavy`: each restores and builds a project
 * of its own): NUnit under VSTest, MSTest as a Microsoft.Testing.Platform program launched directly and under VSTest.
 * Each lists fully qualified ids, each [TestCase] / [DataRow] by its arguments, that run alone.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { dotnetRuns, FIRST_RUN_MS, MSTEST_IDS, PRICES, project, testsFile } from '../support/dotnetTestFixtures.js';
import { idsToCheck, testsSelected } from '../support/idSelection.js';
import { ranAlone, runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

const IDS = {
  NunitTests: [
    'NunitTests.CartTests.PoolErrorsAreCollected',
    'NunitTests.CartTests.total with "quotes" and spaces',
    'NunitTests.CartTests+Sums.TotalOfPens(1,10)',
    'NunitTests.CartTests+Sums.TotalOfPens(3,31)',
    'NunitTests.CartTests+Sums.TotalPlain',
    'NunitTests.PricesTests.Adds',
    'NunitTests.PricesTests.Totals',
  ],
  MstestTests: MSTEST_IDS,
};

describe.runIf(dotnetRuns)('debug_test: NUnit, MSTest and xUnit v3', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await startTestClient();
  });
  afterAll(async () => {
    await client?.close();
  });

  it.each([
    { name: 'NunitTests', type: 'NUnit.Framework.AssertionException' },
    { name: 'MstestTests', type: 'Microsoft.VisualStudio.TestTools.UnitTesting.AssertFailedException' },
    // xUnit v3 without the testing platform: the test project is its own runner, run as the program it is.
    { name: 'XunitV3Tests', type: 'Xunit.Sdk.EqualException' },
  ])(
    '$name: stops the failing test at its assertion with expected and actual',
    async ({ name, type }) => {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: project(name), test: 'Totals', timeoutMs: FIRST_RUN_MS }, { timeoutMs: FIRST_RUN_MS });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.failure).toMatchObject({
        frame: { name: `${name}.PricesTests.Totals`, file: testsFile(name), line: markerLine(testsFile(name), 'FAIL:total') },
        type,
        expected: '30',
        actual: '25',
      });
      // The test's frame is the stop's own, the assertion library's above it.
      expect(r.structured.stop?.frameIndex).toBeGreaterThan(0);
      expect(r.structured.stop?.frame).toMatchObject({ name: `${name}.PricesTests.Totals` });
      const during = await runningUnder(client);
      const end = await client.call<{ status: string; exitCode?: number }>('execution_continue', { sessionId: r.structured.sessionId });
      expect(end.structured.status).toBe('exited');
      expect(end.structured.exitCode).not.toBe(0);
      expect(end.text).toMatch(/The test run ended: FAILED /);
      await stopAllAndCheckGone(client, during);
    },
    FIRST_RUN_MS,
  );

  it('xUnit v3 on its own runner: a part of a test\'s own display name selects that test, as under VSTest', async () => {
    const name = 'XunitV3Tests';
    expect(await testsSelected(project(name), 'quotes" and spaces')).toEqual(['total with "quotes" and spaces']);
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project(name), test: 'quotes" and spaces', stopAtFailure: false, timeoutMs: FIRST_RUN_MS }, { timeoutMs: FIRST_RUN_MS });
    expect(r.structured.result, r.text).toMatchObject({ status: 'passed' });
    expect(ranAlone(r.structured.result?.counts)).toBe(true);
  }, 2 * FIRST_RUN_MS);

  it('MSTest on Microsoft.Testing.Platform: a breakpoint in the code under test hits', async () => {
    const line = markerLine(PRICES, 'BP:add');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project('MstestTests'), test: 'Adds', breakpoints: [{ file: PRICES, line }] });
    expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'Calc.Prices.Add', line } });
    const end = await client.call<{ status: string; exitCode?: number }>('execution_continue', { sessionId: r.structured.sessionId });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
  }, 120_000);

  it('MSTest under VSTest: each [DataRow] and [DynamicData] row test_list gives runs alone (its display name is the adapter\'s Name), and the failing row stops', async () => {
    const name = 'MstestVstestTests';
    const list = await client.call<TestListAnswer>('test_list', { path: project(name), timeoutMs: FIRST_RUN_MS }, { timeoutMs: FIRST_RUN_MS });
    const ids = list.structured.tests.map((t) => t.id);
    expect(ids).toEqual(['TotalOfPens (1,10)', 'TotalOfPens (3,31)', 'TotalOfOne ("pen",2)', 'TotalOfOne (""quoted" pen",5)']);
    for (const id of idsToCheck(ids)) expect({ id, ran: await testsSelected(project(name), id) }).toEqual({ id, ran: [id] });
    const file = join(project(name), 'CartTests.cs');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project(name), test: 'TotalOfPens (3,31)' });
    expect(r.structured.failure, r.text).toMatchObject({ frame: { file, line: markerLine(file, 'FAIL:each') }, expected: '31', actual: '30' });
    const end = await client.call<DebugTestAnswer & { verdict?: { counts?: string } }>('execution_continue', { sessionId: r.structured.sessionId });
    expect(ranAlone(end.structured.verdict?.counts)).toBe(true);
  }, 3 * FIRST_RUN_MS);

  it.each(['NunitTests', 'MstestTests'] as const)(
    '%s: lists fully qualified ids, each case by its arguments, and each runs exactly that test; the thread pool\'s errors do not stop the run',
    async (name) => {
      const list = await client.call<TestListAnswer>('test_list', { path: project(name), timeoutMs: FIRST_RUN_MS }, { timeoutMs: FIRST_RUN_MS });
      expect(list.structured.tests.map((t) => t.id).sort()).toEqual([...IDS[name]].sort());
      // Each id (one of each shape in CI: idsToCheck), run as debug_test plans it without the debugger: the runner names that one test (the
      // platform by its display name, which the id ends with).
      for (const id of idsToCheck(IDS[name])) {
        const ran = await testsSelected(project(name), id);
        expect({ id, ran: ran.length, named: ran.every((r) => id === r || id.endsWith(`.${r}`)) }).toEqual({ id, ran: 1, named: true });
      }
      // A part of a name with spaces (NUnit's adapter reads a VSTest filter's space as the end of its value; the platform's filter reads
      // MSTest's method name, not its DisplayName): that test alone.
      expect(await testsSelected(project(name), 'quotes" and spaces')).toHaveLength(1);
      const pool = await client.call<DebugTestAnswer>('debug_test', { path: project(name), test: `${name}.CartTests.PoolErrorsAreCollected` });
      expect(pool.structured, pool.text).toMatchObject({ status: 'finished', result: { status: 'passed' } });
      // A few through debug_test itself, a passing case beside a failing one and a name with quotes and spaces: each run is seconds of CI.
      for (const id of IDS[name].filter((i) => /TotalOfPens ?\(1,10\)|quotes/.test(i))) {
        const r = await client.call<DebugTestAnswer>('debug_test', { path: project(name), test: id, stopAtFailure: false });
        expect({ id, result: r.structured.result?.status, alone: ranAlone(r.structured.result?.counts) }).toEqual({ id, result: 'passed', alone: true });
      }
    },
    5 * FIRST_RUN_MS,
  );
});
