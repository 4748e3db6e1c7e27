/**
 * Kill -9 of the debuggee, of the Python adapter and of the server, the client going away and
 * SIGTERM, each at several moments of a session's life (starting, running, stopped, timing out,
 * restarting): every call still pending is answered when the server lives on, and 1 s later no
 * process the server started is left.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALE } from './support/scale.js';
import { aliveAfter, commandOf, fixture, isRunning, line, sleep, startServer, type TestServer } from './support/server.js';

type Runtime = 'python' | 'node';
type Moment = 'starting' | 'running' | 'stopped' | 'timing out' | 'restarting';
type Action = 'debuggee SIGKILL' | 'adapter SIGKILL' | 'server SIGKILL' | 'client gone' | 'server SIGTERM';

const PROGRAMS: Record<Runtime, { path: string; hang: Record<string, string>; isDebuggee: (cmd: string) => boolean }> = {
  python: {
    path: 'reliability/python/spin.py',
    hang: { PYTHONPATH: fixture('reliability/python/hang_site') },
    isDebuggee: (cmd) => cmd.includes('--connect') && cmd.includes('spin.py'),
  },
  node: {
    path: 'reliability/node/spin.js',
    hang: { NODE_OPTIONS: `--require ${fixture('reliability/node/hang_preload.js')}` },
    isDebuggee: (cmd) => cmd.includes('--inspect-brk') && cmd.includes('spin.js'),
  },
};
const MOMENTS: Moment[] = ['starting', 'running', 'stopped', 'timing out', 'restarting'];
const ACTIONS: Action[] = ['debuggee SIGKILL', 'adapter SIGKILL', 'server SIGKILL', 'client gone', 'server SIGTERM'];
const HANG_TIMEOUT_MS = 4000;
/** Starts that a kill may leave waiting end within this. */
const START_TIMEOUT_MS = 5000;

/** Every pair, with both runtimes (full run) or one runtime each, alternating (CI run). */
function scenarios(): { runtime: Runtime; moment: Moment; action: Action }[] {
  const out: { runtime: Runtime; moment: Moment; action: Action }[] = [];
  let turn = 0;
  for (const moment of MOMENTS) {
    for (const action of ACTIONS) {
      const runtimes: Runtime[] = SCALE.killBothRuntimes ? ['python', 'node'] : [turn++ % 2 ? 'node' : 'python'];
      for (const runtime of runtimes) {
        // Node has no adapter process: its debuggee is the only one.
        out.push({ runtime: action === 'adapter SIGKILL' ? 'python' : runtime, moment, action });
      }
    }
  }
  return out.filter((s, i, all) => all.findIndex((o) => o.runtime === s.runtime && o.moment === s.moment && o.action === s.action) === i);
}

/** Waits for a process of the server's tree that matches, up to `ms`. */
async function waitForProcess(server: TestServer, matches: (cmd: string) => boolean, ms = 15_000): Promise<number | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    server.watch.sample();
    const found = [...server.watch.seen].find((pid) => isRunning(pid) && matches(commandOf(pid)));
    if (found || Date.now() > deadline) return found;
    await sleep(15);
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Brings a session to the moment; returns the calls still in flight. */
async function reach(server: TestServer, runtime: Runtime, moment: Moment): Promise<Promise<unknown>[]> {
  const program = PROGRAMS[runtime];
  const path = fixture(program.path);
  const call = (tool: string, args: Record<string, unknown>) => server.client.call(tool, args, { timeoutMs: 60_000 });
  switch (moment) {
    case 'starting': {
      // A Python program killed before debugpy connects is waited for 15 s by debugpy; our timeout answers first.
      const launch = call('session_launch', { program: path, timeoutMs: START_TIMEOUT_MS });
      await waitForProcess(server, (cmd) => cmd.includes(program.path));
      return [launch];
    }
    case 'running':
      await call('session_launch', { program: path });
      return [];
    case 'stopped': {
      const r = await call('session_launch', { program: path, breakpoints: [{ file: path, line: line(program.path, 'tick') }], waitForStop: true });
      expect(r.structured.status, r.text).toBe('stopped');
      return [];
    }
    case 'timing out': {
      const t0 = Date.now();
      const launch = call('session_launch', { program: path, env: program.hang, timeoutMs: HANG_TIMEOUT_MS });
      await waitForProcess(server, program.isDebuggee);
      // Just before the launch's timeout ends it.
      await sleep(Math.max(0, t0 + HANG_TIMEOUT_MS - 300 - Date.now()));
      return [launch];
    }
    case 'restarting': {
      await call('session_launch', { program: path });
      const first = await waitForProcess(server, program.isDebuggee);
      const restart = call('session_restart', { timeoutMs: START_TIMEOUT_MS });
      await waitForProcess(server, (cmd) => program.isDebuggee(cmd), 15_000).then(async () => {
        // The new run's debuggee, once the old one is gone.
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline && (await waitForProcess(server, program.isDebuggee, 0)) === first) await sleep(10);
      });
      return [restart];
    }
  }
}

