/**
 * debug_test and test_list for pytest and unittest through the real MCP server: a small fixture
 * with one failing test, passing tests and tests that expect exceptions (which must not stop the
 * run), and a library-shaped one (shaped like more-itertools: a Sequence whose iteration ends with
 * an IndexError, doctests a module adds through load_tests, a thread pool that collects errors,
 * nested test classes, parametrised cases named with spaces and quotes).
 */
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { descendants } from '../support/processTree.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { testsSelected } from '../support/idSelection.js';
import { expectEndSeen, ranAlone, runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

const DIR = fileURLToPath(new URL('../fixtures/testing/python/', import.meta.url));
const file = (name: string) => join(DIR, name);
const LIB = fileURLToPath(new URL('../fixtures/testing/python-lib/', import.meta.url));
const lib = (name: string) => join(LIB, name);
const BARE = fileURLToPath(new URL('../fixtures/testing/python-bare/', import.meta.url));

const run = requireRuntime('python3 with debugpy and pytest', hasCommand('/usr/bin/python3', ['-c', 'import debugpy, pytest']));

describe.runIf(run)('debug_test: pytest and unittest', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await startTestClient();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('stops a failing pytest test at its assertion, in the test\'s frame, with the values and locals; ends with the runner\'s summary', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: file('test_calc.py') });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.framework).toBe('pytest');
    expect(r.structured.status).toBe('stopped');
    const failure = r.structured.failure!;
    // test_expected_error raises inside pytest.raises and parse_or_none catches its own error: neither stops.
    expect(failure.frame).toMatchObject({ name: 'test_total', line: markerLine(file('test_calc.py'), 'FAIL:total') });
    expect(failure.type).toBe('AssertionError');
    expect(failure.message).toContain('assert 25 == 30');
    expect(failure.locals?.map((l) => `${l.name}=${l.value}`)).toEqual(expect.arrayContaining(['expected=30', 'prices=[10, 20, 5]']));
    expect(r.text).toMatch(/Stopped where the test fails, in test_total \(test_calc\.py:\d+\)/);
    const during = await runningUnder(client);

    const end = await client.call<{ status: string; outputTail?: string; verdict?: { status: string } }>('execution_continue', { sessionId: r.structured.sessionId });
    expect(end.structured.status).toBe('exited');
    expect(end.structured.verdict?.status).toBe('failed');
    expect(end.text).toContain('The test run ended: FAILED (1 failed, 3 passed), exit code 1.');
    expect(end.text).toContain('FAILED test_calc.py::test_total - assert 25 == 30');
    await stopAllAndCheckGone(client, during);
  });

  it('stops a passing test at a breakpoint in the code under test, then reports it passed', async () => {
    const line = markerLine(file('calc.py'), 'BP:add');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: file('test_calc.py'), test: 'test_in_class', breakpoints: [{ file: file('calc.py'), line }] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'add', line } });
    expect(r.structured.stop?.locals?.map((l) => `${l.name}=${l.value}`)).toEqual(['a=1', 'b=1']);
    const end = await client.call<{ status: string; exitCode?: number }>('execution_continue', { sessionId: r.structured.sessionId });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(end.text).toContain('The test run ended: PASSED (1 passed), exit code 0.');
  });

  it('answers a finished run as passed with the counts when nothing stops it', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: file('test_calc.py'), test: 'test_add' });
    expect(r.structured.status).toBe('finished');
    expect(r.structured.result).toMatchObject({ status: 'passed', counts: '1 passed', exitCode: 0 });
    expect(r.text).toContain('PASSED (1 passed)');
  });

  it('answers an unknown test name with the closest names, leaves no process in the fixture\'s folder, and lists the ids debug_test takes', async () => {
    await stopAllAndCheckGone(client, []);
    const before = await runningUnder(client);
    const r = await client.call('debug_test', { path: file('test_calc.py'), test: 'test_totl' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^TEST_NOT_FOUND: .*Closest: test_calc\.py::test_total,/);
    // The census: nothing of the run is left, and what the server readies ahead (the next ready
    // debuggee) waits in a folder of its own, not in the folder of the test it followed.
    const after = await runningUnder(client);
    expect(after.filter((pid) => !before.includes(pid))).toEqual([]);
    const inFixture = descendants(client.pid!).filter((pid) => cwdOf(pid) === DIR.replace(/\/$/, ''));
    expect(inFixture).toEqual([]);

    const list = await client.call<TestListAnswer>('test_list', { path: file('test_calc.py') });
    expect(list.structured.tests.map((t) => t.id)).toEqual(['test_calc.py::test_add', 'test_calc.py::test_expected_error', 'test_calc.py::test_total', 'test_calc.py::TestGroup::test_in_class']);
    const filtered = await client.call<TestListAnswer>('test_list', { path: DIR, filter: 'unittest', limit: 2 });
    expect(filtered.structured).toMatchObject({ total: 3, truncated: true });
    expect(filtered.structured.tests).toHaveLength(2);
  });

  it('runs unittest with its own runner: stops at assertEqual in the test, passes assertRaises', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: file('test_calc_unittest.py'), framework: 'unittest' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.failure).toMatchObject({ frame: { name: 'test_total', line: markerLine(file('test_calc_unittest.py'), 'FAIL:total') }, type: 'AssertionError', message: '25 != 30' });
    const stopped = await client.call('session_stop', { sessionId: r.structured.sessionId });
    expect(stopped.text).toMatch(/Session ended, and the test run with it before its end: FAILED\.\nFailure summary:\n  AssertionError: 25 != 30/);

    const list = await client.call<TestListAnswer>('test_list', { path: file('test_calc_unittest.py'), framework: 'unittest' });
    expect(list.structured.tests.map((t) => t.id)).toContain('test_calc_unittest.CalcTest.test_total');
    const missing = await client.call('debug_test', { path: file('test_calc_unittest.py'), framework: 'unittest', test: 'CalcTest.test_ad' });
    expect(missing.text).toMatch(/^TEST_NOT_FOUND: .*Closest: test_calc_unittest\.CalcTest\.test_add,/);
  });

  it('runs a bare tests/ package (no project file) from its folder, a test named the unittest way by its class', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: BARE, test: 'StockTests.test_put' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.failure).toMatchObject({ frame: { name: 'test_put', line: markerLine(join(BARE, 'tests/test_stock.py'), 'FAIL:put') }, message: '5 != 6' });
    const end = await client.call<{ verdict?: { status: string; counts?: string } }>('execution_continue', {});
    // OtherTests.test_put, of the same name, does not run.
    expect(end.structured.verdict).toMatchObject({ status: 'failed', counts: '1 failed, 1 deselected' });
  });
});

