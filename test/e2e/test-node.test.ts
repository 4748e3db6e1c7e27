/**
 * debug_test and test_list for node:test, jest and vitest through the real MCP server, each with
 * the fixture's own installed runner: the failing test stops at its assertion in the test's frame
 * (expected errors and errors the code catches itself do not stop it), a passing test stops at a
 * breakpoint in the code under test, an unknown name answers the closest names.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { installNodeTestFixture, NODE_TEST_FIXTURE } from '../support/nodeTestFixture.js';
import { runningUnder, startTestClient, stopAllAndCheckGone, type DebugTestAnswer, type TestListAnswer } from '../support/testToolClient.js';

const file = (name: string) => join(NODE_TEST_FIXTURE, name);
const calc = file('calc.js');

const RUNNERS = [
  { framework: 'node:test', file: 'calc.nodetest.js', type: 'AssertionError', values: { expected: '30', actual: '25' } },
  { framework: 'jest', file: 'calc.jest.test.js', type: 'JestAssertionError', values: { expected: '30', actual: '25' } },
  { framework: 'vitest', file: 'calc.vitest.test.mjs', type: 'AssertionError', values: { expected: '30', actual: '25' } },
] as const;

describe('debug_test: node:test, jest and vitest', () => {
  let client: McpTestClient;
  beforeAll(async () => {
    installNodeTestFixture();
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

    it('stops a passing test at a breakpoint in the code under test, then ends passed', async () => {
      const line = markerLine(calc, 'BP:add');
      const r = await client.call<DebugTestAnswer>('debug_test', { path: file(runner.file), test: 'adds', breakpoints: [{ file: calc, line }] });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'add', file: calc, line } });
      expect(r.structured.stop?.locals?.slice(0, 2).map((l) => `${l.name}=${l.value}`)).toEqual(['a=2', 'b=3']);
      const end = await client.call<{ status: string; exitCode?: number }>('execution_continue', { sessionId: r.structured.sessionId });
      expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
    });

    it('lists the tests and answers an unknown name with the closest', async () => {
      const list = await client.call<TestListAnswer>('test_list', { path: file(runner.file) });
      expect(list.isError, list.text).toBe(false);
      expect(list.structured.tests.map((t) => t.id)).toEqual(['adds', 'expected errors pass', 'totals']);
      const missing = await client.call('debug_test', { path: file(runner.file), test: 'totls' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^TEST_NOT_FOUND: .*Closest: totals,/);
    });
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
