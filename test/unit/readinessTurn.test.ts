/**
 * When readying may run: after the client's calls are quiet, except the runtime a waiting launch
 * names (the transport's view of the calls is pure bookkeeping, so it is driven here by hand).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineRegistry } from '../../src/core/engineRegistry.js';
import { Readiness } from '../../src/core/readiness.js';
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
