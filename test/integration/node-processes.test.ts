/** The Node.js engine and processes: pause, attach, detach, and nothing left behind. */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { withDefaultInspectorPort } from '../support/defaultInspectorPort.js';
import { breakpointAt, createRun, disposeAll, fixture, lateWaitSnapshot, launchConfig, lineOf, processAlive } from './nodeHarness.js';

const busy = fixture('busy.js');
const started: ChildProcess[] = [];

/** `node --inspect=127.0.0.1:0 busy.js` (or node with these arguments), and the port its inspector took. */
async function startInspectable(args = ['--inspect=127.0.0.1:0', busy]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const m = /ws:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', () => reject(new Error(`node exited: ${text}`)));
  });
  return { child, port };
}

async function waitGone(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return !processAlive(pid);
}

describe('node engine: processes', () => {
  afterEach(async () => {
    await disposeAll();
    for (const child of started.splice(0)) child.kill('SIGKILL');
  });

  it('pauses a busy loop and resumes it', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(busy));
    await new Promise((r) => setTimeout(r, 100));
    await engine.pause(1);
    const stop = await recorder.next('stopped', 1);
    expect(stop.reason).toBe('pause');
    const { frames } = await engine.stackTrace(1, 0, 1);
    expect(frames[0].file).toBe(busy);
    expect(Number((await engine.evaluate('ticks', frames[0].id, 'repl')).value)).toBeGreaterThan(0);
    await engine.continue(1);
    await recorder.next('continued', 1);
  });

  it('evaluates while the program runs', async () => {
    const { engine } = createRun();
    const { pid } = await engine.launch(launchConfig(busy));
    // Module-level names are out of reach without a frame: a running program answers in its global scope.
    expect((await engine.evaluate('process.pid', undefined, 'repl')).value).toBe(String(pid));
  });

  it('leaves no process behind after terminate, dispose, or the end of the program', async () => {
    const running = createRun();
    const { pid } = await running.engine.launch(launchConfig(busy));
    expect(processAlive(pid!)).toBe(true);
    await running.engine.terminate();
    expect(await waitGone(pid!)).toBe(true);
    expect((await running.recorder.next('exited', 1)).signal).toBe('SIGTERM');

    const paused = createRun();
    const launched = await paused.engine.launch(launchConfig(busy, { breakpoints: [breakpointAt(busy, 'tick')] }));
    await paused.recorder.next('stopped', 1);
    await paused.engine.dispose();
    expect(await waitGone(launched.pid!)).toBe(true);

    const ended = createRun();
    const short = await ended.engine.launch(launchConfig(fixture('loop.js')));
    await ended.recorder.next('terminated', 1);
    expect(await waitGone(short.pid!)).toBe(true);
  });

  it('does not let a paused debuggee outlive a debugger that dies abruptly', async () => {
    const script = `
      import { engine } from ${JSON.stringify(new URL('../../dist/engines/node/index.js', import.meta.url).href)};
      const program = ${JSON.stringify(busy)};
      let stopped;
      const e = engine.create({ emit: (ev) => ev.type === 'stopped' && stopped(), log() {} });
      const hit = new Promise((r) => (stopped = r));
      const r = await e.launch({ program, args: [], cwd: '/', env: {}, stopOnEntry: false, breakpoints: [{ id: 1, file: program, line: ${lineOf(busy, 'tick')} }], functionBreakpoints: [], exceptions: { filters: [] }, options: {} });
      await hit;
      console.log(r.pid);
      process.kill(process.pid, 'SIGKILL');`;
    // The built engine (the global setup builds dist/) in a process of its own, so it can die.
    const debuggerProcess = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve) => debuggerProcess.stdout!.on('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    expect(pid).toBeGreaterThan(0);
    expect(await waitGone(pid)).toBe(true);
  });

  it('attaches to node --inspect, stops at a breakpoint, and detaches leaving it running', async () => {
    const { child, port } = await startInspectable();
    const { engine, recorder } = createRun();
    const tick = breakpointAt(busy, 'tick');
    const result = await engine.attach({ host: '127.0.0.1', port, breakpoints: [tick], functionBreakpoints: [], exceptions: { filters: [] }, options: {} });
    expect(result.pid).toBe(child.pid);
    expect(result.breakpoints[0]).toMatchObject({ id: tick.id, verified: true, line: tick.line });
    const stop = await recorder.next('stopped', 1);
    expect(stop).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [tick.id] });
    await engine.detach();
    await new Promise((r) => setTimeout(r, 300));
    expect(processAlive(child.pid!)).toBe(true);
    expect(child.exitCode).toBeNull();
  });

  it('attaches to a program as soon as it listens, and lets it run once it waits for the debugger', async () => {
    // Node answers the debugger before it waits (here for 1.5 s): a run request read then is lost.
    const loop = fixture('loop.js');
    const { port } = await startInspectable(['--snapshot-blob', await lateWaitSnapshot(), '--inspect-brk=127.0.0.1:0', loop]);
    const { engine, recorder } = createRun();
    const body = breakpointAt(loop, 'body');
    await engine.attach({ host: '127.0.0.1', port, breakpoints: [body], functionBreakpoints: [], exceptions: { filters: [] }, options: {} });
    expect((await recorder.next('stopped', 1, 20_000)).hitBreakpointIds).toEqual([body.id]);
  });

  it('attaches by pid through the inspector the process opens on 9229', async () => {
    await withDefaultInspectorPort(async () => {
      const child = spawn(process.execPath, [busy], { stdio: 'ignore' });
      started.push(child);
      const { engine, recorder } = createRun();
      const tick = breakpointAt(busy, 'tick');
      const result = await engine.attach({ pid: child.pid, breakpoints: [tick], functionBreakpoints: [], exceptions: { filters: [] }, options: {} });
      expect(result.pid).toBe(child.pid);
      expect((await recorder.next('stopped', 1)).hitBreakpointIds).toEqual([tick.id]);
      await engine.terminate();
      expect(await waitGone(child.pid!)).toBe(true);
    });
  });

  it('does not signal a process that would die of SIGUSR1: attach by pid to a non-node process is refused and leaves it running', async () => {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    started.push(child);
    const { engine } = createRun();
    await expect(engine.attach({ pid: child.pid, breakpoints: [], functionBreakpoints: [], exceptions: { filters: [] }, options: {} })).rejects.toMatchObject({
      code: 'ATTACH_FAILED',
      message: expect.stringContaining('does not handle SIGUSR1'),
    });
    expect(processAlive(child.pid!)).toBe(true);
  }, 20_000);

  it('says why attaching to a port without an inspector fails', async () => {
    const { engine } = createRun();
    await expect(engine.attach({ host: '127.0.0.1', port: 1, breakpoints: [], functionBreakpoints: [], exceptions: { filters: [] }, options: {} })).rejects.toMatchObject({ code: 'ATTACH_FAILED' });
  }, 20_000);
});