async function act(server: TestServer, runtime: Runtime, action: Action): Promise<void> {
  switch (action) {
    case 'debuggee SIGKILL': {
      const pid = await waitForProcess(server, PROGRAMS[runtime].isDebuggee);
      expect(pid, 'the debuggee').toBeDefined();
      process.kill(pid!, 'SIGKILL');
      return;
    }
    case 'adapter SIGKILL': {
      // The adapter of the session: the parent of its launcher (the spare adapter, if any, is another).
      const launcher = await waitForProcess(server, (cmd) => cmd.includes('debugpy/launcher') && cmd.includes(PROGRAMS.python.path));
      expect(launcher, 'the launcher').toBeDefined();
      process.kill(parentOf(launcher!), 'SIGKILL');
      return;
    }
    case 'server SIGKILL':
      process.kill(server.pid, 'SIGKILL');
      return;
    case 'server SIGTERM':
      process.kill(server.pid, 'SIGTERM');
      return;
    case 'client gone':
      await server.client.close();
  }
}

const SERVER_LIVES: Action[] = ['debuggee SIGKILL', 'adapter SIGKILL'];

describe('kills at every moment of a session, the server living on', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  for (const { runtime, moment, action } of scenarios().filter((s) => SERVER_LIVES.includes(s.action))) {
    it(`${runtime}, ${moment}: ${action}`, async () => {
      server.watch.sample();
      const baseline = new Set(server.watch.seen);
      const inFlight = await reach(server, runtime, moment);
      await act(server, runtime, action);
      // Every pending call is answered, and the server goes on serving.
      await Promise.all(inFlight);
      const list = await server.client.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
      for (const s of list.structured.sessions.filter((x) => ['initializing', 'running', 'stopped'].includes(x.state))) {
        await server.client.call('session_stop', { sessionId: s.sessionId });
      }
      server.watch.sample();
      // The server's spare adapter, readied before, may live on; every process of the session may not.
      const ours = [...server.watch.seen].filter((pid) => !baseline.has(pid) || PROGRAMS[runtime].isDebuggee(commandOf(pid)));
      expect(await aliveAfter(ours, 1000)).toEqual([]);
      expect(server.stderr()).not.toMatch(/uncaught|unhandled/i);
    });
  }
});

describe('the server killed, stopped or left at every moment of a session', () => {
  for (const { runtime, moment, action } of scenarios().filter((s) => !SERVER_LIVES.includes(s.action))) {
    it(`${runtime}, ${moment}: ${action}`, async () => {
      const server = await startServer();
      try {
        const inFlight = await reach(server, runtime, moment);
        // Calls in flight end with the connection: that is the point.
        for (const call of inFlight) call.catch(() => undefined);
        await act(server, runtime, action);
        server.watch.sample();
        expect(await aliveAfter(server.watch.seen, 1000)).toEqual([]);
      } finally {
        await server.close();
      }
    });
  }
});
