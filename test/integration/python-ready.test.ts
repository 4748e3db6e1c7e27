/** The ready debuggee, driven through the engine: taken while preparing, lost while waiting, its priority. */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engine as pythonEngine } from '../../src/engines/python/index.js';
import { canRestorePriority } from '../../src/core/processPriority.js';
import { descendantsOf } from '../../src/engines/python/processTree.js';
import { readyDebuggeeState } from '../../src/engines/python/readyDebuggee.js';
import { requireRuntime } from '../support/runtimes.js';
import { breakpointAt, createRun, disposeAll, fixture, launchConfig, processAlive } from './pythonHarness.js';

const available = requireRuntime('python with debugpy', (await pythonEngine.detect()).available);
const oneLine = fixture('one_line.py');
/** A program that prints the folder it runs in. */
const cwdPrinter = join(mkdtempSync(join(tmpdir(), 'dbb-ready-')), 'cwd.py');
writeFileSync(cwdPrinter, 'import os\nprint(os.getcwd())\n');

function details(run: ReturnType<typeof createRun>) {
  return run.engine.diagnostics().details as { start: string; startNote?: string; adapterPid: number; launchSteps: Record<string, number> };
}

/** Every thread's nice value (field 19 of /proc/<pid>/task/<tid>/stat). */
function niceOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/** The ready debuggee once its preparation began (after a launch, once the calls pause or its session ends: callsQuiet.ts). */
async function readyPreparing(): Promise<NonNullable<ReturnType<typeof readyDebuggeeState>>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = readyDebuggeeState();
    if (state) return state;
    if (Date.now() > deadline) throw new Error('no ready debuggee was prepared after the launch');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The waiting ready debuggee once ready. */
async function readyWaiting(): Promise<NonNullable<ReturnType<typeof readyDebuggeeState>>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const state = readyDebuggeeState();
    if (state?.state === 'ready') return state;
    if (Date.now() > deadline) throw new Error(`no ready debuggee became ready: ${JSON.stringify(state)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!available)('python engine: the ready debuggee', () => {
  afterEach(disposeAll);

  it('serves a launch of the same kind as the one before, also when it is still being prepared', async () => {
    const first = createRun();
    await first.engine.launch(launchConfig(oneLine));
    // That launch readied the next one for its environment once its session ended (its program
    // ran to the end): take it at once, still preparing.
    expect(await readyPreparing()).toMatchObject({ state: 'preparing' });
    const second = createRun();
    const { pid } = await second.engine.launch(launchConfig(oneLine, { breakpoints: [breakpointAt(oneLine, 'only')] }));
    const stop = await second.recorder.next('stopped', 1);
    expect(stop.reason).toBe('breakpoint');
    expect(details(second)).toMatchObject({ start: 'ready debuggee', launchSteps: { ready: expect.any(Number), stopped: expect.any(Number) } });
    expect(second.recorder.of('process')[0]).toEqual({ type: 'process', pid, name: oneLine });
    await second.engine.continue();
    await second.recorder.next('exited', 1);
    expect(second.recorder.output('stdout')).toBe('done\n');
  });

  it('starts normally when the ready debuggee died while it waited, and says why', async () => {
    const { adapterPid } = await readyWaiting();
    process.kill(adapterPid!, 'SIGKILL');
    while (readyDebuggeeState()) await new Promise((r) => setTimeout(r, 10));
    const run = createRun();
    await run.engine.launch(launchConfig(oneLine));
    await run.recorder.next('exited', 1);
    expect(details(run)).toMatchObject({ start: 'normal launch', startNote: expect.stringMatching(/no ready debuggee was waiting/) });
  });

  it('starts normally for stopOnEntry, and for another environment names the difference', async () => {
    await readyWaiting();
    const entry = createRun();
    await entry.engine.launch(launchConfig(oneLine, { stopOnEntry: true }));
    expect((await entry.recorder.next('stopped', 1)).reason).toBe('entry');
    expect(details(entry)).toMatchObject({ start: 'normal launch', startNote: 'stopOnEntry launches start normally' });
    await readyWaiting();
    const elsewhere = createRun();
    await elsewhere.engine.launch(launchConfig(oneLine, { env: { DEBUGBRIDGE_READY_TEST: '1' } }));
    expect(details(elsewhere).startNote).toMatch(/^the ready debuggee waits with other environment variables/);
  });

  it('waits in a folder of ours, not the last launch\'s, and runs the next program in that program\'s folder', async () => {
    const before = createRun();
    await before.engine.launch(launchConfig(oneLine));
    await before.recorder.next('exited', 1);
    const { adapterPid } = await readyWaiting();
    const waiting = [adapterPid!, ...descendantsOf(adapterPid!)];
    for (const pid of waiting) expect({ pid, cwd: readlinkSync(`/proc/${pid}/cwd`) }).not.toMatchObject({ cwd: launchConfig(oneLine).cwd });
    const elsewhere = mkdtempSync(join(tmpdir(), 'dbb-ready-cwd-'));
    const run = createRun();
    await run.engine.launch(launchConfig(cwdPrinter, { cwd: elsewhere }));
    await run.recorder.next('exited', 1);
    expect(details(run)).toMatchObject({ start: 'ready debuggee' });
    expect(run.recorder.output('stdout')).toBe(`${realpathSync(elsewhere)}\n`);
  });

  it.runIf(canRestorePriority())('prepares at the lowest priority whatever the program does, and the program that takes it gets ours', async () => {
    // A program that runs without using the CPU: the preparation yields to it, but is not starved.
    const sleeper = fixture('sleeper.py');
    const running = createRun();
    await running.engine.launch(launchConfig(sleeper, { args: ['30'] }));
    const { adapterPid } = await readyWaiting();
    const waiting = [adapterPid!, ...descendantsOf(adapterPid!)];
    expect(waiting.length).toBe(3); // adapter, launcher, debuggee
    for (const pid of waiting) expect({ pid, nice: new Set(niceOf(pid)) }).toEqual({ pid, nice: new Set([19]) });

    await running.engine.pause();
    await running.recorder.next('stopped', 1);
    for (const pid of waiting) expect({ pid, nice: new Set(niceOf(pid)) }).toEqual({ pid, nice: new Set([19]) });

    const run = createRun();
    await run.engine.launch(launchConfig(oneLine, { breakpoints: [breakpointAt(oneLine, 'only')] }));
    await run.recorder.next('stopped', 1);
    expect(details(run)).toMatchObject({ start: 'ready debuggee', adapterPid });
    for (const pid of waiting) expect({ pid, nice: new Set(niceOf(pid)) }).toEqual({ pid, nice: new Set([getPriority()]) });
    expect(waiting.every(processAlive)).toBe(true);
  });
});

