/**
 * The Node engine and the threads of a program: worker threads and child node processes are
 * debugged as threads of the session (breakpoints hit in them, the stop says which, they end
 * with the session), and async stacks cross awaits.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeTargets } from '../../src/engines/node/nodeTargets.js';
import { breakpointAt, createRun, disposeAll, fixture, frameLines, launchConfig, lineOf, processAlive } from './nodeHarness.js';

async function gone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return !processAlive(pid);
}

describe('node engine: threads and processes', () => {
  afterEach(disposeAll);

  it('stops at a breakpoint in a worker thread, names the thread, lists it, and runs it on', async () => {
    const { engine, recorder } = createRun();
    const task = fixture('worker_task.js');
    const square = breakpointAt(task, 'square');
    await engine.launch(launchConfig(fixture('worker_main.js'), { breakpoints: [square] }));
    const stop = await recorder.next('stopped', 1);
    expect(stop).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [square.id], threadName: 'worker 1: worker_task.js' });
    expect(stop.threadId).not.toBe(1);
    expect(await frameLines(engine, stop.threadId, 1)).toEqual([`square worker_task.js:${square.line}`]);
    expect((await engine.evaluate('n', undefined, 'repl')).value).toBe('5');
    const threads = await engine.threads();
    expect(threads.map((t) => t.id)).toEqual([1, stop.threadId]);
    expect(threads[0].name).toMatch(/^main, pid \d+$/);
    await engine.continue(stop.threadId);
    expect((await recorder.next('exited', 1)).exitCode).toBe(0);
    expect(recorder.output('stdout')).toBe('worker says 25\nworker exited 0\n');
    expect(recorder.of('thread').map((t) => [t.reason, t.threadId])).toEqual([
      ['started', stop.threadId],
      ['exited', stop.threadId],
    ]);
  });

  it('shows one stop at a time: a second thread that stops meanwhile is shown when the first runs on', async () => {
    const { engine, recorder } = createRun();
    const square = breakpointAt(fixture('worker_task.js'), 'square');
    await engine.launch(launchConfig(fixture('worker_pair.js'), { breakpoints: [square] }));
    const first = await recorder.next('stopped', 1);
    const firstN = (await engine.evaluate('n', undefined, 'repl')).value;
    await engine.continue(first.threadId);
    const second = await recorder.next('stopped', 2);
    expect(second.threadId).not.toBe(first.threadId);
    expect(second.hitBreakpointIds).toEqual([square.id]);
    expect((await engine.evaluate('n', undefined, 'repl')).value).toBe(firstN === '3' ? '4' : '3');
    await engine.continue(second.threadId);
    expect((await recorder.next('exited', 1)).exitCode).toBe(0);
    expect(recorder.output('stdout').split('\n').sort()).toEqual(['', 'worker 3 says 9', 'worker 4 says 16']);
  });

  it('stops at a breakpoint in a forked child process, names the process, and the child ends with the session', async () => {
    const { engine, recorder } = createRun();
    const child = fixture('fork_child.js');
    const triple = breakpointAt(child, 'triple');
    const { pid } = await engine.launch(launchConfig(fixture('fork_main.js'), { breakpoints: [triple] }));
    const stop = await recorder.next('stopped', 1);
    expect(stop.threadName).toMatch(/^process (\d+): fork_child\.js$/);
    const childPid = Number(/^process (\d+)/.exec(stop.threadName!)![1]);
    expect(childPid).not.toBe(pid);
    expect(await frameLines(engine, stop.threadId, 1)).toEqual([`triple fork_child.js:${triple.line}`]);
    expect((await engine.evaluate('n', undefined, 'repl')).value).toBe('7');
    expect((await engine.threads()).map((t) => t.name)).toEqual([expect.stringMatching(/^main/), stop.threadName]);
    await engine.terminate();
    expect(await gone(pid!)).toBe(true);
    expect(await gone(childPid)).toBe(true);
  });

  it('does not let a forked child outlive a debugger that dies abruptly', async () => {
    const child = fixture('fork_child.js');
    const script = `
      import { engine } from ${JSON.stringify(new URL('../../dist/engines/node/index.js', import.meta.url).href)};
      const e = engine.create({ emit: (ev) => ev.type === 'stopped' && (console.log(ev.threadName), process.kill(process.pid, 'SIGKILL')), log() {} });
      await e.launch({ program: ${JSON.stringify(fixture('fork_main.js'))}, args: [], cwd: '/', env: {}, stopOnEntry: false, breakpoints: [{ id: 1, file: ${JSON.stringify(child)}, line: ${lineOf(child, 'triple')} }], functionBreakpoints: [], exceptions: { filters: [] }, options: {} });`;
    // The built engine (the global setup builds dist/) in a process of its own, so it can die.
    const debuggerProcess = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const name = await new Promise<string>((resolve) => debuggerProcess.stdout!.on('data', (d: Buffer) => resolve(d.toString().trim())));
    const childPid = Number(/^process (\d+)/.exec(name)?.[1]);
    expect(childPid).toBeGreaterThan(0);
    expect(await gone(childPid)).toBe(true);
  });

  it('lets a child process run only once it waits for the debugger, however late it starts waiting', async () => {
    const child = spawn(process.execPath, [fixture('late_wait.js')], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const url = (await lines.next()).value as string;
      const targets = new NodeTargets({ emit: () => undefined, log: () => undefined });
      // A run request it read before it waited would be lost: it would wait forever.
      const running = lines.next().then((line) => line.value as string | undefined);
      await targets.attachProcess({ pid: child.pid!, ppid: process.pid, url, script: fixture('late_wait.js') });
      const stillWaiting = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting for the debugger after 20 s'), 20_000).unref());
      expect(await Promise.race([running, stillWaiting])).toBe('running');
      targets.closeAll();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('runs a forked child to its end and reports the program exit', async () => {
    const { engine, recorder } = createRun();
    const child = fixture('fork_child.js');
    await engine.launch(launchConfig(fixture('fork_main.js'), { breakpoints: [breakpointAt(child, 'triple')] }));
    const stop = await recorder.next('stopped', 1);
    await engine.continue(stop.threadId);
    expect((await recorder.next('exited', 1)).exitCode).toBe(0);
    expect(recorder.output('stdout')).toBe('child says 21\nchild exited 0\n');
    expect(recorder.output('stderr')).not.toMatch(/Debugger|inspector/);
  });

  it('shows the callers across three awaits, marked async, and keeps values only for the frame that runs', async () => {
    const { engine, recorder } = createRun();
    const program = fixture('async_chain.js');
    const price = breakpointAt(program, 'price');
    await engine.launch(launchConfig(program, { breakpoints: [price] }));
    await recorder.next('stopped', 1);
    expect(await frameLines(engine, 1, 4)).toEqual([
      `fetchPrice async_chain.js:${price.line}`,
      `priceLine async_chain.js:${lineOf(program, 'await_price')} async`,
      `priceOrder async_chain.js:${lineOf(program, 'await_line')} async`,
      `main async_chain.js:${lineOf(program, 'await_order')} async`,
    ]);
    const { frames } = await engine.stackTrace(1, 0, 2);
    await expect(engine.scopes(frames[1].id)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('async caller') });
  });

  it('stops in an ES module loaded by a dynamic import()', async () => {
    const { engine, recorder } = createRun();
    const lazy = fixture('esm/lazy.js');
    const shout = breakpointAt(lazy, 'shout');
    const greet = breakpointAt(fixture('esm/greet.js'), 'greet');
    await engine.launch(launchConfig(fixture('esm/main.js'), { breakpoints: [greet, shout] }));
    expect((await recorder.next('stopped', 1)).hitBreakpointIds).toEqual([greet.id]);
    await engine.continue(1);
    expect((await recorder.next('stopped', 2)).hitBreakpointIds).toEqual([shout.id]);
    expect(await frameLines(engine, 1, 1)).toEqual([`shout esm/lazy.js:${shout.line}`]);
  });
});
