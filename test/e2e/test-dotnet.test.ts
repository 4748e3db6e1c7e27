/**
 * debug_test and test_list for `dotnet test` through the real MCP server, on an xUnit project under
 * VSTest: the debugger attaches to the test host VSTEST_HOST_DEBUG holds, so breakpoints in the test
 * and in the code under test hit, and the failing assertion stops in the test's frame.
 * (NUnit and MSTest on Microsoft.Testing.Platform: test/heavy/test-dotnet-frameworks.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { dotnetRuns, FIRST_RUN_MS, PRICES, project, testsFile } from '../support/dotnetTestFixtures.js';
import { runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

describe.runIf(dotnetRuns)('debug_test: dotnet test (xUnit, VSTest)', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await startTestClient();
  });
  afterAll(async () => {
    await client?.close();
  });

  it(
    'stops the failing xUnit test at Assert.Equal in the test host, with expected and actual; ends with the runner\'s summary',
    async () => {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'Totals', timeoutMs: FIRST_RUN_MS }, { timeoutMs: FIRST_RUN_MS });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.framework).toBe('dotnet');
      const failure = r.structured.failure!;
      expect(failure.frame).toMatchObject({ name: 'XunitTests.PricesTests.Totals', file: testsFile('XunitTests'), line: markerLine(testsFile('XunitTests'), 'FAIL:total') });
      expect(failure).toMatchObject({ type: 'Xunit.Sdk.EqualException', expected: '30', actual: '25' });
      expect(failure.locals?.map((l) => `${l.name}=${l.value}`)).toContain('expected=30');
      const during = await runningUnder(client);

      const end = await client.call<{ status: string; exitCode?: number; outputTail?: string }>('execution_continue', { sessionId: r.structured.sessionId });
      // The run ends when the runner has printed its results: its exit code is the run's.
      expect(end.structured).toMatchObject({ status: 'exited', exitCode: 1 });
      expect(end.structured.outputTail).toMatch(/Failed!\s+-\s+Failed:\s+1, Passed:\s+0/);
      await stopAllAndCheckGone(client, during);
    },
    FIRST_RUN_MS,
  );

  it('stops a passing test at a breakpoint in the code under test, and lists the tests', async () => {
    const line = markerLine(PRICES, 'BP:add');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'Adds', breakpoints: [{ file: PRICES, line }] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'Calc.Prices.Add', line } });
    const end = await client.call<{ status: string; exitCode?: number }>('execution_continue', { sessionId: r.structured.sessionId });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });

    const list = await client.call<TestListAnswer>('test_list', { path: project('XunitTests') });
    expect(list.structured.tests.map((t) => t.id)).toEqual(['XunitTests.PricesTests.Adds', 'XunitTests.PricesTests.ExpectedErrorsPass', 'XunitTests.PricesTests.Totals']);
  }, 120_000);

  it('runs a test that expects an exception to the end, and answers an unknown name with the closest', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'ExpectedErrorsPass' });
    expect(r.structured, r.text).toMatchObject({ status: 'finished', result: { status: 'passed', exitCode: 0 } });
    const missing = await client.call('debug_test', { path: project('XunitTests'), test: 'Totalz' });
    expect(missing.text).toMatch(/^TEST_NOT_FOUND: .*Closest: XunitTests\.PricesTests\.Totals,/);
  }, 120_000);
});
