/**
 * The server killed, stopped or left while debug_test starts a run, for each kind of runner: the
 * runner as the debuggee (jest), a runner beside the debugger (vitest, `dotnet test` building its
 * project), a Microsoft.Testing.Platform program being built, Python's runners under debugpy, and
 * the listing a run that found no test makes for the closest names. A second later no process the
 * server started is left: not the runner, nor what it started (a build's nodes, a test host).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installNodeTestFixture, NODE_TEST_FIXTURE } from '../support/nodeTestFixture.js';
import { dotnetRuns, project } from '../support/dotnetTestFixtures.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { aliveAfter, fixture, sleep, startServer, waitForProcess, type TestServer } from './support/server.js';

type Action = 'server SIGKILL' | 'server SIGTERM' | 'client gone';

interface Scenario {
  runner: string;
  args: Record<string, unknown>;
  /** The process whose start is the moment to act (the runner at work, mid-launch). */
  moment: (cmd: string) => boolean;
  /** How long after it appears: a build under way, a runner loading its tests. */
  settleMs: number;
  action: Action;
  runs: boolean;
}

const node = (name: string) => join(NODE_TEST_FIXTURE, name);
const python = (name: string) => fixture(join('testing/python', name));
const pythonRuns = requireRuntime('python3 with debugpy and pytest', hasCommand('/usr/bin/python3', ['-c', 'import debugpy, pytest']));
const debuggee = (runs: string) => (cmd: string) => cmd.includes('--connect') && cmd.includes(runs);

const SCENARIOS: Scenario[] = [
  { runner: 'jest, the debuggee', args: { path: node('calc.jest.test.js') }, moment: (cmd) => cmd.includes('--inspect') && cmd.includes('jest.js'), settleMs: 300, action: 'server SIGKILL', runs: true },
  {
    runner: 'jest, listing the names a run did not find',
    args: { path: node('calc.jest.test.js'), test: 'no such test' },
    moment: (cmd) => cmd.includes('jest.js') && cmd.includes('--json'),
    settleMs: 300,
    action: 'server SIGKILL',
    runs: true,
  },
  { runner: 'vitest, beside the debugger', args: { path: node('calc.vitest.test.mjs') }, moment: (cmd) => cmd.includes('vitest.mjs') && cmd.includes('--inspect-brk'), settleMs: 500, action: 'client gone', runs: true },
  { runner: 'pytest', args: { path: python('test_calc.py') }, moment: debuggee('run_module.py pytest'), settleMs: 300, action: 'server SIGTERM', runs: pythonRuns },
  { runner: 'unittest', args: { path: python('test_calc_unittest.py'), framework: 'unittest' }, moment: debuggee('run_module.py'), settleMs: 300, action: 'server SIGKILL', runs: pythonRuns },
  {
    runner: 'dotnet test (VSTest), building',
    args: { path: project('XunitTests'), timeoutMs: 120_000 },
    moment: (cmd) => cmd.includes('dotnet') && cmd.includes(' test ') && cmd.includes('XunitTests'),
    settleMs: 1500,
    action: 'server SIGKILL',
    runs: dotnetRuns,
  },
  {
    runner: 'Microsoft.Testing.Platform, building',
    args: { path: project('MstestTests'), timeoutMs: 120_000 },
    moment: (cmd) => cmd.includes('dotnet') && cmd.includes(' build ') && cmd.includes('MstestTests'),
    settleMs: 1500,
    action: 'server SIGKILL',
    runs: dotnetRuns,
  },
];

async function act(server: TestServer, action: Action): Promise<void> {
  if (action === 'client gone') await server.client.close();
  else process.kill(server.pid, action === 'server SIGKILL' ? 'SIGKILL' : 'SIGTERM');
}

describe('debug_test: the server killed, stopped or left while a run starts', () => {
  for (const scenario of SCENARIOS) {
    it.runIf(scenario.runs)(`${scenario.runner}: ${scenario.action}`, async () => {
      if (scenario.args.path === node('calc.jest.test.js') || scenario.args.path === node('calc.vitest.test.mjs')) installNodeTestFixture();
      const server = await startServer();
      try {
        const run = server.client.call('debug_test', scenario.args, { timeoutMs: 180_000 });
        // The call ends with the connection: that is the point.
        run.catch(() => undefined);
        const runner = await waitForProcess(server, scenario.moment, 60_000);
        expect(runner, `the runner of ${scenario.runner}`).toBeDefined();
        await sleep(scenario.settleMs);
        server.watch.sample();
        await act(server, scenario.action);
        server.watch.sample();
        expect(await aliveAfter(server.watch.seen, 1000)).toEqual([]);
      } finally {
        await server.close();
      }
    }, 180_000);
  }
});
