/**
 * Node.js through the real MCP server over stdio, debugging real programs over the Chrome
 * DevTools Protocol.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { descendants, waitGone } from '../support/processTree.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/node/', import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const line = (name: string, marker: string) => markerLine(fixture(name), `BP:${marker}`);

interface Stop {
  reason: string;
  threadId: number;
  frame: { name: string; file?: string; line: number };
  hitBreakpointIds: number[];
  exception?: { type?: string; message?: string };
  locals?: { name: string; value: string; type?: string }[];
}
interface Wait {
  sessionId: string;
  state: string;
  status: 'stopped' | 'exited' | 'timeout';
  stop?: Stop;
  exitCode?: number;
  outputTail?: string;
}

describe('node end to end', () => {
  let client: McpTestClient;

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-node-state-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => client.stopActiveSessions());

  it('lists node as available with its capabilities', async () => {
    const r = await client.call<{ languages: { language: string; available: boolean; version?: string }[] }>('languages_list');
    expect(r.structured.languages.find((l) => l.language === 'node')).toMatchObject({ available: true, version: expect.stringMatching(/^Node\.js v\d+/) });
  });

  it('runs the whole workflow: breakpoint → stack → locals → evaluate → steps → next hit → stop', async () => {
    const program = fixture('workflow.js');
    const launch = await client.call<Wait & { breakpoints: { id: number; verified: boolean }[] }>('session_launch', {
      program,
      breakpoints: [{ file: program, line: line('workflow.js', 'accumulate') }],
      waitForStop: true,
    });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.structured.breakpoints[0].verified).toBe(true);
    expect(launch.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'computeTotal', line: line('workflow.js', 'accumulate') } });
    expect(launch.structured.stop?.hitBreakpointIds).toEqual([launch.structured.breakpoints[0].id]);
    expect(launch.text).toMatch(/Stopped at breakpoint #1 in computeTotal \(workflow\.js:\d+\), thread 1/);
    expect(launch.text).toMatch(/locals: .*total = 0/);

    const stack = await client.call<{ frames: { name: string }[] }>('inspect_stack', {});
    expect(stack.structured.frames.slice(0, 2).map((f) => f.name)).toEqual(['computeTotal', 'main']);

    const item = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { path: 'order.items[1]' });
    expect(item.isError, item.text).toBe(false);
    expect(item.structured.variables.find((v) => v.name === 'qty')?.value).toBe('5');

    const evaluated = await client.call<{ value: string; type?: string }>('inspect_evaluate', { expression: 'item.price * item.qty + 1' });
    expect(evaluated.structured).toMatchObject({ value: '7', type: 'number' });

    const into = await client.call<Wait>('execution_step', { kind: 'into' });
    expect(into.structured.stop).toMatchObject({ reason: 'step', frame: { name: 'lineTotal' } });
    const over = await client.call<Wait>('execution_step', { kind: 'over' });
    expect(over.structured.stop?.frame.line).toBe(line('workflow.js', 'line_total') + 1);
    expect(over.text).toMatch(/subtotal = undefined → 6/); // changed since the stop before
    const out = await client.call<Wait>('execution_step', { kind: 'out' });
    expect(out.structured.stop?.frame.name).toBe('computeTotal');

    const next = await client.call<Wait>('execution_continue', {});
    expect(next.structured.stop?.frame.line).toBe(line('workflow.js', 'accumulate'));
    expect(next.structured.stop?.locals?.find((l) => l.name === 'total')?.value).toBe('6');
    const bps = await client.call<{ breakpoints: { hits: number }[] }>('breakpoint_list', {});
    expect(bps.structured.breakpoints[0].hits).toBe(2);

    const stopped = await client.call<{ state: string }>('session_stop', {});
    expect(stopped.structured.state).toBe('terminated');
  });

  it('debugs an ES module whose top level declares a class with #private members (node 20 crashed on its break on start)', async () => {
    const program = fixture('ledger.mjs');
    const launch = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: line('ledger.mjs', 'ledger') }], waitForStop: true });
    expect(launch.structured.status, launch.text).toBe('stopped');
    expect(launch.structured.stop?.locals?.find((l) => l.name === 'settled')?.value).toBe('12');
    const fields = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { path: 'ledger' });
    expect(fields.structured.variables.find((v) => v.name === '#entries')?.value).toBe('[5, 7]');
    const end = await client.call<Wait>('execution_continue', {});
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
  });

  it('reports the exit code and the output without the inspector lines', async () => {
    const launch = await client.call<Wait>('session_launch', { program: fixture('workflow.js') });
    const wait = await client.call<Wait>('breakpoint_wait', { sessionId: launch.structured.sessionId });
    expect(wait.structured).toMatchObject({ status: 'exited', exitCode: 3 });
    const output = await client.call<{ output: string }>('session_output', { sessionId: launch.structured.sessionId });
    expect(output.structured.output).toContain('grand total 26\n');
    expect(output.structured.output).not.toMatch(/Debugger (listening|attached)|Waiting for the debugger/);
  });

  it('honours conditional, hit-count and log breakpoints', async () => {
    const program = fixture('loop.js');
    const body = line('loop.js', 'body');
    const conditional = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, condition: 'i === 7' }], waitForStop: true });
    expect(conditional.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('7');
    expect(conditional.text).not.toContain('could not be evaluated');
    await client.call('session_stop', { sessionId: conditional.structured.sessionId });

    // A condition that throws stops and says why (V8 took it for false, silently).
    const broken = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, condition: 'idx === 7' }], waitForStop: true });
    expect(broken.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('0');
    expect(broken.text).toContain('The condition of breakpoint #1 (idx === 7) could not be evaluated: ReferenceError: idx is not defined');
    await client.call('session_stop', { sessionId: broken.structured.sessionId });

    const hit = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, hitCondition: '4' }], waitForStop: true });
    expect(hit.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('3');
    await client.call('session_stop', { sessionId: hit.structured.sessionId });

    const log = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, logMessage: 'i is {i}' }], waitForStop: true });
    expect(log.structured.status).toBe('exited');
    const output = await client.call<{ output: string }>('session_output', { sessionId: log.structured.sessionId });
    expect(output.structured.output).toContain('i is 9\n');
    expect(output.structured.output).toContain('total=45');
  });

  it('stops on an uncaught exception with its type and message, then reports the exit', async () => {
    const r = await client.call<Wait>('session_launch', { program: fixture('crash.js'), waitForStop: true });
    expect(r.structured.stop?.reason).toBe('exception');
    expect(r.structured.stop?.exception).toMatchObject({ type: 'TypeError', message: expect.stringContaining("reading 'port'") });
    const end = await client.call<Wait>('execution_continue', {});
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 1 });
    expect(end.structured.outputTail).toContain('about to fail');
  });

  it('answers a bad expression with EVALUATION_FAILED, moves a comment-line breakpoint, and sets a value', async () => {
    const bad = await client.call('session_launch', { program: fixture('loop.js'), breakpoints: [{ file: fixture('loop.js'), line: line('loop.js', 'body'), condition: 'i === 9' }], waitForStop: true });
    expect(bad.isError, bad.text).toBe(false);
    const r = await client.call('inspect_evaluate', { expression: 'nope + 1' });
    expect(r.text).toMatch(/^EVALUATION_FAILED: ReferenceError: nope is not defined/);
    const set = await client.call<{ value: string }>('inspect_set_variable', { name: 'total', value: '1000' });
    expect(set.isError, set.text).toBe(false);
    const state = await client.call<{ stop?: Stop }>('session_state', {});
    expect(state.structured.stop?.locals?.find((l) => l.name === 'total')?.value).toBe('1000');
    const end = await client.call<Wait>('execution_continue', {});
    expect(end.structured.outputTail).toContain('total=1009');

    const program = fixture('workflow.js');
    const comment = line('workflow.js', 'comment');
    const moved = await client.call<{ breakpoints: { verified: boolean; actualLine?: number }[] }>('session_launch', { program, breakpoints: [{ file: program, line: comment }], stopOnEntry: true });
    expect(moved.structured.breakpoints[0]).toMatchObject({ verified: true, actualLine: comment + 1 });
  });

  it('pauses a busy program and leaves no process behind after session_stop', async () => {
    // Only what this session started: the server may keep other helpers (a spare Python adapter).
    const before = new Set(descendants(client.pid!));
    const launched = await client.call<Wait>('session_launch', { program: fixture('busy.js') });
    expect(launched.structured.state).toBe('running');
    const during = descendants(client.pid!).filter((pid) => !before.has(pid));
    expect(during.length).toBeGreaterThan(0);
    const paused = await client.call<Wait>('execution_pause', {});
    expect(paused.structured.stop?.reason).toBe('pause');
    await client.call('session_stop', {});
    expect(await waitGone(during)).toEqual([]);
  });
});
