/** Attach, pause, and process hygiene: nothing we started outlives the session or our process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { descendantsOf } from '../../src/engines/python/processTree.js';
import { engine as pythonEngine } from '../../src/engines/python/index.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { breakpointAt, createRun, disposeAll, fixture, launchConfig, processAlive } from './pythonHarness.js';

const available = requireRuntime('python with debugpy', (await pythonEngine.detect()).available);
const busy = fixture('busy.py');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = process.env.DEBUGBRIDGE_DIST ?? join(root, 'dist');

async function allGone(pids: number[], timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(processAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return pids.filter(processAlive);
}

function sessionPids(run: ReturnType<typeof createRun>): number[] {
  const adapterPid = run.engine.diagnostics().details?.adapterPid as number;
  return [adapterPid, ...descendantsOf(adapterPid)];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Whether something listens on the port, read from /proc so debugpy does not see a client. */
function listening(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].some(
    (file) => existsSync(file) && readFileSync(file, 'utf8').split('\n').some((l) => l.includes(`:${hex} `) && / 0A /.test(l)),
  );
}

const spawned: ChildProcess[] = [];

describe.skipIf(!available)('python engine: attach, pause, processes', () => {
  afterEach(async () => {
    await disposeAll();
    for (const child of spawned.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('pauses a busy loop and reports where', async () => {
    const run = createRun();
    await run.engine.launch(launchConfig(busy, { args: ['30'] }));
    // Into its loop (its counter defined) even on a loaded machine.
    await new Promise((r) => setTimeout(r, 1500));
    await run.engine.pause();
    const stop = await run.recorder.next('stopped', 1);
    expect(stop.reason).toBe('pause');
    const [top] = (await run.engine.stackTrace(stop.threadId, 0, 1)).frames;
    expect(top.file).toBe(busy);
    const counter = await run.engine.evaluate('counter', top.id, 'watch');
    expect(Number(counter.value)).toBeGreaterThan(0);
  });

  it('leaves no process behind after terminate, or after dispose while stopped', async () => {
    const running = createRun();
    const { pid } = await running.engine.launch(launchConfig(busy, { args: ['30'] }));
    const first = [pid!, ...sessionPids(running)];
    expect(first.length).toBeGreaterThanOrEqual(3); // adapter, launcher, debuggee
    await running.engine.terminate();
    // The debuggee is gone when terminate resolves; the adapter and the launcher end right after.
    expect(processAlive(pid!)).toBe(false);
    expect(await allGone(first)).toEqual([]);

    const stopped = createRun();
    const second = await stopped.engine.launch(launchConfig(busy, { args: ['30'], breakpoints: [breakpointAt(busy, 'spin')] }));
    await stopped.recorder.next('stopped', 1);
    const pids = [second.pid!, ...sessionPids(stopped)];
    await stopped.engine.dispose();
    expect(processAlive(second.pid!)).toBe(false);
    expect(await allGone(pids)).toEqual([]);
    await stopped.engine.dispose(); // idempotent
  });

  it('reports a crashed adapter as an error and still cleans up on dispose', async () => {
    const run = createRun();
    const { pid } = await run.engine.launch(launchConfig(busy, { args: ['30'], breakpoints: [breakpointAt(busy, 'spin')] }));
    await run.recorder.next('stopped', 1);
    const pids = [pid!, ...sessionPids(run)];
    process.kill(run.engine.diagnostics().details?.adapterPid as number, 'SIGKILL');
    const error = await run.recorder.next('error', 1);
    expect(error.message).toMatch(/debugpy connection lost/);
    await run.recorder.next('terminated', 1);
    await expect(run.engine.threads()).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await run.engine.dispose();
    expect(await allGone(pids)).toEqual([]);
  });

  it('leaves no process behind when our own process is killed', async () => {
    const engineModule = join(dist, 'engines', 'python', 'index.js');
    if (!existsSync(engineModule)) throw new Error(`${engineModule} is missing: build first (npm run build)`);
    const script = `
      import { engine } from ${JSON.stringify(engineModule)};
      const instance = engine.create({ emit() {}, log() {} });
      const { pid } = await instance.launch({ program: ${JSON.stringify(busy)}, args: ['30'], cwd: '/tmp', env: {},
        stopOnEntry: false, breakpoints: [], functionBreakpoints: [], exceptions: { filters: ['uncaught'] }, options: {} });
      console.log(JSON.stringify({ debuggee: pid, adapter: instance.diagnostics().details.adapterPid }));
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    spawned.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`launcher script exited with ${code}`)));
    });
    const { debuggee, adapter } = JSON.parse(line) as { debuggee: number; adapter: number };
    const pids = [debuggee, adapter, ...descendantsOf(adapter)];
    expect(pids.every(processAlive)).toBe(true);
    child.kill('SIGKILL');
    expect(await allGone(pids)).toEqual([]);
  });

  it('launches through the adapter that prepare() started ahead of it', async () => {
    await pythonEngine.prepare!();
    const waiting = descendantsOf(process.pid);
    const run = createRun();
    await run.engine.launch(launchConfig(busy, { args: ['30'] }));
    expect(waiting).toContain(run.engine.diagnostics().details?.adapterPid);
  });

  it('lets our process exit while what prepare() started waits, and all of it goes with it', async () => {
    const engineModule = join(dist, 'engines', 'python', 'index.js');
    const treeModule = join(dist, 'engines', 'python', 'processTree.js');
    const script = `
      import { engine } from ${JSON.stringify(engineModule)};
      import { descendantsOf } from ${JSON.stringify(treeModule)};
      await engine.prepare();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      console.log(JSON.stringify(descendantsOf(process.pid)));
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    spawned.push(child);
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const waiting = JSON.parse(text) as number[];
    expect(waiting.length).toBeGreaterThan(0);
    expect(await allGone(waiting)).toEqual([]);
  });

  it('attaches to a program started with debugpy --listen, stops at a breakpoint and terminates it', async () => {
    const interpreter = (await pythonEngine.detect()).detail!;
    const port = await freePort();
    const program = spawn(interpreter, ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, '--wait-for-client', busy, '30'], { stdio: 'ignore' });
    spawned.push(program);
    const deadline = Date.now() + 15_000;
    while (!listening(port)) {
      if (Date.now() > deadline) throw new Error(`debugpy did not listen on ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const run = createRun();
    const spec = breakpointAt(busy, 'spin');
    const result = await run.engine.attach({ host: '127.0.0.1', port, breakpoints: [spec], functionBreakpoints: [], exceptions: { filters: ['uncaught'] }, options: {} });
    expect(result.breakpoints[0]).toMatchObject({ id: spec.id, verified: true });
    const stop = await run.recorder.next('stopped', 1);
    expect(stop.hitBreakpointIds).toEqual([spec.id]);
    expect(run.recorder.of('process')[0]?.pid).toBe(program.pid);
    await run.engine.terminate();
    expect(await allGone([program.pid!])).toEqual([]);
  });

  // Injection goes through gdb; without it, attach by pid is an optional feature that is absent.
  it.runIf(requireRuntime('gdb (pid attach injects debugpy through it)', hasCommand('gdb')))('attaches to a plain running Python process by pid', async () => {
    const interpreter = (await pythonEngine.detect()).detail!;
    const program = spawn(interpreter, [busy, '30'], { stdio: 'ignore' });
    spawned.push(program);
    await new Promise((r) => setTimeout(r, 300));
    const run = createRun();
    const spec = breakpointAt(busy, 'spin');
    await run.engine.attach({ pid: program.pid, breakpoints: [spec], functionBreakpoints: [], exceptions: { filters: ['uncaught'] }, options: {} });
    const stop = await run.recorder.next('stopped', 1);
    expect(stop.hitBreakpointIds).toEqual([spec.id]);
    await run.engine.terminate();
    expect(await allGone([program.pid!])).toEqual([]);
  });

  it('asks for a port or a pid', async () => {
    const run = createRun();
    await expect(
      run.engine.attach({ breakpoints: [], functionBreakpoints: [], exceptions: { filters: [] }, options: {} }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', hint: expect.stringContaining('--listen') });
  });
});