describe.runIf(run)('debug_test: a library-shaped Python suite', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await startTestClient();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('unittest: stops only where a test fails, not where the library, a doctest or a thread pool catches, nor where a test skips itself (skipTest())', async () => {
    const tests = lib('tests/test_views.py');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: tests });
    expect(r.structured.framework).toBe('unittest');
    expect(r.structured.stop).toMatchObject({ reason: 'exception', frameIndex: 0, frame: { name: 'test_first_total', file: tests, line: markerLine(tests, 'FAIL:first-total') } });
    expect(r.text).toMatch(/^Stopped where the test fails, in test_first_total \(test_views\.py:\d+\), thread 1: AssertionError\n  30 != 31$/m);
    // The end seen by breakpoint_wait and session_state (not by the continue) says the verdict too.
    await client.call('execution_continue', { wait: false });
    const verdict = await expectEndSeen(client, r.structured.sessionId, 'failed');
    expect(verdict.counts).toBe('ran 7; FAILED (failures=1, skipped=1)');
  });

  it('pytest: stops only at the failing case of a parametrised test in a nested class, not where an xfail test fails as expected (marked on the test, on its class, in its class\'s or its module\'s pytestmark, or by pytest.xfail()) nor where a test skips itself (pytest.skip())', async () => {
    const tests = lib('tests/test_views_pytest.py');
    const r = await client.call<DebugTestAnswer>('debug_test', { path: tests });
    expect(r.structured.stop).toMatchObject({ reason: 'exception', frame: { name: 'test_sum', file: tests, line: markerLine(tests, 'FAIL:sum') } });
    expect(r.structured.stop?.locals?.map((l) => `${l.name}=${l.value}`)).toEqual(expect.arrayContaining(['items=[10, 20]', 'expected=31']));
    const end = await client.call<{ status: string; stop?: { frame: { line: number } }; verdict?: { status: string; counts?: string } }>('execution_continue', {});
    expect(end.structured, end.text).toMatchObject({ status: 'exited', verdict: { status: 'failed', counts: '1 failed, 5 passed, 1 skipped, 4 xfailed' } });
    const planned = await client.call<DebugTestAnswer>('debug_test', { path: lib('tests/test_planned_pytest.py') });
    expect(planned.structured.result, planned.text).toMatchObject({ status: 'passed', counts: '1 xfailed' });
  });

  it.each([
    { name: 'unittest', path: 'tests/test_views.py', failing: 'tests.test_views.TotalsTests.test_first_total', doctest: 'shelf.views.first' },
    { name: 'pytest', path: 'tests/test_views_pytest.py', failing: 'tests/test_views_pytest.py::TestViews::test_sum[wrong total]', doctest: undefined },
  ])('$name: every id test_list gives (doctests, nested classes, cases named with spaces and quotes) runs exactly that test', async ({ path, failing, doctest }) => {
    const list = await client.call<TestListAnswer>('test_list', { path: lib(path) });
    const ids = list.structured.tests.map((t) => t.id);
    expect(ids.length).toBe(path.endsWith('pytest.py') ? 11 : 7);
    if (doctest) expect(ids).toContain(doctest);
    // Every id, run as debug_test plans it without the debugger (pytest: its collection): the runner names that one test.
    for (const id of ids) expect({ id, ran: await testsSelected(lib(path), id) }).toEqual({ id, ran: [id] });
    // A few through debug_test itself: the failing one, and a doctest or a case named with quotes and spaces.
    for (const id of [failing, doctest ?? ids.find((i) => i.includes('"'))!]) {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: lib(path), test: id, stopAtFailure: false });
      expect({ id, result: r.structured.result?.status }).toEqual({ id, result: id === failing ? 'failed' : 'passed' });
      expect({ id, ran: ranAlone(r.structured.result?.counts) }).toEqual({ id, ran: true });
    }
  }, 180_000);
});

function cwdOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}
