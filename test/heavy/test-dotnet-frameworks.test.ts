/**
 * debug_test for the other .NET frameworks (`npm run test:heavy`: each restores and builds a project
 * of its own): NUnit under VSTest, MSTest as a Microsoft.Testing.Platform program launched directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { dotnetRuns, FIRST_RUN_MS, PRICES, project, testsFile } from '../support/dotnetTestFixtures.js';
import { runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

describe.runIf(dotnetRuns)('debug_test: NUnit and MSTest', () => {
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
      const during = await runningUnder(client);
      const end = await client.call<{ status: string; exitCode?: number }>('execution_continue', { sessionId: r.structured.sessionId });
      expect(end.structured.status).toBe('exited');
      expect(end.structured.exitCode).not.toBe(0);
      await stopAllAndCheckGone(client, during);
    },
    FIRST_RUN_MS,
  );

  it('MSTest on Microsoft.Testing.Platform: a breakpoint in the code under test hits, and the tests list', async () => {
    const line = markerLine(PRICES, 'BP:add');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project('MstestTests'), test: 'Adds', breakpoints: [{ file: PRICES, line }] });
    expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'Calc.Prices.Add', line } });
    const end = await client.call<{ status: string; exitCode?: number }>('execution_continue', { sessionId: r.structured.sessionId });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
    const list = await client.call<TestListAnswer>('test_list', { path: project('MstestTests') });
    expect(list.structured.tests.map((t) => t.id)).toEqual(['Adds', 'Totals']);
  }, 120_000);
});
