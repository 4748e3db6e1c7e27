import { describe, expect, it } from 'vitest';
import { buildHangReport } from '../../src/core/hangReport.js';
import type { FrameInfo, ThreadDump } from '../../src/core/types.js';
import { renderHangReport } from '../../src/server/renderHang.js';

const frame = (name: string, line: number): FrameInfo => ({ id: 0, name, file: '/app/pool.py', line, column: 1 });

describe('hang report', () => {
  it('groups identical stacks with their count and keeps distinct waits apart', () => {
    const idle = (id: number): ThreadDump => ({ id, name: `worker-${id}`, frames: [frame('work', 9), frame('run', 3)], wait: { kind: 'io', object: 'jobs_queue' } });
    const report = buildHangReport([idle(2), idle(3), idle(4), { id: 1, name: 'MainThread', frames: [frame('main', 20)], wait: { kind: 'join', object: 'w' } }]);
    expect(report.groups.map((g) => g.threadIds)).toEqual([[2, 3, 4], [1]]);
    expect(report.deadlocks).toEqual([]);
    expect(renderHangReport(report)).toMatch(/^3 threads 2, 3, 4 \(worker-2, worker-3, worker-4\) — waits on I\/O \(jobs_queue\)$/m);
  });

  it('names the holder of a lock the runtime gave no owner for, and finds the cycle', () => {
    const report = buildHangReport([
      { id: 1, name: 'MainThread', frames: [frame('main', 20)], wait: { kind: 'join' } },
      { id: 7, name: 'a', frames: [frame('a_then_b', 12)], wait: { kind: 'lock', object: 'lock_b' }, holds: [{ object: 'lock_a', line: 10 }] },
      { id: 5, name: 'b', frames: [frame('b_then_a', 19)], wait: { kind: 'lock', object: 'lock_a' }, holds: [{ object: 'lock_b', line: 17 }] },
    ]);
    expect(report.threads.find((t) => t.id === 7)?.wait?.ownerThreadId).toBe(5);
    expect(report.deadlocks).toEqual([[5, 7]]);
    expect(report.groups.map((g) => g.threadIds[0])).toEqual([7, 5, 1]);
    expect(renderHangReport(report)).toContain('DEADLOCK: thread 5 (b) → thread 7 (a) → thread 5');
  });

  it('leaves the owner unknown when two threads hold objects of that name', () => {
    const holder = (id: number): ThreadDump => ({ id, name: `h${id}`, frames: [], holds: [{ object: 'self.lock', line: 4 }] });
    const report = buildHangReport([holder(1), holder(2), { id: 3, name: 'w', frames: [], wait: { kind: 'lock', object: 'self.lock' } }]);
    expect(report.threads[2].wait?.ownerThreadId).toBeUndefined();
  });

  it('stays under its size cap and says which threads it left out', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, name: `t${i + 1}`, frames: Array.from({ length: 12 }, (_, j) => frame(`f${i}_${j}`, j + 1)) }));
    const text = renderHangReport(buildHangReport(many));
    expect(text.length).toBeLessThan(4500);
    expect(text).toMatch(/… \d+ more threads left out \(size cap\): inspect_stack \{ threadId \}/);
  });
});

