/**
 * Many sessions at once, half Python and half Node, driven concurrently through one server: each
 * sees its own program's values, steps, and exits with its own code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALE } from './support/scale.js';
import { aliveAfter, fixture, line, startServer, type TestServer } from './support/server.js';

const PROGRAMS = ['reliability/python/echo.py', 'reliability/node/echo.js'];

interface Wait {
  sessionId: string;
  status: string;
  stop?: { frame: { line: number } };
  exitCode?: number;
}

describe('concurrent mixed sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${SCALE.concurrentSessions} sessions at once each see, step through and end their own run`, async () => {
    const call = <T>(tool: string, args: Record<string, unknown>) => server.client.call<T>(tool, args, { timeoutMs: 180_000 });
    const one = async (n: number) => {
      const path = PROGRAMS[n % 2];
      const program = fixture(path);
      const at = line(path, 'doubled');
      const launched = await call<Wait>('session_launch', { program, args: [String(n)], breakpoints: [{ file: program, line: at }], waitForStop: true, timeoutMs: 150_000 });
      expect(launched.structured.status, launched.text).toBe('stopped');
      const sessionId = launched.structured.sessionId;
      expect(launched.structured.stop?.frame.line).toBe(at);
      expect((await call<{ value: string }>('inspect_evaluate', { sessionId, expression: 'n' })).structured.value).toBe(String(n));
      const stepped = await call<Wait>('execution_step', { sessionId, kind: 'over', timeoutMs: 60_000 });
      expect(stepped.structured.status, stepped.text).toBe('stopped');
      expect((await call<{ value: string }>('inspect_evaluate', { sessionId, expression: 'doubled' })).structured.value).toBe(String(n * 2));
      const ended = await call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
      expect(ended.structured).toMatchObject({ status: 'exited', exitCode: n % 50 });
      expect((await call<{ output: string }>('session_output', { sessionId })).structured.output).toContain(`n=${n} doubled=${n * 2}`);
      return sessionId;
    };
    const ids = await Promise.all(Array.from({ length: SCALE.concurrentSessions }, (_, i) => one(i + 1)));
    expect(new Set(ids).size).toBe(SCALE.concurrentSessions);
    server.watch.sample();
    const programs = [...server.watch.seen].filter((pid) => pid !== server.pid);
    // The debuggees are gone; the adapters and launchers follow within a second.
    expect((await aliveAfter(programs, 1000)).filter((p) => /echo\.(py|js)/.test(p))).toEqual([]);
    expect(server.stderr()).not.toMatch(/uncaught|unhandled/i);
  }, SCALE.longTestTimeoutMs);
});
