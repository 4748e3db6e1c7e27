/**
 * debug_test and test_list for `dotnet test` through the real MCP server, on an xUnit project under
 * VSTest: the debugger attaches to the test host VSTEST_HOST_DEBUG holds, so breakpoints in the test
 * and in the code under test hit, and the failing assertion stops in the test's frame, the current
 * one (xunit.assert's frames above it). The cart tests are shaped like a real suite: a nested
 * class, theories with rows (one with a long quoted string xUnit cuts in its display name), a
 * display name with quotes and spaces, code under test that runs work on the thread pool.
 * (NUnit, MSTest on Microsoft.Testing.Platform and on VSTest: test/heavy/test-dotnet-frameworks.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { dotnetRuns, FIRST_RUN_MS, PRICES, project, testsFile } from '../support/dotnetTestFixtures.js';
import { idsToCheck, testsSelected } from '../support/idSelection.js';
import { expectEndSeen, ranAlone, runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

export const XUNIT_IDS = [
  'total with "quotes" and spaces',
  'XunitTests.CartTests.PoolErrorsAreCollected',
  'XunitTests.PricesTests.Adds',
  'XunitTests.PricesTests.ExpectedErrorsPass',
  'XunitTests.PricesTests.Rounds',
  'XunitTests.PricesTests.Totals',
  'XunitTests.CartTests+Sums.TotalPlain',
  'XunitTests.CartTests+Sums.TotalOfPens(qty: 1, expected: 10)',
  'XunitTests.CartTests+Sums.TotalOfPens(qty: 3, expected: 31)',
  'XunitTests.CartTests+Sums.NamedLine(name: "a \\"quoted\\" pen whose name is long enough for the"···, price: 5)',
];

describe.runIf(dotnetRuns)('debug_test: dotnet test (xUnit, VSTest)', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await startTestClient();
  });
  afterAll(async () => {
    await client?.close();
  });

  it(
    'stops the failing xUnit test at Assert.Equal in the test host, with expected and actual; sets and steps in the test\'s frame; ends with the runner\'s summary',
    async () => {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'Totals', timeoutMs: FIRST_RUN_MS }, { timeoutMs: FIRST_RUN_MS });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.framework).toBe('dotnet');
      const failure = r.structured.failure!;
      const testFrame = { name: 'XunitTests.PricesTests.Totals', file: testsFile('XunitTests'), line: markerLine(testsFile('XunitTests'), 'FAIL:total') };
      expect(failure.frame).toMatchObject(testFrame);
      expect(failure).toMatchObject({ type: 'Xunit.Sdk.EqualException', expected: '30', actual: '25' });
      expect(failure.locals?.map((l) => `${l.name}=${l.value}`)).toContain('expected=30');
      // The stop's own frame is the test's; xunit.assert's frames stay above it in inspect_stack.
      expect(r.structured.stop).toMatchObject({ frameIndex: 2, frame: testFrame });
      expect(r.text).not.toMatch(/frameIndex/);
      expect(r.text).toMatch(/^> +\d+ \| +Assert\.Equal\(expected, Prices\.Total\(prices, 5\)\); \/\/ FAIL:total$/m);
      const locals = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', {});
      expect(locals.structured.variables.map((v) => `${v.name}=${v.value}`)).toContain('expected=30');
      const evaluated = await client.call<{ value?: string }>('inspect_evaluate', { expression: 'prices.Length' });
      expect(evaluated.structured.value, evaluated.text).toBe('3');
      const watched = await client.call<{ values?: { value?: string }[] }>('watch_add', { expressions: ['prices.Length'] });
      expect(watched.structured.values?.[0]?.value).toBe('3');
      await client.call('watch_remove', { all: true });
      // Assert.Equal's frame has an `expected` of its own: a value set with no frame named is the test's.
      const set = await client.call('inspect_set_variable', { name: 'expected', value: '25' });
      expect(set.isError, set.text).toBe(false);
      const testLocals = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { frameIndex: 2 });
      expect(testLocals.structured.variables.map((v) => `${v.name}=${v.value}`)).toContain('expected=25');
      const during = await runningUnder(client);

      // A step over from the test's frame: the exception unwinds the test into xUnit, which catches it, so
      // (as with Just My Code in Visual Studio) the run goes on to the user's code next run, here none: the end.
      const step = await client.call<{ status: string; stop?: { frame: { file?: string } } }>('execution_step', { kind: 'over', timeoutMs: 60_000 });
      expect(step.structured.stop?.frame.file ?? '').not.toMatch(/xunit|^\/_\//i);
      const end = step.structured.status === 'exited' ? step : await client.call<{ status: string; exitCode?: number; outputTail?: string }>('execution_continue', { sessionId: r.structured.sessionId });
      // The run ends when the runner has printed its results: its exit code is the run's.
      expect(end.structured).toMatchObject({ status: 'exited', exitCode: 1 });
      expect(end.text).toMatch(/The test run ended: FAILED \(Failed: 1, Passed: 0, Skipped: 0, Total: 1, Duration: [^)]*\), exit code 1\.\nFailure summary:\n  XunitTests\.PricesTests\.Totals\n/);
      await stopAllAndCheckGone(client, during);
    },
    FIRST_RUN_MS,
  );

  it('stops a passing test at a breakpoint in the code under test; breakpoint_wait and session_state see it end PASSED; lists the tests', async () => {
    const line = markerLine(PRICES, 'BP:add');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'Adds', breakpoints: [{ file: PRICES, line }] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'Calc.Prices.Add', line } });
    await client.call('execution_continue', { sessionId: r.structured.sessionId, wait: false });
    await expectEndSeen(client, r.structured.sessionId, 'passed');

    // Ended by the user at a breakpoint in a [Theory] case: no verdict, said so (was: 'did not run (error)' from the killed runner's output).
    const cases = `${project('XunitTests')}/CartTests.cs`;
    const row = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'XunitTests.CartTests+Sums.TotalOfPens(qty: 1, expected: 10)', breakpoints: [{ file: cases, line: markerLine(cases, 'FAIL:each') }] });
    expect(row.structured.stop, row.text).toMatchObject({ reason: 'breakpoint' });
    const stopped = await client.call<{ verdict?: { status: string } }>('session_stop', { sessionId: row.structured.sessionId });
    expect({ text: stopped.text, verdict: stopped.structured.verdict?.status }).toMatchObject({ text: expect.stringContaining('before its end: no verdict (stopped by the user).'), verdict: 'stopped' });

    const list = await client.call<TestListAnswer>('test_list', { path: project('XunitTests'), timeoutMs: FIRST_RUN_MS });
    expect(list.structured.tests.map((t) => t.id).sort()).toEqual([...XUNIT_IDS].sort());
  }, FIRST_RUN_MS);

  it('runs a test that expects an exception to the end, and a skipped one, and answers an unknown name with the closest', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'ExpectedErrorsPass' });
    expect(r.structured, r.text).toMatchObject({ status: 'finished', result: { status: 'passed', exitCode: 0 } });
    // VSTest sums up a run of skipped tests as `Skipped!`: passed, as pytest's and jest's are.
    const skipped = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'Rounds' });
    expect(skipped.structured.result, skipped.text).toMatchObject({ status: 'passed', counts: expect.stringContaining('Skipped: 1') });
    const missing = await client.call('debug_test', { path: project('XunitTests'), test: 'Totalz' });
    expect(missing.text).toMatch(/^TEST_NOT_FOUND: .*Closest: XunitTests\.PricesTests\.Totals,/);
  }, 120_000);

  it('runs a test whose code under test fails tasks on the thread pool (and collects their errors) to PASSED, with no stop', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: 'XunitTests.CartTests.PoolErrorsAreCollected' });
    expect(r.structured, r.text).toMatchObject({ status: 'finished', result: { status: 'passed' } });
  }, FIRST_RUN_MS);

  it('runs every test_list id exactly (theory rows, a row xUnit cuts, a display name with quotes and spaces), a few under the debugger', async () => {
    // Each id (one of each shape in CI: idsToCheck), run as debug_test plans it without the debugger: VSTest names that one test.
    for (const id of idsToCheck(XUNIT_IDS)) expect({ id, ran: await testsSelected(project('XunitTests'), id) }).toEqual({ id, ran: [id] });
    // A part of a display name the test gives itself (xUnit's DisplayName, not its method's name) selects it.
    expect(await testsSelected(project('XunitTests'), 'quotes" and spaces')).toEqual(['total with "quotes" and spaces']);
    // A few through debug_test itself: each is a dotnet test run under the debugger, seconds of CI.
    for (const id of XUNIT_IDS.filter((i) => i.includes('NamedLine') || i.startsWith('total with'))) {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: project('XunitTests'), test: id, stopAtFailure: false, timeoutMs: FIRST_RUN_MS }, { timeoutMs: FIRST_RUN_MS });
      expect(r.isError, r.text).toBe(false);
      expect({ id, result: r.structured.result?.status, alone: ranAlone(r.structured.result?.counts) }).toEqual({ id, result: 'passed', alone: true });
    }
  }, 3 * FIRST_RUN_MS);
});
