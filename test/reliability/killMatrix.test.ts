/**
 * Kill -9 of the debuggee, of the Python adapter and of the server, the client going away and
 * SIGTERM, each at several moments of a session's life (starting, running, stopped, timing out,
 * restarting): every call still pending is answered when the server lives on, and 1 s later no
 * process the server started is left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendants } from '../support/processTree.js';
import { SCALE } from './support/scale.js';
import { aliveAfter, commandOf, fixture, isRunning, leftAfter, line, runPids, sleep, startServer, waitForProcess, type RunPids, type TestServer } from './support/server.js';

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
    isDebuggee: (cmd) => cmd.includes('--inspect') && cmd.includes('spin.js'),
  },
};
const MOMENTS: Moment[] = ['starting', 'running', 'stopped', 'timing out', 'restarting'];
const ACTIONS: Action[] = ['debuggee SIGKILL', 'adapter SIGKILL', 'server SIGKILL', 'client gone', 'server SIGTERM'];
/**
 * Variables the ready debuggee does not wait with: such a launch starts its program itself, and
 * that start is the moment 'starting' is about (a ready debuggee's program is up before the launch).
 */
const OWN_START = { DEBUGBRIDGE_TEST_OWN_START: '1' };
const HANG_TIMEOUT_MS = 4000;
/** Starts that a kill may leave waiting end within this. */
const START_TIMEOUT_MS = 5000;

interface Scenario {
  runtime: Runtime;
  moment: Moment;
  action: Action;
}

/**
 * The CI run's scenarios: one case of each kind — every moment once, every action once, each runtime
 * both with the server living on and with the server gone. `npm run test:reliability` runs every pair.
 */
const CI_SCENARIOS: Scenario[] = [
  { runtime: 'python', moment: 'starting', action: 'adapter SIGKILL' },
  { runtime: 'node', moment: 'running', action: 'debuggee SIGKILL' },
  { runtime: 'node', moment: 'stopped', action: 'client gone' },
  { runtime: 'node', moment: 'timing out', action: 'server SIGKILL' },
  { runtime: 'python', moment: 'restarting', action: 'server SIGTERM' },
];

/** Every pair with both runtimes (full run), or the CI run's cases of each kind. */
function scenarios(): Scenario[] {
  if (!SCALE.killEveryPair) return CI_SCENARIOS;
  // Node has no adapter process: its debuggee is the only one.
  return MOMENTS.flatMap((moment) =>
    ACTIONS.flatMap((action) => (action === 'adapter SIGKILL' ? ['python' as const] : (['python', 'node'] as const)).map((runtime) => ({ runtime, moment, action }))),
  );
}

/**
 * The session's program, other than `not`: the pid the server reports once the run started, or
 * before that (a program starting the normal way) the process whose command line names it.
 */
async function programOf(server: TestServer, runtime: Runtime, not?: number, ms = 15_000): Promise<number | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { pid } = await runPids(server);
    if (pid !== undefined && pid !== not && isRunning(pid)) return pid;
    const named = await waitForProcess(server, (cmd) => PROGRAMS[runtime].isDebuggee(cmd), 0);
    if (named !== undefined && named !== not) return named;
    if (Date.now() > deadline) return undefined;
    await sleep(15);
  }
}

/** The session's debugpy adapter, as the server reports it, once a launcher runs under it. */
async function adapterOf(server: TestServer, ms = 15_000): Promise<number | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { adapterPid } = await runPids(server);
    if (adapterPid !== undefined && descendants(adapterPid).some((pid) => commandOf(pid).includes('debugpy/launcher'))) return adapterPid;
    if (Date.now() > deadline) return undefined;
    await sleep(15);
  }
}

/** Brings a session to the moment; returns the calls still in flight and the runs it replaced. */
async function reach(server: TestServer, runtime: Runtime, moment: Moment): Promise<{ inFlight: Promise<unknown>[]; replaced: RunPids[] }> {
  const program = PROGRAMS[runtime];
  const path = fixture(program.path);
  const call = (tool: string, args: Record<string, unknown>) => server.client.call(tool, args, { timeoutMs: 60_000 });
  switch (moment) {
    case 'starting': {
      // A Python program killed before debugpy connects is waited for 15 s by debugpy; our timeout answers first.
      const launch = call('session_launch', { program: path, env: OWN_START, timeoutMs: START_TIMEOUT_MS });
      await waitForProcess(server, (cmd) => cmd.includes(program.path));
      return { inFlight: [launch], replaced: [] };
    }
    case 'running':
      await call('session_launch', { program: path });
      return { inFlight: [], replaced: [] };
    case 'stopped': {
      const r = await call('session_launch', { program: path, breakpoints: [{ file: path, line: line(program.path, 'tick') }], waitForStop: true });
      expect(r.structured.status, r.text).toBe('stopped');
      return { inFlight: [], replaced: [] };
    }
    case 'timing out': {
      const t0 = Date.now();
      const launch = call('session_launch', { program: path, env: program.hang, timeoutMs: HANG_TIMEOUT_MS });
      await waitForProcess(server, program.isDebuggee);
      // Just before the launch's timeout ends it.
      await sleep(Math.max(0, t0 + HANG_TIMEOUT_MS - 300 - Date.now()));
      return { inFlight: [launch], replaced: [] };
    }
    case 'restarting': {
      await call('session_launch', { program: path });
      const first = await runPids(server);
      const restart = call('session_restart', { timeoutMs: START_TIMEOUT_MS });
      // The new run's program.
      await programOf(server, runtime, first.pid);
      return { inFlight: [restart], replaced: [first] };
    }
  }
}

async function act(server: TestServer, runtime: Runtime, action: Action): Promise<void> {
  switch (action) {
    case 'debuggee SIGKILL': {
      const pid = await programOf(server, runtime);
      expect(pid, 'the debuggee').toBeDefined();
      process.kill(pid!, 'SIGKILL');
      return;
    }
    case 'adapter SIGKILL': {
      // The adapter of the session (the spare adapter and a ready debuggee's, if any, are others).
      const adapter = await adapterOf(server);
      expect(adapter, 'the adapter').toBeDefined();
      process.kill(adapter!, 'SIGKILL');
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
      const { inFlight, replaced } = await reach(server, runtime, moment);
      await act(server, runtime, action);
      // Every pending call is answered, and the server goes on serving.
      await Promise.all(inFlight);
      const list = await server.client.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
      for (const s of list.structured.sessions.filter((x) => ['initializing', 'running', 'stopped'].includes(x.state))) {
        await server.client.call('session_stop', { sessionId: s.sessionId });
      }
      const runs = [...replaced, await runPids(server)];
      server.watch.sample();
      // What the server readies ahead for the next launch may live on; every process of the session may not.
      const started = [...server.watch.seen].filter((pid) => !baseline.has(pid) || PROGRAMS[runtime].isDebuggee(commandOf(pid)));
      expect(await leftAfter(server, runs, started, 1000)).toEqual([]);
      expect(server.stderr()).not.toMatch(/uncaught|unhandled/i);
    });
  }
});

describe('the server killed, stopped or left at every moment of a session', () => {
  for (const { runtime, moment, action } of scenarios().filter((s) => !SERVER_LIVES.includes(s.action))) {
    it(`${runtime}, ${moment}: ${action}`, async () => {
      const server = await startServer();
      try {
        const { inFlight } = await reach(server, runtime, moment);
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
