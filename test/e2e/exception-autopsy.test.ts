/**
 * The exception autopsy and execution_jump through the real MCP server over stdio, on Python
 * (debugpy), Node (CDP) and .NET (ICorDebug): one exception stop answers the type, message, cause
 * chain, stack with external code folded and the throwing frame's locals; the next statement
 * moves where the runtime allows it, and says what to do instead where it does not.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

interface Cause {
  type?: string;
  message?: string;
  relation: string;
  thrownAt?: { file?: string; line: number };
}
interface Stop {
  reason: string;
  frame: { name: string; file?: string; line: number };
  exception?: { type?: string; message?: string; causes?: Cause[]; frames?: { name: string; line: number; external?: number }[] };
  locals?: { name: string; value: string }[];
}
interface Wait {
  sessionId: string;
  state: string;
  status: string;
  stop?: Stop;
}

/** What the issue asks of the default answer size: an exception stop reads in one answer under it. */
const ANSWER_CHARS = 4_000;

const python = fileURLToPath(new URL('../fixtures/e2e/python/chained.py', import.meta.url));
const node = fileURLToPath(new URL('../fixtures/node/chained.js', import.meta.url));
const chain = fixtureSource('lab', 'Chain.cs');
const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));
const runPython = requireRuntime('python with debugpy', hasDebugpy);
const dotnet = findDotnet();
const runDotnet = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

