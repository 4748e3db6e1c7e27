/**
 * When readying may run: after the client's calls are quiet, except the runtime a waiting launch
 * names (the transport's view of the calls is pure bookkeeping, so it is driven here by hand).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineRegistry } from '../../src/core/engineRegistry.js';
import { Readiness } from '../../src/core/readiness.js';
import { QuietMoments } from '../../src/core/quietMoments.js';
import { ToolCalls } from '../../src/server/callActivity.js';

describe('readying waits its turn', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const launch = (id: number, program: string) => ({ id, method: 'tools/call', params: { name: 'session_launch', arguments: { program } } });

  it('hurries what a runtime readies once a launch of it comes, and only that runtime', async () => {
    const hurried: string[] = [];
    const registry = new EngineRegistry(async (specifier) => ({ prepare: async () => undefined, hurry: () => hurried.push(specifier) }));
    const calls = new ToolCalls();
    const readiness = new Readiness(registry, calls);
    await registry.prepare('python', readiness);
    calls.request(launch(1, '/src/app.js'));
    expect(hurried).toEqual([]);
    calls.request(launch(2, '/src/app.py'));
    await vi.advanceTimersByTimeAsync(0);
    expect(hurried).toEqual(['../engines/python/readying.js']);
  });

  it.each([
    ['a launch of another runtime', '/src/app.js', 'python', false],
    ['a launch of that runtime', '/src/app.py', 'python', true],
  ])('while %s is in flight', async (_, program, language, atOnce) => {
    const calls = new ToolCalls();
    const readiness = new Readiness(new EngineRegistry(), calls);
    calls.request(launch(7, program));
    expect(readiness.wanted(language)).toBe(atOnce);
    const turn = readiness.wait(language);
    expect(turn === undefined).toBe(atOnce);
    if (!turn) return;
    let came = false;
    void turn.then(() => (came = true));
    calls.response(7);
    await vi.advanceTimersByTimeAsync(100);
    expect(came).toBe(false);
    // Another call within the quiet time puts it off again.
    calls.request({ id: 8, method: 'tools/call', params: { name: 'inspect_stack', arguments: {} } });
    await vi.advanceTimersByTimeAsync(1000);
    expect(came).toBe(false);
    // Cancelled: MCP sends no answer to it.
    calls.request({ method: 'notifications/cancelled', params: { requestId: 8 } });
    await vi.advanceTimersByTimeAsync(300);
    expect(came).toBe(true);
    expect(readiness.wait(language)).toBeUndefined();
  });
});

describe('a quiet moment (one mechanism for readying, the next Python debuggee, the .NET worker prestart)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a job once nothing happened for its time and no work is under way; a later job of the same key replaces it', async () => {
    const moments = new QuietMoments(300);
    const ran: string[] = [];
    const end = moments.begin();
    moments.whenQuiet('next', () => ran.push('first'));
    moments.whenQuiet('next', () => ran.push('second'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual([]);
    end();
    await vi.advanceTimersByTimeAsync(200);
    moments.touch();
    await vi.advanceTimersByTimeAsync(200);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(ran).toEqual(['second']);
  });

  it('runs at once when asked to go soon, but never beside work under way, and a new work cancels the hurry', async () => {
    const moments = new QuietMoments(300);
    const ran: string[] = [];
    let end = moments.begin();
    moments.whenQuiet('a', () => ran.push('a'));
    moments.runSoon();
    expect(ran).toEqual([]);
    end();
    expect(ran).toEqual(['a']);
    moments.runSoon();
    end = moments.begin();
    end();
    moments.whenQuiet('b', () => ran.push('b'));
    expect(ran).toEqual(['a']);
    moments.cancel('b');
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual(['a']);
  });
});
