/**
 * Issue 9, failure 3: concurrent calls that replace a session's run go one at a time; none leaks
 * the processes of the run it replaced.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describe as describeProcesses, fixture, isRunning, leftAfter, runPids, startServer, type TestServer } from './support/server.js';

const RUNTIMES = [
  { name: 'python', program: fixture('reliability/python/spin.py') },
  { name: 'node', program: fixture('reliability/node/spin.js') },
];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('concurrent restarts of one session', () => {
  for (const runtime of RUNTIMES) {
    it(`${runtime.name}: run in turn, and only the last run's processes are left`, async () => {
      server = await startServer();
      const baseline = new Set(server.watch.seen);
      const launched = await server.client.call<{ pid: number }>('session_launch', { program: runtime.program });
      expect(launched.isError, launched.text).toBe(false);
      const runs = [await runPids(server)];
      const restarts = await Promise.all([1, 2, 3].map(() => server!.client.call<{ state: string; pid: number }>('session_restart', {})));
      for (const r of restarts) expect(r.isError, r.text).toBe(false);
      const list = await server.client.call<{ sessions: { state: string }[] }>('session_list');
      expect(list.structured.sessions.map((s) => s.state)).toEqual(['running']);
      // Each run's program, as its answer named it: one run after another, only the last one's runs.
      const programs = [launched, ...restarts].map((r) => r.structured.pid);
      expect(new Set(programs).size).toBe(4);
      const last = await runPids(server);
      expect(describeProcesses(programs.filter(isRunning))).toEqual(describeProcesses([last.pid!]));
      runs.push(last);
      await server.client.call('session_stop', {});
      const started = [...server.watch.seen].filter((pid) => !baseline.has(pid));
      expect(await leftAfter(server, runs, [...programs, ...started], 1000)).toEqual([]);
    });
  }
});
