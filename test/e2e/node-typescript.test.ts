/**
 * The Node engine's TypeScript, threads, async stacks, function breakpoints and exceptions through
 * the real MCP server over stdio: what an agent reads in the answers.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { commandLine, descendants, waitGone } from '../support/processTree.js';
import { requireRuntime } from '../support/runtimes.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/node/', import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const line = (name: string, marker: string) => markerLine(fixture(name), `BP:${marker}`);
const tsx = requireRuntime('tsx (npm ci --prefix test/fixtures/node/ts)', existsSync(fixture('ts/node_modules/tsx/package.json')));

interface Stop {
  reason: string;
  threadId: number;
  threadName?: string;
  frame: { name: string; file?: string; line: number };
  source?: { line: number; text: string; current: boolean }[];
  exception?: { type?: string; message?: string; thrownAt?: { file?: string; line: number } };
}
interface Wait {
  sessionId: string;
  status: string;
  stop?: Stop;
  note?: string;
  breakpoints?: { id: number; verified: boolean; actualLine?: number; actualFile?: string }[];
}

describe('node end to end: TypeScript, threads, async stacks, function breakpoints', () => {
  let client: McpTestClient;

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-node-ts-state-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => client.stopActiveSessions());

  it.skipIf(!tsx)('launches a .ts program, says how it runs it, and reports stops, steps and run_to in TypeScript', async () => {
    const cart = fixture('ts/src/cart.ts');
    const launch = await client.call<Wait>('session_launch', { program: fixture('ts/src/main.ts'), breakpoints: [{ file: cart, line: line('ts/src/cart.ts', 'cart_sum') }], waitForStop: true });
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.structured.note).toMatch(/^Runs with tsx /);
    expect(launch.text).toContain('Runs with tsx');
    expect(launch.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'total', file: cart, line: line('ts/src/cart.ts', 'cart_sum') } });
    expect(launch.text).toMatch(/> +\d+ \| +let sum: number = 0; \/\/ BP:cart_sum/);
    expect(launch.structured.breakpoints?.[0]).toMatchObject({ verified: true, actualLine: line('ts/src/cart.ts', 'cart_sum') });

    const over = await client.call<Wait>('execution_step', { kind: 'over' });
    expect(over.structured.stop?.frame).toMatchObject({ file: cart, line: line('ts/src/cart.ts', 'cart_sum') + 1 });
    const runTo = await client.call<Wait>('execution_run_to', { file: cart, line: line('ts/src/cart.ts', 'cart_line') });
    expect(runTo.structured.stop?.frame).toMatchObject({ file: cart, line: line('ts/src/cart.ts', 'cart_line') });
    expect(runTo.text).toContain('sum += item.price * item.qty; // BP:cart_line');
    const source = await client.call<{ file: string; lines: { text: string; current: boolean }[] }>('inspect_source', {});
    expect(source.structured.file).toBe(cart);
    expect(source.structured.lines.find((l) => l.current)?.text).toContain('BP:cart_line');
  });

  it('answers where a function breakpoint bound, and stops there', async () => {
    const launch = await client.call<Wait>('session_launch', { program: fixture('ts/out/main.js'), breakpoints: [{ file: fixture('ts/src/main.ts'), line: line('ts/src/main.ts', 'main_call') }], waitForStop: true });
    expect(launch.structured.stop?.frame.file).toBe(fixture('ts/src/main.ts'));
    const set = await client.call<{ breakpoint: { id: number; status: string; actualFile?: string; actualLine?: number } }>('breakpoint_set', { function: 'Cart.prototype.total' });
    expect(set.structured.breakpoint).toMatchObject({ status: 'verified', actualFile: fixture('ts/src/cart.ts'), actualLine: line('ts/src/cart.ts', 'cart_sum') });
    expect(set.text).toMatch(/function Cart\.prototype\.total — verified at cart\.ts:\d+/);
    const hit = await client.call<Wait>('execution_continue', {});
    expect(hit.structured.stop).toMatchObject({ reason: 'function breakpoint', frame: { name: 'total', line: line('ts/src/cart.ts', 'cart_sum') } });
    expect(hit.text).toMatch(/Stopped at function breakpoint #2 in total \(cart\.ts:\d+\)/);
  });

  it('marks the callers across awaits as async in inspect_stack', async () => {
    await client.call('session_launch', { program: fixture('async_chain.js'), breakpoints: [{ file: fixture('async_chain.js'), line: line('async_chain.js', 'price') }], waitForStop: true });
    const stack = await client.call<{ frames: { name: string; async?: boolean }[] }>('inspect_stack', { count: 4 });
    expect(stack.structured.frames.map((f) => [f.name, f.async ?? false])).toEqual([
      ['fetchPrice', false],
      ['priceLine', true],
      ['priceOrder', true],
      ['main', true],
    ]);
    expect(stack.text).toMatch(/#1 priceLine \(async_chain\.js:\d+\) \[async\]/);
  });

  it('stops in a worker thread, says which, lists the threads; a forked child ends with the session', async () => {
    const worker = await client.call<Wait>('session_launch', { program: fixture('worker_main.js'), breakpoints: [{ file: fixture('worker_task.js'), line: line('worker_task.js', 'square') }], waitForStop: true });
    expect(worker.structured.stop).toMatchObject({ threadName: 'worker 1: worker_task.js', frame: { name: 'square' } });
    expect(worker.text).toMatch(/in square \(worker_task\.js:\d+\), thread \d+ \(worker 1: worker_task\.js\)/);
    const threads = await client.call<{ threads: { id: number; name: string; stopped: boolean }[] }>('inspect_threads', {});
    expect(threads.structured.threads).toEqual([
      { id: 1, name: expect.stringMatching(/^main, pid \d+$/), stopped: false },
      { id: worker.structured.stop!.threadId, name: 'worker 1: worker_task.js', stopped: true },
    ]);
    await client.call('session_stop', {});

    const forked = await client.call<Wait & { pid: number }>('session_launch', { program: fixture('fork_main.js'), breakpoints: [{ file: fixture('fork_child.js'), line: line('fork_child.js', 'triple') }], waitForStop: true });
    expect(forked.structured.stop?.threadName).toMatch(/^process \d+: fork_child\.js$/);
    // The session's processes: the program and what it started. The server's own (the Python
    // debuggee it readies ahead, started at its start) are not the session's to end.
    const during = [forked.structured.pid, ...descendants(forked.structured.pid)];
    expect(during.map(commandLine)).toEqual([expect.stringContaining('fork_main.js'), expect.stringContaining('fork_child.js')]);
    await client.call('session_stop', {});
    expect((await waitGone(during)).map((pid) => `${pid} ${commandLine(pid)}`)).toEqual([]);
  });

  it('reports an exception with its class, message and TypeScript throw site, and $exception evaluates to it', async () => {
    const r = await client.call<Wait>('session_launch', { program: fixture('ts/out/refund.js'), waitForStop: true });
    expect(r.structured.stop?.exception).toMatchObject({ type: 'RangeError', message: 'refund for order 9 must be positive', thrownAt: { file: fixture('ts/src/refund.ts'), line: line('ts/src/refund.ts', 'refund_throw') } });
    expect(r.text).toContain('Stopped on uncaught exception RangeError: refund for order 9 must be positive in checkRefund (refund.ts:');
    const value = await client.call<{ value: string }>('inspect_evaluate', { expression: '$exception.message' });
    expect(value.structured.value).toBe('"refund for order 9 must be positive"');
  });
});
