/**
 * debug_test and test_list for node:test, jest and vitest through the real MCP server, each with
 * the fixture's own installed runner: the failing test stops at its assertion in the test's frame
 * (expected errors and errors the code catches itself do not stop it), a passing test stops at a
 * breakpoint in the code under test, an unknown name answers the closest names. The cart suites
 * are shaped like real ones (nested describes, parametrised cases, a name with quotes and spaces,
 * TypeScript for vitest, a library that throws and catches inside: semver).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { testsSelected } from '../support/idSelection.js';
import { installMochaFixture, installNodeTestFixture, MOCHA_FIXTURE, NODE_TEST_FIXTURE } from '../support/nodeTestFixture.js';
import { expectEndSeen, ranAlone, runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

const file = (name: string) => join(NODE_TEST_FIXTURE, name);
/** A node:test file in TypeScript, in the fixture that has tsx. */
const TS_TESTS = fileURLToPath(new URL('../fixtures/node/ts/tests/tally.test.ts', import.meta.url));
const tsx = existsSync(fileURLToPath(new URL('../fixtures/node/ts/node_modules/tsx/package.json', import.meta.url)));
const calc = file('calc.js');

const RUNNERS = [
  { framework: 'node:test', file: 'calc.nodetest.js', type: 'AssertionError', values: { expected: '30', actual: '25' } },
  { framework: 'jest', file: 'calc.jest.test.js', type: 'JestAssertionError', values: { expected: '30', actual: '25' } },
  { framework: 'vitest', file: 'calc.vitest.test.mjs', type: 'AssertionError', values: { expected: '30', actual: '25' } },
] as const;

const CART_IDS = [
  'cart > totals > total plain',
  'cart > totals > total of 1 pens is 10',
  'cart > totals > total of 2 pens is 20',
  'cart > totals > total of 3 pens is 31',
  'cart > totals > total with "quotes" and spaces',
  'cart > totals > total of $0 for an empty cart',
  'cart > coupons and versions',
  'cart > session',
];

/** Ids run through debug_test itself (every id runs without the debugger): a passing each case beside a failing one, quotes and spaces, a name that reads like a pattern (`$`). */
const CART_SHAPES = ['cart > totals > total of 2 pens is 20', 'cart > totals > total with "quotes" and spaces', 'cart > totals > total of $0 for an empty cart'];

const CART = [
  { framework: 'node:test', file: 'cart.nodetest.js', eachLocals: ['total=30'], eachExpression: 'total', set: { name: 'total', value: '31' } },
  { framework: 'jest', file: 'cart.jest.test.js', eachLocals: ['qty=3', 'expected=31'], eachExpression: 'pens(qty).total()', set: { name: 'qty', value: '4' } },
  { framework: 'vitest', file: 'cart.vitest.test.ts', eachLocals: ['qty=3', 'expected=31'], eachExpression: 'pens(line.qty).total()', set: { name: 'qty', value: '4' } },
] as const;

