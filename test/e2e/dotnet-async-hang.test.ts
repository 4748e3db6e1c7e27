/**
 * .NET async work that never finishes, in the hang report through the real MCP server: the async
 * chains no thread runs, read from the heap, each with what its innermost await waits on (a delay
 * timer, a SemaphoreSlim, a socket, a TaskCompletionSource never completed) and the threads blocking
 * on them, identical chains counted; tasks awaiting one another and a sync-over-async wait reported
 * as DEADLOCK.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Frame {
  name: string;
  file?: string;
  line: number;
  async?: boolean;
}
interface TaskGroup {
  count: number;
  frames: Frame[];
  waitsOn: { kind: string; object?: string; what?: string };
  blockedThreadIds?: number[];
}
interface Hang {
  groups: { threadIds: number[]; names: string[]; wait?: { kind: string; object?: string } }[];
  tasks?: TaskGroup[];
  asyncDeadlocks?: { kind: string; frames: Frame[]; threadId?: number; context?: string }[];
}
interface Wait {
  sessionId: string;
  status: string;
  hang?: Hang;
}

describe.runIf(run)('.NET async work in the hang report', () => {
  let client: McpTestClient;
  let warehouse: string;
  const dock = fixtureSource('warehouse', 'LoadingDock.cs');
  const catalog = fixtureSource('warehouse', 'Catalog.cs');
  const shelf = fixtureSource('warehouse', 'Shelf.cs');
  const program = fixtureSource('warehouse', 'Program.cs');
  const link = fixtureSource('warehouse', 'CarrierLink.cs');

  beforeAll(async () => {
    warehouse = buildFixture('warehouse');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-async-hang-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => stopActiveSessions(client));

  /** Launches a scenario and pauses it once it printed `ready` and its async work has settled. */
  async function pauseWhenStuck(scenario: string, ready: string): Promise<{ text: string; hang: Hang; sessionId: string }> {
    const launch = await client.call<{ sessionId: string }>('session_launch', { program: warehouse, args: [scenario], timeoutMs: 60_000 });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;
    for (let waited = 0; !(await output(sessionId)).includes(ready); waited += 100) {
      if (waited > 30_000) throw new Error(`${scenario} never printed "${ready}"`);
      await sleep(100);
    }
    // What it awaits was started just before the line printed: give the awaits a moment to suspend.
    await sleep(500);
    const pause = await client.call<Wait>('execution_pause', { sessionId });
    expect(pause.structured.status, pause.text).toBe('stopped');
    expect(pause.structured.hang, pause.text).toBeDefined();
    return { text: pause.text, hang: pause.structured.hang!, sessionId };
  }

  async function output(sessionId: string): Promise<string> {
    return (await client.call<{ output: string }>('session_output', { sessionId })).structured.output;
  }

  function mainThread(hang: Hang): number {
    return hang.groups.find((g) => g.names.includes('Main Thread'))!.threadIds[0]!;
  }

  it('names what each pending chain awaits: a TaskCompletionSource never completed, delay timers (counted), a SemaphoreSlim, a socket', async () => {
    const { text, hang, sessionId } = await pauseWhenStuck('delivery', 'waiting for PO-1042');
    const tasks = hang.tasks ?? [];
    const receive = tasks.find((t) => t.frames[0]?.name === 'Warehouse.LoadingDock.ReceiveAsync');
    expect(receive, text).toMatchObject({
      count: 1,
      waitsOn: { kind: 'promise', object: 'TaskCompletionSource<int>.Task' },
      frames: [
        { name: 'Warehouse.LoadingDock.ReceiveAsync', file: dock.path, line: dock.line('delivery-await'), async: true },
        { name: 'Warehouse.Program.Main', file: program.path, line: program.line('receive-await'), async: true },
      ],
    });
    // Main's caller (the runtime's stub) blocks the main thread on Main's task.
    const main = mainThread(hang);
    expect(receive!.blockedThreadIds).toEqual([main]);
    expect(hang.groups.find((g) => g.threadIds.includes(main))!.wait).toEqual({ kind: 'task', object: 'Warehouse.Program.Main' });
    expect(tasks.find((t) => t.frames[0]?.name === 'Warehouse.LoadingDock.PollScannerAsync')).toMatchObject({
      count: 3,
      waitsOn: { kind: 'delay', object: 'Task.Delay(300000 ms)' },
      frames: [{ line: dock.line('poll-await') }],
    });
    expect(tasks.find((t) => t.frames[0]?.name === 'Warehouse.LoadingDock.LoadTruckAsync')).toMatchObject({
      count: 1,
      waitsOn: { kind: 'semaphore' },
      frames: [{ line: dock.line('forklift-await') }],
    });
    expect(tasks.find((t) => t.frames.some((f) => f.name === 'Warehouse.LoadingDock.SignDeliveryAsync'))).toMatchObject({
      count: 1,
      waitsOn: { kind: 'io', what: 'a socket accept', object: 'TcpListener.AcceptSocketAsync' },
    });
    expect(text).toContain('3 × awaits Task.Delay(300000 ms)');
    expect(text).toMatch(/1 × awaits a socket accept \(TcpListener\.AcceptSocketAsync\)\n(?: {2}#\d+ \[External Code\].*\n)? {2}Warehouse\.LoadingDock\.SignDeliveryAsync \(LoadingDock\.cs:\d+\) \[async\]/);
    expect(text).toMatch(/1 × awaits TaskCompletionSource<int>\.Task, not completed; thread \d+ \(Main Thread\) blocks on it\n {2}Warehouse\.LoadingDock\.ReceiveAsync \(LoadingDock\.cs:\d+\) \[async\]/);

    // The same report from inspect_threads at the same stop.
    const again = await client.call<{ hang: Hang }>('inspect_threads', { sessionId, stacks: true });
    expect(again.structured.hang.tasks).toEqual(hang.tasks);
  });

  describe('I/O named by the API the program awaits', () => {
    it.each([
      { method: 'ReadManifestAsync', marker: 'manifest-await', what: 'a socket read', api: 'Socket.ReceiveAsync' },
      { method: 'AwaitPrinterAsync', marker: 'printer-await', what: 'a pipe read', api: 'PipeStream.ReadAsync' },
      { method: 'BookPickupAsync', marker: 'pickup-await', what: 'an HTTP request', api: 'HttpClient.GetAsync' },
    ])('$what: $api', async ({ method, marker, what, api }) => {
      const { text, hang } = await pauseWhenStuck('inbound', 'waiting for the carrier');
      const chain = (hang.tasks ?? []).find((t) => t.frames.some((f) => f.name === `Warehouse.CarrierLink.${method}`));
      expect(chain, text).toBeDefined();
      expect(chain!.waitsOn).toEqual({ kind: 'io', what, object: api });
      const frames = chain!.frames.filter((f) => f.file).map((f) => [f.name, f.line]);
      expect(frames).toEqual([
        [`Warehouse.CarrierLink.${method}`, link.line(marker)],
        ['Warehouse.Program.Main', program.line('inbound-await')],
      ]);
      expect(text).toContain(`awaits ${what} (${api})`);
    });
  });

  it('reports two methods awaiting each other\'s task as a DEADLOCK, and the caller awaiting them', async () => {
    const { text, hang } = await pauseWhenStuck('cycle', 'loading the catalog');
    expect(hang.asyncDeadlocks, text).toHaveLength(1);
    const [cycle] = hang.asyncDeadlocks!;
    expect(cycle!.kind).toBe('cycle');
    expect(cycle!.frames.map((f) => [f.name, f.line]).sort()).toEqual(
      [
        ['Warehouse.Catalog.LoadPricesAsync', catalog.line('stock-await')],
        ['Warehouse.Catalog.LoadStockAsync', catalog.line('prices-value-await')],
      ].sort(),
    );
    expect(text).toMatch(/^DEADLOCK: Warehouse\.Catalog\.Load\w+Async \(Catalog\.cs:\d+\) awaits Warehouse\.Catalog\.Load\w+Async \(Catalog\.cs:\d+\) awaits Warehouse\.Catalog\.Load\w+Async: the tasks wait on one another\./m);
    expect(hang.tasks).toContainEqual(
      expect.objectContaining({ waitsOn: { kind: 'deadlock' }, frames: [expect.objectContaining({ name: 'Warehouse.Program.Main', line: program.line('prices-await') })] }),
    );
  });

  it('reports a thread blocking on .Result of a method that must resume on that thread as a sync-over-async DEADLOCK', async () => {
    const { text, hang } = await pauseWhenStuck('dispatcher', 'refreshing the shelf');
    const main = mainThread(hang);
    expect(hang.asyncDeadlocks, text).toEqual([
      expect.objectContaining({
        kind: 'syncOverAsync',
        threadId: main,
        context: 'Warehouse.Dispatcher',
        frames: [expect.objectContaining({ name: 'Warehouse.Shelf.CountItemsAsync', line: shelf.line('count-await') })],
      }),
    ]);
    expect(hang.groups.find((g) => g.threadIds.includes(main))!.wait).toEqual({ kind: 'task', object: 'Warehouse.Shelf.CountItemsAsync' });
    expect(text).toMatch(/^DEADLOCK: thread \d+ \(Main Thread\) blocks \(\.Result \/ \.Wait\(\)\) on Warehouse\.Shelf\.CountItemsAsync \(Shelf\.cs:\d+\), which can resume only on that thread's SynchronizationContext \(Warehouse\.Dispatcher\): sync over async\./m);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
