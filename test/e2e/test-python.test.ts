/**
 * debug_test and test_list for pytest and unittest through the real MCP server, on a fixture with
 * one failing test, passing tests, and tests that expect exceptions (which must not stop the run).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

const DIR = fileURLToPath(new URL('../fixtures/testing/python/', import.meta.url));
const file = (name: string) => join(DIR, name);

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

    const end = await client.call<{ status: string; outputTail?: string }>('execution_continue', { sessionId: r.structured.sessionId });
    expect(end.structured.status).toBe('exited');
    expect(end.structured.outputTail).toMatch(/1 failed, 3 passed/);
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
  });

  it('answers a finished run as passed with the counts when nothing stops it', async () => {
    const r = await client.call<DebugTestAnswer>('debug_test', { path: file('test_calc.py'), test: 'test_add' });
    expect(r.structured.status).toBe('finished');
    expect(r.structured.result).toMatchObject({ status: 'passed', counts: '1 passed', exitCode: 0 });
    expect(r.text).toContain('PASSED (1 passed)');
  });

  it('answers an unknown test name with the closest names, and lists the ids debug_test takes', async () => {
    const r = await client.call('debug_test', { path: file('test_calc.py'), test: 'test_totl' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^TEST_NOT_FOUND: .*Closest: test_calc\.py::test_total,/);

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
    await client.call('session_stop', { sessionId: r.structured.sessionId });

    const list = await client.call<TestListAnswer>('test_list', { path: file('test_calc_unittest.py'), framework: 'unittest' });
    expect(list.structured.tests.map((t) => t.id)).toContain('test_calc_unittest.CalcTest.test_total');
    const missing = await client.call('debug_test', { path: file('test_calc_unittest.py'), framework: 'unittest', test: 'CalcTest.test_ad' });
    expect(missing.text).toMatch(/^TEST_NOT_FOUND: .*Closest: test_calc_unittest\.CalcTest\.test_add,/);
  });
});