describe('debug_test: node:test, jest, vitest and mocha', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    installNodeTestFixture();
    installMochaFixture();
    client = await startTestClient();
  }, 300_000);
  afterAll(async () => {
    await client?.close();
  });

  describe.each(RUNNERS)('$framework', (runner) => {
    it('stops the failing test at its assertion with expected and actual, and leaves nothing running', async () => {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: file(runner.file) });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.framework).toBe(runner.framework);
      const failure = r.structured.failure!;
      expect(failure.frame.file).toBe(file(runner.file));
      expect(failure.type).toContain(runner.type);
      expect(failure).toMatchObject(runner.values);
      expect(failure.locals?.map((l) => `${l.name}=${l.value}`)).toEqual(expect.arrayContaining(['expected=30', 'prices=[10, 20, 5]']));
      // vitest runs files transformed by vite: its lines come back through vite's source maps.
      expect(failure.frame.line).toBe(markerLine(file(runner.file), 'FAIL:total'));
      const during = await runningUnder(client);
      expect(during.length).toBeGreaterThan(0);
      await stopAllAndCheckGone(client, during);
    });

    it('stops a passing test at a breakpoint in the code under test; breakpoint_wait and session_state see it end PASSED', async () => {
      const line = markerLine(calc, 'BP:add');
      const r = await client.call<DebugTestAnswer>('debug_test', { path: file(runner.file), test: 'adds', breakpoints: [{ file: calc, line }] });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'add', file: calc, line } });
      expect(r.structured.stop?.locals?.slice(0, 2).map((l) => `${l.name}=${l.value}`)).toEqual(['a=2', 'b=3']);
      const sessionId = r.structured.sessionId;
      await client.call('execution_continue', { sessionId, wait: false });
      await expectEndSeen(client, sessionId, 'passed');
    });

    it('lists the tests, answers a skipped one PASSED with its count and an unknown name with the closest', async () => {
      const list = await client.call<TestListAnswer>('test_list', { path: file(runner.file) });
      expect(list.isError, list.text).toBe(false);
      expect(list.structured.tests.map((t) => t.id)).toEqual(['adds', 'expected errors pass', 'rounds', 'totals']);
      const skipped = await client.call<DebugTestAnswer>('debug_test', { path: file(runner.file), test: 'rounds' });
      expect(skipped.isError, skipped.text).toBe(false);
      expect(skipped.structured.result).toMatchObject({ status: 'passed', counts: expect.stringMatching(/\b1 skipped\b/) });
      const missing = await client.call('debug_test', { path: file(runner.file), test: 'totls' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^TEST_NOT_FOUND: .*Closest: totals,/);
    }, 180_000);
  });

  describe.each(CART)('$framework: the cart suite', (runner) => {
    const tests = file(runner.file);
    const each = markerLine(tests, 'FAIL:each');

    it('stops where the parametrised case fails, in the test\'s frame (the frame every call defaults to), then at the object comparison after an await with whole values and the expressions that read them; watches in the test\'s frame; no stop where semver or the cart catches, nor at a rejection the test expects (expect(p).rejects, assert.rejects)', async () => {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: tests });
      expect(r.isError, r.text).toBe(false);
      const stop = r.structured.stop!;
      expect(stop).toMatchObject({ reason: 'exception', frame: { file: tests, line: each } });
      // The assertion library's frames stay above it in inspect_stack; the test's frame is the current one.
      expect(stop.frameIndex).toBeGreaterThan(0);
      expect(r.text).not.toMatch(/frameIndex/);
      expect(r.text).toContain(`expected: 31   actual: 30`);
      const sessionId = r.structured.sessionId;
      const locals = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { sessionId });
      expect(locals.structured.variables.map((v) => `${v.name}=${v.value}`)).toEqual(expect.arrayContaining([...runner.eachLocals]));
      const evaluated = await client.call<{ value?: string }>('inspect_evaluate', { sessionId, expression: runner.eachExpression });
      expect(evaluated.structured.value).toBe('30');
      const watched = await client.call<{ values?: { value?: string }[] }>('watch_add', { sessionId, expressions: [runner.eachExpression] });
      expect(watched.structured.values?.[0]?.value).toBe('30');
      await client.call('watch_remove', { sessionId, all: true });
      // A value set with no frame named is set in the test's frame, not in the assertion library's.
      const set = await client.call('inspect_set_variable', { sessionId, name: runner.set.name, value: runner.set.value });
      expect(set.isError, set.text).toBe(false);
      const testFrame = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { sessionId, frameIndex: stop.frameIndex });
      expect(testFrame.structured.variables.map((v) => `${v.name}=${v.value}`)).toContain(`${runner.set.name}=${runner.set.value}`);

      const next = await client.call<{ status: string; stop?: NonNullable<DebugTestAnswer['stop']> }>('execution_continue', { sessionId });
      expect(next.structured.stop).toMatchObject({ reason: 'exception', frame: { file: tests, line: markerLine(tests, 'FAIL:session') } });
      expect(next.text).toMatch(/^\[node-\d+\] Stopped where the test fails, in /);
      const exception = next.structured.stop!.exception!;
      expect(exception.expected).toMatch(/token: "t-3"/);
      expect(exception.actual).toMatch(/token: "t-4"/);
      expect(next.text).not.toMatch(/\{ Object \(/);
      // Objects are shown capped: the answer names the expressions that read them whole.
      const whole = next.text.match(/\(whole values: inspect_evaluate (\$exception\S*\.expected) \/ (\$exception\S*\.actual)\)/);
      expect(whole, next.text).not.toBeNull();
      const actual = await client.call<{ value?: string }>('inspect_evaluate', { sessionId, expression: `${whole![2]}.token` });
      expect(actual.structured.value).toBe('"t-4"');

      const end = await client.call<{ status: string; verdict?: { status: string } }>('execution_continue', { sessionId });
      expect(end.structured).toMatchObject({ status: 'exited', verdict: { status: 'failed' } });
      expect(end.text).toMatch(/^\[node-\d+\] The test run ended: FAILED \(/);
    }, 180_000);

    it('runs the tests a describe block\'s name or a part of a test\'s name selects, as the runner\'s -t does', async () => {
      const totals = await client.call<DebugTestAnswer>('debug_test', { path: tests, test: 'totals', stopAtFailure: false });
      expect(totals.isError, totals.text).toBe(false);
      expect(totals.structured.result).toMatchObject({ status: 'failed', counts: expect.stringMatching(/\b1 failed\b.*\b5 passed\b|\b5 passed\b.*\b1 failed\b/) });
      const part = await client.call<DebugTestAnswer>('debug_test', { path: tests, test: 'quotes', stopAtFailure: false });
      expect(part.structured.result?.status, part.text).toBe('passed');
      expect(ranAlone(part.structured.result?.counts)).toBe(true);
    }, 120_000);

    it('steps over from the test\'s frame at its failure without stopping in the assertion library', async () => {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: tests, test: 'cart > totals > total of 3 pens is 31' });
      expect(r.structured.stop?.frameIndex).toBeGreaterThan(0);
      const sessionId = r.structured.sessionId;
      const step = await client.call<{ status: string; stop?: { frame: { file?: string } } }>('execution_step', { sessionId, kind: 'over' });
      // The exception unwinds the test: the step ends in the user's code or with the run, never in node_modules.
      expect(step.structured.stop?.frame.file ?? '').not.toMatch(/node_modules|^node:/);
      if (step.structured.status === 'exited') expect(step.text).toContain('FAILED');
      else await client.call('execution_continue', { sessionId, wait: false });
      // However the end is seen, it is the test's verdict.
      await expectEndSeen(client, sessionId, 'failed');
    }, 120_000);

    it('lists each test by an id, and every id runs exactly that test (nested describes, each cases, quotes and spaces)', async () => {
      const list = await client.call<TestListAnswer>('test_list', { path: tests });
      const ids = list.structured.tests.map((t) => t.id);
      expect(ids).toEqual(CART_IDS);
      // Every id, run as debug_test plans it but without the debugger: the runner reports that one test ran.
      for (const id of ids) expect({ id, ran: await testsSelected(tests, id) }).toEqual({ id, ran: [id] });
      // A few through debug_test itself (the failing each case runs alone in the step test above): each costs seconds of CI.
      for (const id of CART_SHAPES) {
        const r = await client.call<DebugTestAnswer>('debug_test', { path: tests, test: id, stopAtFailure: false });
        expect({ id, result: r.structured.result?.status, alone: ranAlone(r.structured.result?.counts) }).toEqual({ id, result: 'passed', alone: true });
      }
    }, 600_000);
  });

  it('vitest: an id from a folder\'s listing names its file and runs that test alone', async () => {
    const list = await client.call<TestListAnswer>('test_list', { path: NODE_TEST_FIXTURE, framework: 'vitest' });
    const id = 'cart.vitest.test.ts > cart > totals > total plain';
    expect(list.structured.tests.map((t) => t.id)).toContain(id);
    const r = await client.call<DebugTestAnswer>('debug_test', { path: NODE_TEST_FIXTURE, framework: 'vitest', test: id, stopAtFailure: false });
    expect(r.structured.result).toMatchObject({ status: 'passed' });
    expect(ranAlone(r.structured.result?.counts)).toBe(true);
  }, 120_000);

  it.skipIf(!tsx)('node:test in TypeScript runs through the project\'s tsx: test_list lists its tests, and an async test stops where it fails, in the .ts file', async () => {
    const list = await client.call<TestListAnswer>('test_list', { path: TS_TESTS });
    expect(list.isError, list.text).toBe(false);
    expect(list.structured.tests.map((t) => t.id)).toEqual(['tally > words > counts repeats', 'tally > words > ignores double spaces']);
    const r = await client.call<DebugTestAnswer>('debug_test', { path: TS_TESTS, test: 'tally > words > ignores double spaces' });
    expect(r.structured.stop).toMatchObject({ reason: 'exception', frame: { file: TS_TESTS, line: markerLine(TS_TESTS, 'FAIL:tally') } });
    expect(r.text).toContain('expected: 2   actual: 3');
    await client.call('session_stop', { sessionId: r.structured.sessionId });
  }, 120_000);

  describe('mocha (an ES module package with chai and node:assert, one suite CommonJS)', () => {
    const mocha = (name: string) => join(MOCHA_FIXTURE, name);
    const inventory = mocha('test/inventory.spec.js');
    const INVENTORY_IDS = [
      'inventory > counts > adds stock',
      'inventory > counts > removes 1 leaving 2',
      'inventory > counts > removes 2 leaving 1',
      'inventory > counts > removes 3 leaving 1',
      'inventory > counts > values the stock',
      'inventory > counts > refuses what it cannot do',
      'inventory > counts > tracks returns',
      'inventory > counts > syncs with the warehouse',
      'inventory > suppliers > restocks after an await, and a refused order rejects',
      'inventory > suppliers > restocks short after an await',
      'inventory > suppliers > restocks through a returned promise',
      'inventory > suppliers > reserves with a callback',
      'inventory > audits > matches the ledger',
    ];

    it('lists a file\'s tests (nested describes, cases made in a loop, pending ones, a skipped describe), a folder\'s configured files, and only the .only test of a file that has one; every id runs that test alone', async () => {
      const list = await client.call<TestListAnswer>('test_list', { path: inventory });
      expect(list.isError, list.text).toBe(false);
      expect(list.structured.framework).toBe('mocha');
      expect(list.structured.tests.map((t) => t.id)).toEqual(INVENTORY_IDS);
      const folder = await client.call<TestListAnswer>('test_list', { path: mocha('test') });
      expect(folder.structured.tests.map((t) => t.id)).toEqual(
        expect.arrayContaining(['inventory.spec.js > inventory > counts > adds stock', 'legacy.spec.cjs > legacy prices > formats zero', 'warehouse.spec.js > warehouse > ships a box']),
      );
      expect(folder.structured.tests.some((t) => t.id.startsWith('focus.js'))).toBe(false);
      // A folder the configuration does not name runs as mocha runs it given that folder.
      const acceptance = await client.call<TestListAnswer>('test_list', { path: mocha('test/acceptance') });
      expect(acceptance.structured.tests.map((t) => t.id), acceptance.text).toEqual(['restock.js > restock end to end > restocks from a supplier', 'restock.js > restock end to end > serves the stock']);
      const focus = await client.call<TestListAnswer>('test_list', { path: mocha('test/focus.js') });
      expect(focus.structured.tests.map((t) => t.id)).toEqual(['focus > counts what was added']);
      // Without the debugger: each runnable id runs exactly that test, in that file only (the configured spec left out).
      for (const id of INVENTORY_IDS.filter((i) => !/tracks returns|audits|warehouse/.test(i))) expect({ id, ran: await testsSelected(inventory, id) }).toEqual({ id, ran: [id] });
      // A name that reads like a pattern (a price: `$`) is still that test's name.
      for (const id of ['legacy prices > formats zero', 'legacy prices > formats 250 cents as $2.50']) expect(await testsSelected(mocha('test/legacy.spec.cjs'), id)).toEqual([id]);
    }, 180_000);

    it('stops at each failure of a file in turn: node:assert in a loop case, chai, after an await, in a returned promise, in a done callback; not where the code, assert.throws or assert.rejects catch, nor where a test skips itself (this.skip()); then FAILED with counts', async () => {
      const r = await client.call<DebugTestAnswer>('debug_test', { path: inventory });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.framework).toBe('mocha');
      expect(r.structured.failure).toMatchObject({ frame: { file: inventory, line: markerLine(inventory, 'FAIL:loop') }, type: expect.stringContaining('AssertionError'), expected: '1', actual: '0' });
      // The test function has no variables of its own: the stop shows the loop's case and the suite's stock it reads.
      expect(r.structured.failure?.locals?.map((l) => `${l.name}=${l.value}`), r.text).toEqual(['qty=3', 'left=1', expect.stringMatching(/^stock=Inventory/)]);
      const during = await runningUnder(client);
      const sessionId = r.structured.sessionId;
      // The loop's case and the suite's stock are the test function's closure, read in its frame.
      const evaluated = await client.call<{ results: { value?: string }[] }>('inspect_evaluate', { sessionId, expressions: ['qty', "stock.count('pen')"] });
      expect(evaluated.structured.results.map((e) => e.value), evaluated.text).toEqual(['3', '0']);
      type Next = { status: string; stop?: NonNullable<DebugTestAnswer['stop']>; verdict?: { status: string; counts?: string } };
      const stops: { line: number; expected?: string; actual?: string }[] = [];
      for (let i = 0; i < 4; i++) {
        const next = await client.call<Next>('execution_continue', { sessionId });
        expect(next.structured.stop?.reason, next.text).toBe('exception');
        const { frame, exception } = next.structured.stop!;
        expect(frame.file).toBe(inventory);
        stops.push({ line: frame.line, expected: exception?.expected, actual: exception?.actual });
      }
      expect(stops).toEqual([
        { line: markerLine(inventory, 'FAIL:chai'), expected: '7', actual: '6' },
        { line: markerLine(inventory, 'FAIL:await'), expected: '5', actual: '4' },
        { line: markerLine(inventory, 'FAIL:promise'), expected: '5', actual: '4' },
        { line: markerLine(inventory, 'FAIL:done'), expected: '1', actual: '2' },
      ]);
      const end = await client.call<Next>('execution_continue', { sessionId });
      expect(end.structured).toMatchObject({ status: 'exited', verdict: { status: 'failed', counts: '5 failed, 5 passed, 3 skipped' } });
      await stopAllAndCheckGone(client, during);
    }, 180_000);

    it('stops where a beforeEach hook fails, and in a CommonJS suite run by name; a describe\'s name runs its tests; a pending test passes as skipped; an unknown name answers the closest', async () => {
      const warehouse = mocha('test/warehouse.spec.js');
      const hook = await client.call<DebugTestAnswer>('debug_test', { path: warehouse });
      expect(hook.structured.failure, hook.text).toMatchObject({ frame: { file: warehouse, line: markerLine(warehouse, 'FAIL:hook') }, message: expect.stringContaining('the warehouse starts with two boxes') });
      await client.call('session_stop', { sessionId: hook.structured.sessionId });

      const legacy = mocha('test/legacy.spec.cjs');
      const cjs = await client.call<DebugTestAnswer>('debug_test', { path: legacy, test: 'legacy prices > formats zero' });
      expect(cjs.structured.failure, cjs.text).toMatchObject({ frame: { file: legacy, line: markerLine(legacy, 'FAIL:cjs') }, expected: '"$0"', actual: '"$0.00"' });
      const cjsEnd = await client.call<{ verdict?: { status: string; counts?: string } }>('execution_continue', { sessionId: cjs.structured.sessionId });
      expect(cjsEnd.structured.verdict).toEqual(expect.objectContaining({ status: 'failed', counts: '1 failed, 0 passed' }));

      // Its server is left listening: the run ends when mocha has reported (--exit), not when the debuggee's timeout does.
      const acceptance = await client.call<DebugTestAnswer>('debug_test', { path: mocha('test/acceptance'), stopAtFailure: false, timeoutMs: 30_000 });
      expect(acceptance.structured.result, acceptance.text).toMatchObject({ status: 'passed', counts: '0 failed, 2 passed' });
      const suppliers = await client.call<DebugTestAnswer>('debug_test', { path: inventory, test: 'suppliers', stopAtFailure: false });
      expect(suppliers.structured.result, suppliers.text).toMatchObject({ status: 'failed', counts: '3 failed, 1 passed' });
      // The failures' report, from mocha's first one (not the tree of tests above it).
      expect(suppliers.structured.result?.failureSummary).toMatch(/^1\) inventory\n\s+suppliers\n\s+restocks short after an await:\n[\s\S]*AssertionError/);
      const pending = await client.call<DebugTestAnswer>('debug_test', { path: inventory, test: 'inventory > counts > tracks returns' });
      expect(pending.structured.result, pending.text).toMatchObject({ status: 'passed', counts: expect.stringMatching(/\b1 skipped\b/) });
      const missing = await client.call('debug_test', { path: inventory, test: 'values the stok' });
      expect(missing.text).toMatch(/^TEST_NOT_FOUND: .*Closest: inventory > counts > values the stock/);
    }, 180_000);

    it('stops a test at a breakpoint in the code under test', async () => {
      const code = mocha('src/inventory.js');
      const line = markerLine(code, 'BP:value');
      const r = await client.call<DebugTestAnswer>('debug_test', { path: inventory, test: 'values the stock', breakpoints: [{ file: code, line }] });
      expect(r.structured.stop, r.text).toMatchObject({ reason: 'breakpoint', frame: { name: expect.stringContaining('value'), file: code, line } });
      const sessionId = r.structured.sessionId;
      await client.call('execution_continue', { sessionId, wait: false });
      await expectEndSeen(client, sessionId, 'failed');
    }, 120_000);
  });

  it('answers the install command when the runner is not installed', async () => {
    const project = mkdtempSync(join(tmpdir(), 'dbb-no-vitest-'));
    writeFileSync(join(project, 'package.json'), '{"name": "no-runner"}');
    writeFileSync(join(project, 'a.test.mjs'), "import { test } from 'vitest';\n");
    const r = await client.call('debug_test', { path: join(project, 'a.test.mjs') });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^FRAMEWORK_NOT_INSTALLED: vitest is not installed in .*\nNext: Install it there: cd .* && npm install --save-dev vitest/);
  });
});
