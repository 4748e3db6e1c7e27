/**
 * The hang report through the real MCP server over stdio: a two-thread deadlock on each runtime
 * (Python threading locks, .NET `lock`, a Node worker and the main thread in Atomics.wait), found by
 * inspect_threads { stacks: true } and by execution_pause — which on Python, where no thread
 * blocked on a lock can be suspended, answers `blocked` with the report instead of timing out.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture, fixtureProject } from '../fixtures/dotnet/fixtures.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { runningUnder, stopAllAndCheckGone } from '../support/testToolClient.js';

const PYTHON = fileURLToPath(new URL('../fixtures/e2e/python/deadlock.py', import.meta.url));
const NODE = fileURLToPath(new URL('../fixtures/node/atomics_deadlock.js', import.meta.url));
const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));
const hasDotnet = process.platform === 'linux' && findDotnet() !== undefined;

interface Group {
  threadIds: number[];
  names: string[];
  frames: { name: string; file?: string; line: number }[];
  wait?: { kind: string; object?: string; ownerThreadId?: number };
  holds?: { object: string; line: number }[];
}
interface Hang {
  groups: Group[];
  deadlocks: number[][];
}
interface Threads {
  state: string;
  threads: { id: number; name: string }[];
  hang?: Hang;
}
interface Wait {
  status: string;
  state: string;
  stop?: { reason: string; threadId: number };
  hang?: Hang;
}

const groupOf = (hang: Hang, name: string) => hang.groups.find((g) => g.names.includes(name))!;
const idOf = (hang: Hang, name: string) => groupOf(hang, name).threadIds[0];

describe('hang report end to end', () => {
  let client: McpTestClient;
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-hang-state-'));

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir } });
  });
  afterAll(async () => {
    await client?.close();
  });
  // Each deadlocked program, and every process its session started, is gone when the session ends.
  afterEach(async () => {
    await stopAllAndCheckGone(client, await runningUnder(client));
  });

  /** Reads the report until `ready` holds (the threads reach their waits at their own pace). */
  async function reportWhen(sessionId: string, ready: (hang: Hang) => boolean): Promise<{ text: string; structured: Threads }> {
    for (let attempt = 0; ; attempt++) {
      const r = await client.call<Threads>('inspect_threads', { sessionId, stacks: true });
      expect(r.isError, r.text).toBe(false);
      if (ready(r.structured.hang!) || attempt === 60) return r;
    }
  }

  it.runIf(requireRuntime('python with debugpy', hasDebugpy))('python: two threads deadlocked on threading locks, found while running and by a pause', async () => {
    const launch = await client.call<{ sessionId: string }>('session_launch', { program: PYTHON });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;

    const report = await reportWhen(sessionId, (h) => h.deadlocks.length > 0);
    expect(report.structured.state).toBe('running');
    const hang = report.structured.hang!;
    const [ab, ba] = [idOf(hang, 'mover-ab'), idOf(hang, 'mover-ba')];
    expect(hang.deadlocks).toEqual([[ab, ba].sort((x, y) => x - y)]);
    expect(groupOf(hang, 'mover-ab')).toMatchObject({
      frames: [{ name: 'transfer_a_to_b', line: markerLine(PYTHON, 'BP:waits_b') }],
      wait: { kind: 'lock', object: 'lock_b', ownerThreadId: ba },
      holds: [{ object: 'lock_a' }],
    });
    expect(groupOf(hang, 'mover-ba').wait).toEqual({ kind: 'lock', object: 'lock_a', ownerThreadId: ab });
    expect(groupOf(hang, 'MainThread')).toMatchObject({ wait: { kind: 'join' }, frames: [{ line: markerLine(PYTHON, 'BP:join') }] });
    expect(report.text).toMatch(/^DEADLOCK: thread \d+ \(mover-\w+\) → thread \d+ \(mover-\w+\)/m);
    expect(report.text).toContain('waits on lock lock_b, held by thread');

    // No thread runs Python code, so none can be suspended: the pause answers with the report.
    const pause = await client.call<Wait>('execution_pause', { sessionId, timeoutMs: 120_000 });
    expect(pause.isError, pause.text).toBe(false);
    expect(pause.structured).toMatchObject({ status: 'blocked', state: 'running' });
    expect(pause.structured.hang?.deadlocks).toEqual(hang.deadlocks);
    expect(pause.text).toMatch(/No thread could be stopped[\s\S]*DEADLOCK/);
  });

  it.runIf(requireRuntime('node', true))('node: the main thread and a worker each in Atomics.wait for the other', async () => {
    const launch = await client.call<{ sessionId: string }>('session_launch', { program: NODE });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;
    const waiting = (h: Hang) => h.groups.length === 2 && h.groups.every((g) => g.wait?.kind === 'atomics');

    const report = await reportWhen(sessionId, waiting);
    expect(waiting(report.structured.hang!), report.text).toBe(true);
    expect(report.structured.state).toBe('running');
    const hang = report.structured.hang!;
    for (const group of hang.groups) {
      expect(group.wait).toEqual({ kind: 'atomics', object: 'signals[slot]' });
      expect(group.frames[0]).toMatchObject({ name: 'waitFor', line: markerLine(NODE, 'BP:waits') });
    }
    expect(hang.groups.flatMap((g) => g.names).some((n) => n.startsWith('worker'))).toBe(true);
    expect(report.text).toContain('waits in Atomics.wait on signals[slot]');

    // The pause stops the main thread inside Atomics.wait; its answer carries the worker's stack too.
    const pause = await client.call<Wait>('execution_pause', { sessionId });
    expect(pause.structured).toMatchObject({ status: 'stopped', state: 'stopped', stop: { reason: 'pause', threadId: 1 } });
    expect(pause.structured.hang && waiting(pause.structured.hang)).toBe(true);
    // The worker's stack was read in a pause the agent does not see: the session still shows one stop.
    const threads = await client.call<Threads>('inspect_threads', { sessionId });
    expect(threads.text).not.toContain('its stop is shown next');
  });

  it.runIf(requireRuntime('dotnet', hasDotnet))('dotnet: two threads deadlocked on C# lock, owners from the runtime', async () => {
    const program = buildFixture('deadlock');
    const source = join(fixtureProject('deadlock'), 'Program.cs');
    const launch = await client.call<{ sessionId: string }>('session_launch', { program });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;

    // ICorDebug reads stacks of a stopped program: pause until both movers are in their second lock.
    let pause = await client.call<Wait>('execution_pause', { sessionId });
    for (let attempt = 0; !pause.structured.hang?.deadlocks.length && attempt < 30; attempt++) {
      await client.call('execution_continue', { sessionId, wait: false });
      pause = await client.call<Wait>('execution_pause', { sessionId });
    }
    expect(pause.structured.status, pause.text).toBe('stopped');
    const hang = pause.structured.hang!;
    const [first, second] = [idOf(hang, 'mover-ledger-first'), idOf(hang, 'mover-audit-first')];
    expect(hang.deadlocks).toEqual([[first, second].sort((x, y) => x - y)]);
    expect(groupOf(hang, 'mover-ledger-first').wait).toEqual({ kind: 'lock', object: 'second', ownerThreadId: second });
    expect(groupOf(hang, 'mover-audit-first').wait).toEqual({ kind: 'lock', object: 'second', ownerThreadId: first });
    expect(groupOf(hang, 'mover-ledger-first').frames.find((f) => f.file)).toMatchObject({ file: source, line: markerLine(source, 'BP:waits') });
    expect(pause.text).toMatch(/^DEADLOCK: thread \d+ \(mover-[\w-]+\) → thread \d+ \(mover-[\w-]+\)/m);

    const again = await client.call<Threads>('inspect_threads', { sessionId, stacks: true });
    expect(again.structured.hang?.deadlocks).toEqual(hang.deadlocks);
  });
});