describe('exception autopsy and execution_jump', () => {
  let client: McpTestClient;

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-autopsy-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => stopActiveSessions(client));

  async function launch(args: Record<string, unknown>) {
    const r = await client.call<Wait>('session_launch', { waitForStop: true, timeoutMs: 60_000, ...args });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.status, r.text).toBe('stopped');
    return r;
  }

  async function call(tool: string, args: Record<string, unknown>) {
    const r = await client.call<Wait>(tool, args);
    expect(r.isError, r.text).toBe(false);
    return r;
  }

  async function output(sessionId: string): Promise<string> {
    return (await client.call('session_output', { sessionId })).text;
  }

  describe.runIf(runPython)('python', () => {
    const line = (marker: string) => markerLine(python, `BP:${marker}`);

    it('answers an uncaught error with its __context__ and __cause__ chain, the stack and the raising frame\'s locals', async () => {
      const r = await launch({ program: python });
      const stop = r.structured.stop!;
      expect(stop.reason).toBe('exception');
      expect(stop.frame).toMatchObject({ name: 'start', line: line('context') });
      expect(stop.exception).toMatchObject({ type: 'KeyError', message: "'port'" });
      expect(stop.exception!.causes).toEqual([
        { type: 'RuntimeError', message: 'config unreadable after 3 tries', relation: 'context', thrownAt: { file: python, line: line('raise') } },
        { type: 'json.decoder.JSONDecodeError', message: expect.stringContaining('Expecting property name'), relation: 'cause', thrownAt: { file: python, line: line('parse') } },
      ]);
      // debugpy lists the causes' frames after the thread's own: the stack is the thread's.
      expect(stop.exception!.frames!.map((f) => f.name)).toEqual(['start', '<module>']);
      expect(stop.locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'port', value: '8080' }), expect.objectContaining({ name: 'attempt' })]));
      expect(r.text).toMatch(/Stopped on unhandled exception KeyError: 'port' in start \(chained\.py:\d+\)/);
      expect(r.text).toContain(`while handling RuntimeError: config unreadable after 3 tries (chained.py:${line('raise')})`);
      expect(r.text).toMatch(new RegExp(`^  caused by json\\.decoder\\.JSONDecodeError: Expecting .*\\(chained\\.py:${line('parse')}\\)$`, 'm'));
      expect(r.text).toContain(`stack: start (chained.py:${line('context')}) ← <module> (chained.py:`);
      expect(r.text).toMatch(/^locals: .*port = 8080/m);
      expect(r.text.length).toBeLessThan(ANSWER_CHARS);
    });

    it('moves the next statement over two lines with gotoTargets/goto, and refuses a jump the runtime cannot make', async () => {
      const r = await launch({ program: python, breakpoints: [{ file: python, line: line('jumpFirst') }] });
      const { sessionId } = r.structured;
      const jumped = await call('execution_jump', { sessionId, line: line('jumpLast') });
      expect(jumped.structured.stop).toMatchObject({ reason: 'goto', frame: { name: 'jump_here', line: line('jumpLast') } });
      expect(jumped.text).toMatch(/Next statement moved: jump_here \(chained\.py:\d+\)/);
      expect(jumped.structured.stop!.locals).toEqual([expect.objectContaining({ name: 'count', value: '0' })]);
      const atException = await call('execution_continue', { sessionId });
      expect(atException.structured.stop?.reason).toBe('exception');
      // The two skipped statements never ran.
      expect(await output(sessionId)).toContain('jumped 100');

      const refused = await client.call('execution_jump', { sessionId, line: line('context') - 1 });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^JUMP_REFUSED: .+\nNext: /);
      const state = await call('session_state', { sessionId });
      expect(state.structured.state).toBe('stopped');
      expect(state.text).toContain('KeyError');

      const restart = await client.call('execution_jump', { sessionId, restartFrame: 0 });
      expect(restart.isError).toBe(true);
      expect(restart.text).toMatch(/^UNSUPPORTED: python cannot restart a frame\.\nNext: execution_jump \{ line \}/);
    });
  });

  describe('node', () => {
    const line = (marker: string) => markerLine(node, `BP:${marker}`);

    it('answers an uncaught error with its cause chain, each cause\'s throw site, and the library frames folded', async () => {
      const r = await launch({ program: node });
      const stop = r.structured.stop!;
      expect(stop.exception).toMatchObject({ type: 'TypeError', message: 'no port 8080' });
      expect(stop.exception!.causes).toEqual([
        { type: 'Error', message: 'config unreadable after 3 tries', relation: 'cause', thrownAt: { file: node, line: line('raise') } },
        { type: 'SyntaxError', message: expect.stringContaining('JSON'), relation: 'cause', thrownAt: { file: node, line: line('parse') } },
      ]);
      const frames = stop.exception!.frames!;
      expect(frames.slice(0, 2).map((f) => f.name)).toEqual(['<anonymous>', 'start']);
      // node's own module loader frames, folded into one entry.
      expect(frames.at(-1)!.external).toBeGreaterThan(1);
      expect(stop.locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'port', value: '8080' })]));
      // An Error held in a local reads as one line in the summary.
      expect(stop.locals!.find((l) => l.name === 'error')!.value).toMatch(/^Error: config unreadable after 3 tries … \(\d+ more lines\)$/);
      expect(r.text).toContain(`caused by Error: config unreadable after 3 tries (chained.js:${line('raise')})`);
      expect(r.text).toMatch(new RegExp(`^  caused by SyntaxError: .*\\(chained\\.js:${line('parse')}\\)$`, 'm'));
      expect(r.text).toMatch(/^stack: <anonymous> \(chained\.js:\d+\) ← start \(chained\.js:\d+\) ← .*\[External Code\] ×\d+$/m);
      expect(r.text.length).toBeLessThan(ANSWER_CHARS);
    });

    it('answers UNSUPPORTED for a line and offers restartFrame, which runs the function again from its start', async () => {
      const r = await launch({ program: node, breakpoints: [{ file: node, line: line('jumpFirst') }] });
      const { sessionId } = r.structured;
      await call('execution_step', { sessionId, kind: 'over' });
      const refused = await client.call('execution_jump', { sessionId, line: line('jumpLast') });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/^UNSUPPORTED: node cannot move the next statement\.\nNext: execution_jump \{ restartFrame: 0 \}/);
      expect((await call('session_state', { sessionId })).structured.state).toBe('stopped');

      const restarted = await call('execution_jump', { sessionId, restartFrame: 0 });
      expect(restarted.structured.stop).toMatchObject({ reason: 'restart frame', frame: { name: 'jumpHere', line: line('jumpFirst') - 1 } });
      expect(restarted.text).toMatch(/^\[node-\d+\] Frame restarted: jumpHere/);
      // Run again from its start, the function reaches its breakpoint a second time.
      const again = await call('execution_continue', { sessionId });
      expect(again.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { line: line('jumpFirst') } });
      const bps = await call('breakpoint_list', { sessionId });
      expect(bps.text).toContain('2 hits');

      const bad = await client.call('execution_jump', { sessionId, line: 3, restartFrame: 0 });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/^INVALID_ARGUMENT: Give line or restartFrame/);
    });
  });

  describe.runIf(runDotnet)('.NET', () => {
    let lab: string;
    beforeAll(() => {
      lab = buildFixture('lab');
    });

    it('answers an unhandled exception with its InnerException chain, the user frames and the throwing frame\'s locals', async () => {
      const r = await launch({ program: lab, args: ['chain'] });
      const stop = r.structured.stop!;
      expect(stop.frame).toMatchObject({ name: 'Lab.Chain.Start', line: chain.line('chain-throw') });
      expect(stop.exception).toMatchObject({ type: 'System.InvalidOperationException', message: 'no port 8080 after the first attempt' });
      expect(stop.exception!.causes).toEqual([
        { type: 'System.ArgumentException', message: 'config unreadable after 3 tries', relation: 'inner' },
        { type: 'System.FormatException', message: expect.stringContaining('{not a number'), relation: 'inner' },
      ]);
      expect(stop.exception!.frames!.map((f) => f.name)).toEqual(['Lab.Chain.Start', 'Lab.Program.Main', '[External Code]']);
      expect(stop.locals).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'port', value: '8080' }), expect.objectContaining({ name: 'attempt', value: '"first"' })]));
      expect(r.text).toContain('inner System.ArgumentException: config unreadable after 3 tries\n  inner System.FormatException: ');
      expect(r.text).toMatch(/^stack: Lab\.Chain\.Start \(Chain\.cs:\d+\) ← Lab\.Program\.Main \(Program\.cs:\d+\) ← \[External Code\]$/m);
      expect(r.text.length).toBeLessThan(ANSWER_CHARS);
    });

    it('moves the next statement with SetIP to the line\'s first IL offset, and refuses where SetIP is unsafe', async () => {
      const r = await launch({ program: lab, args: ['chain'], breakpoints: [{ file: chain.path, line: chain.line('jumpFirst') }] });
      const { sessionId } = r.structured;
      const jumped = await call('execution_jump', { sessionId, line: chain.line('jumpLast') });
      expect(jumped.structured.stop).toMatchObject({ reason: 'goto', frame: { name: 'Lab.Chain.JumpHere', line: chain.line('jumpLast') } });
      expect(jumped.structured.stop!.locals).toEqual([expect.objectContaining({ name: 'count', value: '0' })]);

      const outside = await client.call('execution_jump', { sessionId, line: chain.line('chain-throw') });
      expect(outside.isError).toBe(true);
      expect(outside.text).toMatch(/^JUMP_REFUSED: Cannot move to line \d+: line \d+ is outside the current method \(lines \d+–\d+\)\.\nNext: Pick a line of Lab\.Chain\.JumpHere\./);

      const atException = await call('execution_continue', { sessionId });
      expect(atException.structured.stop?.reason).toBe('exception');
      expect(await output(sessionId)).toContain('jumped 100');
      // ICorDebug refuses SetIP while an exception is in flight: a clear error, the program where it was.
      const unsafe = await client.call('execution_jump', { sessionId, line: chain.line('chain-throw') - 1 });
      expect(unsafe.isError).toBe(true);
      expect(unsafe.text).toMatch(/^JUMP_REFUSED: the next statement cannot move while an exception is being handled/);
      const state = await call('session_state', { sessionId });
      expect(state.structured.state).toBe('stopped');
      expect(state.structured.stop?.frame.line).toBe(chain.line('chain-throw'));
    });
  });
});