describe('hang report: async chains no thread runs', () => {
  const awaiting = (name: string, line: number): FrameInfo => ({ id: 0, name, file: '/app/Dock.cs', line, column: 9, async: true });
  const poll = { frames: [awaiting('Dock.PollAsync', 22)], waitsOn: { kind: 'delay' as const, object: 'Task.Delay(300000 ms)' } };

  it('groups identical chains with their count, the largest first, and names the threads blocking on one', () => {
    const receive = { frames: [awaiting('Dock.ReceiveAsync', 12), awaiting('Program.Main', 20)], waitsOn: { kind: 'promise' as const, object: 'TaskCompletionSource<int>.Task' }, blockedThreadIds: [1] };
    const report = buildHangReport([{ id: 1, name: 'Main Thread', frames: [], wait: { kind: 'task', object: 'Program.Main' } }], { tasks: [receive, poll, poll, poll], deadlocks: [] });
    expect(report.tasks?.map((t) => t.count)).toEqual([3, 1]);
    const text = renderHangReport(report);
    expect(text).toContain('4 pending async chains no thread runs (innermost await first):\n3 × awaits Task.Delay(300000 ms)\n  Dock.PollAsync (Dock.cs:22) [async]');
    expect(text).toContain('1 × awaits TaskCompletionSource<int>.Task, not completed; thread 1 (Main Thread) blocks on it\n  Dock.ReceiveAsync (Dock.cs:12) [async]\n  Program.Main (Dock.cs:20) [async]');
  });

  it('names async deadlocks first: tasks awaiting one another, and a thread blocking on a task that needs it', () => {
    const report = buildHangReport([{ id: 1, name: 'Main Thread', frames: [], wait: { kind: 'task', object: 'Shelf.CountAsync' } }], {
      tasks: [],
      deadlocks: [
        { kind: 'cycle', frames: [awaiting('Catalog.LoadPricesAsync', 23), awaiting('Catalog.LoadStockAsync', 30)] },
        { kind: 'syncOverAsync', threadId: 1, context: 'Ui.Dispatcher', frames: [awaiting('Shelf.CountAsync', 9)] },
      ],
    });
    const lines = renderHangReport(report).split('\n');
    expect(lines[1]).toBe('DEADLOCK: Catalog.LoadPricesAsync (Dock.cs:23) awaits Catalog.LoadStockAsync (Dock.cs:30) awaits Catalog.LoadPricesAsync: the tasks wait on one another.');
    expect(lines[2]).toBe(
      "DEADLOCK: thread 1 (Main Thread) blocks (.Result / .Wait()) on Shelf.CountAsync (Dock.cs:9), which can resume only on that thread's SynchronizationContext (Ui.Dispatcher): sync over async.",
    );
  });

  it('keeps the chains within a size cap of their own and says how many it left out, and why none could be read', () => {
    const distinct = Array.from({ length: 100 }, (_, i) => ({ frames: [awaiting(`Worker${i}.RunAsync`, i + 1), awaiting('Program.Main', 5)], waitsOn: { kind: 'io' as const, object: 'Socket' } }));
    const text = renderHangReport(buildHangReport([], { tasks: distinct, deadlocks: [], omitted: 7 }));
    expect(text.length).toBeLessThan(3500);
    expect(text).toMatch(/… \d+ more chains left out \(size cap\)\.$/);
    expect(renderHangReport(buildHangReport([], { tasks: [], deadlocks: [], unavailable: 'the heap cannot be walked' }))).toContain('(pending async tasks: the heap cannot be walked)');
  });

  it('says how many chains the time limit left unread when it left none to show', () => {
    const text = renderHangReport(buildHangReport([], { tasks: [], deadlocks: [], unread: 6 }));
    expect(text).toContain('6 pending async chains no thread runs, not read (time limit): inspect_threads { stacks: true } reads them again.');
    expect(text).not.toContain('size cap');
  });

  it('tells chains the time limit left unread from those the size cap left out', () => {
    const chain = { frames: [awaiting('Worker.RunAsync', 3), awaiting('Program.Main', 5)], waitsOn: { kind: 'delay' as const, object: 'Task.Delay(1000 ms)' } };
    const timed = renderHangReport(buildHangReport([], { tasks: [chain, chain], deadlocks: [], unread: 5 }));
    expect(timed).toContain('7 pending async chains no thread runs (innermost await first):\n2 × awaits Task.Delay(1000 ms)');
    expect(timed).toMatch(/… 5 pending async chains no thread runs, not read \(time limit\): inspect_threads \{ stacks: true \} reads them again\.$/);
    expect(timed).not.toContain('size cap');
    const capped = renderHangReport(buildHangReport([], { tasks: [chain], deadlocks: [], omitted: 3 }));
    expect(capped).toMatch(/… 3 more chains left out \(size cap\)\.$/);
    expect(capped).not.toContain('time limit');
  });
});
