import { describe, expect, it } from 'vitest';
import { CursorLog } from '../../src/core/cursorLog.js';

describe('CursorLog', () => {
  it('reads what came since a cursor and hands back the next cursor', () => {
    const log = new CursorLog<string>(10);
    log.append('a');
    log.append('b');
    const first = log.since(0);
    expect(first.entries.map((e) => e.value)).toEqual(['a', 'b']);
    log.append('c');
    const next = log.since(first.cursor);
    expect(next.entries.map((e) => e.value)).toEqual(['c']);
    expect(log.since(next.cursor).entries).toEqual([]);
  });

  it('drops the oldest entries past capacity and says how many a reader missed', () => {
    const log = new CursorLog<number>(3);
    for (let i = 1; i <= 5; i++) log.append(i);
    const slice = log.since(0);
    expect(slice.entries.map((e) => e.value)).toEqual([3, 4, 5]);
    expect(slice.dropped).toBe(2);
  });

  it('limits a page and continues from where it stopped', () => {
    const log = new CursorLog<number>(10);
    for (let i = 1; i <= 5; i++) log.append(i);
    const page = log.since(0, 2);
    expect(page.entries.map((e) => e.value)).toEqual([1, 2]);
    expect(log.since(page.cursor, 2).entries.map((e) => e.value)).toEqual([3, 4]);
  });

  it('wakes a waiter on append, and times out without one', async () => {
    const log = new CursorLog<string>(10);
    const woke = log.waitBeyond(0, 5000);
    setTimeout(() => log.append('x'), 10);
    expect(await woke).toBe(true);
    expect(await log.waitBeyond(log.head, 20)).toBe(false);
  });

  it('ends a wait when the signal aborts', async () => {
    const log = new CursorLog<string>(10);
    const controller = new AbortController();
    const waiting = log.waitBeyond(0, 60_000, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
  });
});
