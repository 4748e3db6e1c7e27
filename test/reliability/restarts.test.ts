/**
 * Issue 9, failure 3: concurrent calls that replace a session's run go one at a time; none leaks
 * the processes of the run it replaced.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { aliveAfter, commandOf, describe as describeProcesses, fixture, isRunning, startServer, type TestServer } from './support/server.js';

const RUNTIMES = [
  { name: 'python', program: fixture('reliability/python/spin.py'), isDebuggee: (cmd: string) => cmd.includes('--connect') && cmd.includes('spin.py') },
  { name: 'node', program: fixture('reliability/node/spin.js'), isDebuggee: (cmd: string) => cmd.includes('--inspect-brk') && cmd.includes('spin.js') },
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
      const launched = await server.client.call('session_launch', { program: runtime.program });
      expect(launched.isError, launched.text).toBe(false);
      const restarts = await Promise.all([1, 2, 3].map(() => server!.client.call<{ state: string }>('session_restart', {})));
      for (const r of restarts) expect(r.isError, r.text).toBe(false);
      const list = await server.client.call<{ sessions: { state: string }[] }>('session_list');
      expect(list.structured.sessions.map((s) => s.state)).toEqual(['running']);
      server.watch.sample();
      const debuggees = [...server.watch.seen].filter((pid) => isRunning(pid) && runtime.isDebuggee(commandOf(pid)));
      expect(describeProcesses(debuggees)).toHaveLength(1);
      await server.client.call('session_stop', {});
      const own = new Set(server.watch.seen);
      expect(await aliveAfter([...own].filter((pid) => runtime.isDebuggee(commandOf(pid)) || commandOf(pid).includes(runtime.program)), 1000)).toEqual([]);
    });
  }
});
