/**
 * `debugbridge call` and `debugbridge daemon` from a shell: every command is its own process; the
 * daemon that keeps the sessions between them starts on the first call, answers the same text as an
 * MCP client gets, and is gone — with every process it started — after `daemon stop`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { CLI_PATH, McpTestClient } from '../../src/demo/mcpClient.js';
import { descendants, isAlive, waitGone } from '../support/processTree.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/e2e/python/', import.meta.url));
const program = join(FIXTURES, 'workflow.py');
const line = (marker: string) => markerLine(program, `BP:${marker}`);
const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));
// Process checks read /proc.
const onLinux = process.platform === 'linux';
/**
 * What a test may take before it counts as hung: each runs many CLI processes (the workflow twelve,
 * one after the other), and the slowest took 16 s at load 18 on 2 cores.
 */
const BUDGET_MS = 180_000;

interface Shell {
  code: number;
  stdout: string;
  stderr: string;
}

function shellEnv(runtimeDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, DEBUGBRIDGE_RUNTIME_DIR: runtimeDir, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-shell-state-')), ...extra };
}

/**
 * One shell command: `debugbridge <args…>` in the fixtures folder (or `cwd`), in a process session of
 * its own (no controlling terminal), as an agent's shell tool runs it.
 */
async function debugbridge(env: NodeJS.ProcessEnv, ...words: (string | { cwd: string })[]): Promise<Shell> {
  const args = words.filter((w): w is string => typeof w === 'string');
  const cwd = words.find((w): w is { cwd: string } => typeof w !== 'string')?.cwd ?? FIXTURES;
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Live `debugbridge daemon run` processes serving this runtime folder. */
function daemonsOf(runtimeDir: string): number[] {
  const found = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && isAlive(Number(name)))
    .filter((name) => {
      try {
        const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
        return cmdline.includes('daemon\0run') && readFileSync(`/proc/${name}/environ`, 'utf8').includes(`DEBUGBRIDGE_RUNTIME_DIR=${runtimeDir}\0`);
      } catch {
        return false;
      }
    })
    .map(Number);
  // A process a daemon has just forked (its Python adapter) has the daemon's command line until it runs its own program.
  const forked = new Set(found.flatMap((pid) => descendants(pid)));
  return found.filter((pid) => !forked.has(pid));
}

async function daemonPid(env: NodeJS.ProcessEnv): Promise<number> {
  const status = await debugbridge(env, 'daemon', 'status');
  expect(status.code, status.stderr).toBe(0);
  return Number(/\(pid (\d+)\)/.exec(status.stdout)![1]);
}

/**
 * Three commands at the same moment, each of which starts a daemon when none answers: they must all
 * reach the same daemon, and every other daemon started for them must be gone when they answer
 * (each waits for its own). Answers its pid.
 */
async function startAtOnce(env: NodeJS.ProcessEnv, runtimeDir: string): Promise<number> {
  const commands = await Promise.all([debugbridge(env, 'daemon', 'start'), debugbridge(env, 'call', 'session_list'), debugbridge(env, 'daemon', 'start')]);
  for (const c of commands) expect(c.code, c.stderr).toBe(0);
  const reached = [commands[0], commands[2]].map((c) => Number(/\(pid (\d+)\)/.exec(c.stdout)?.[1]));
  expect(reached[0]).toBe(reached[1]);
  const [winner] = reached;
  expect(daemonsOf(runtimeDir)).toEqual([winner]);
  expect(await daemonPid(env)).toBe(winner);
  return winner;
}

describe.runIf(onLinux && requireRuntime('python with debugpy', hasDebugpy))('debugbridge call from a shell (python)', { timeout: BUDGET_MS }, () => {
  const runtimeDir = mkdtempSync(join(tmpdir(), 'dbb-shell-run-'));
  const env = shellEnv(runtimeDir);
  afterAll(async () => {
    await debugbridge(env, 'daemon', 'stop');
  });

  it('runs a whole workflow across separate commands, the daemon started on the first call', async () => {
    expect((await debugbridge(env, 'daemon', 'status')).code).toBe(1);

    // Relative paths are the shell's: the command runs in the fixtures folder.
    const launch = await debugbridge(env, 'call', 'session_launch', '--program', 'workflow.py', '--breakpoints', `workflow.py:${line('line_total')}`, '--wait-for-stop');
    expect(launch.code, launch.stderr).toBe(0);
    expect(launch.stdout).toMatch(/Stopped at breakpoint #1 in line_total \(workflow\.py:\d+\)/);

    const pid = await daemonPid(env);
    expect(statSync(runtimeDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(runtimeDir, 'daemon.sock')).mode & 0o777).toBe(0o600);

    const stack = await debugbridge(env, 'call', 'inspect_stack');
    expect(stack.stdout).toMatch(/#0 line_total \(workflow\.py:\d+\)\n#1 compute_total/);
    const variables = await debugbridge(env, 'call', 'inspect_variables', '--path', 'item');
    expect(variables.stdout).toMatch(/'price' = 2 \(int\)/);
    const step = await debugbridge(env, 'call', 'execution_step', '--kind', 'over');
    expect(step.stdout).toMatch(new RegExp(`Stepped to line_total \\(workflow\\.py:${line('line_total') + 1}\\)`));
    const evaluated = await debugbridge(env, 'call', 'inspect_evaluate', '--expression', 'subtotal * 2', '--json');
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ value: '12', type: 'int' });

    const wrong = await debugbridge(env, 'call', 'inspect_evaluate', '--expression', 'subtotal +');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^EVALUATION_FAILED: /);
    const usage = await debugbridge(env, 'call', 'inspect_evaluate', '--expresion', 'x');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^INVALID_ARGUMENT: inspect_evaluate has no argument --expresion\. It takes: .*--expression/);

    const stop = await debugbridge(env, 'call', 'session_stop');
    expect(stop.code).toBe(0);
    expect(stop.stdout).toMatch(/the session ended the program by terminating it/);
    expect(await daemonPid(env)).toBe(pid);
  });

  it('answers the same text an MCP client reads', async () => {
    const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-shell-mcp-')) } });
    try {
      const calls: [string, Record<string, unknown>, string[]][] = [
        ['languages_list', {}, []],
        ['inspect_source', { file: program, line: line('accumulate') }, ['--file', program, '--line', String(line('accumulate'))]],
      ];
      for (const [tool, args, words] of calls) {
        const mcp = await client.call(tool, args);
        const shell = await debugbridge(env, 'call', tool, ...words);
        expect(mcp.isError).toBe(false);
        expect(shell.stdout).toBe(`${mcp.text}\n`);
      }
    } finally {
      await client.close();
    }
  });

  it('keeps two clients of the same user apart: each sees and drives its own sessions, a whole id reaches the other\'s', async () => {
    const alpha = { ...env, DEBUGBRIDGE_CLIENT: 'alpha' };
    const beta = { ...env, DEBUGBRIDGE_CLIENT: 'beta' };
    const a = await debugbridge(alpha, 'call', 'session_launch', '--program', 'workflow.py', '--breakpoints', `workflow.py:${line('line_total')}`, '--wait-for-stop');
    const b = await debugbridge(beta, 'call', 'session_launch', '--program', 'workflow.py', '--breakpoints', `workflow.py:${line('accumulate')}`, '--wait-for-stop');
    expect(a.stdout).toMatch(/^\[python-1\] Launched/);
    expect(b.stdout).toMatch(/^\[python-1\] Launched/);

    // Each lists only its own, and a call without sessionId drives its own.
    const listA = await debugbridge(alpha, 'call', 'session_list');
    expect(listA.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^python-1 stopped python .*workflow\.py$/)]);
    expect((await debugbridge(alpha, 'call', 'inspect_stack')).stdout).toMatch(/#0 line_total/);
    expect((await debugbridge(beta, 'call', 'inspect_stack')).stdout).toMatch(/#0 compute_total/);
    expect((await debugbridge(beta, 'call', 'inspect_stack', '--session-id', 'python-1')).stdout).toMatch(/#0 compute_total/);

    // A third client sees nothing and is told of no one else's session.
    const gamma = { ...env, DEBUGBRIDGE_CLIENT: 'gamma' };
    expect((await debugbridge(gamma, 'call', 'session_list')).stdout).toBe('No sessions. Start one with session_launch.\n');
    const guess = await debugbridge(gamma, 'call', 'session_state', '--session-id', 'python-1');
    expect(guess.stderr).toBe('SESSION_NOT_FOUND: No session "python-1".\nNext: Start one with session_launch.\n');

    // The whole id reaches another client's session on purpose; daemon status lists them.
    const status = await debugbridge(alpha, 'daemon', 'status');
    expect(status.stdout).toContain('this shell is client env:alpha (ids end @alpha for other clients)');
    expect(status.stdout).toMatch(/client env:beta:\n {2}python-1@beta stopped python /);
    expect((await debugbridge(alpha, 'call', 'inspect_stack', '--session-id', 'python-1@beta')).stdout).toMatch(/#0 compute_total/);
    expect((await debugbridge(alpha, 'call', 'session_stop', '--session-id', 'python-1@beta')).code).toBe(0);
    expect((await debugbridge(beta, 'call', 'session_state')).stdout).toMatch(/terminated|ended/);
    expect((await debugbridge(alpha, 'call', 'session_state')).stdout).toMatch(/Stopped at breakpoint #1 in line_total/);
    await debugbridge(alpha, 'call', 'session_stop');
  });

  it('without DEBUGBRIDGE_CLIENT and without a terminal, the project folder is the client', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'dbb-shell-other-'));
    writeFileSync(join(elsewhere, 'tiny.py'), 'print("tiny")\n');
    const { DEBUGBRIDGE_CLIENT: _, ...plain } = env;
    const launched = await debugbridge(plain, 'call', 'session_launch', '--program', 'workflow.py', '--breakpoints', `workflow.py:${line('line_total')}`, '--wait-for-stop');
    expect(launched.code, launched.stderr).toBe(0);
    // The same folder, a subfolder of the same repository: the same client.
    expect((await debugbridge(plain, 'call', 'session_list')).stdout).toMatch(/^python-\d+ stopped/);
    expect((await debugbridge(plain, 'call', 'session_list', { cwd: join(FIXTURES, '..') })).stdout).toMatch(/^python-\d+ stopped/);
    // Another folder: another client.
    expect((await debugbridge(plain, 'call', 'session_list', { cwd: elsewhere })).stdout).toBe('No sessions. Start one with session_launch.\n');
    await debugbridge(plain, 'call', 'session_stop');
  });

  it('takes a value as written: lists, brackets and quotes', async () => {
    await debugbridge(env, 'call', 'session_launch', '--program', 'workflow.py', '--breakpoints', `workflow.py:${line('line_total')}`, '--wait-for-stop');
    const evaluated = await debugbridge(env, 'call', 'inspect_evaluate', '--expressions', 'sorted([85.18, 56.34])', '--expressions', 'item["qty"]', '--expressions', '"a,b".split(",")', '--expressions', "'x' * 2");
    expect(evaluated.stderr).toBe('');
    expect(evaluated.stdout).toBe([
      '[python-1] sorted([85.18, 56.34]) = [56.34, 85.18] (list)',
      'item["qty"] = 3 (int)',
      `"a,b".split(",") = ['a', 'b'] (list)`,
      "'x' * 2 = 'xx' (str)",
      '',
    ].join('\n').replace('python-1', /\[(python-\d+)\]/.exec(evaluated.stdout)![1]));
    const one = await debugbridge(env, 'call', 'inspect_evaluate', '--expression', '[1, 2][::-1]');
    expect(one.stdout).toMatch(/\[1, 2\]\[::-1\] = \[2, 1\] \(list\)/);
    await debugbridge(env, 'call', 'session_stop');
  });

  it('--help shows the fields of nested arguments with their types, an example, and how values are read', async () => {
    const help = await debugbridge(env, 'call', 'session_launch', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--breakpoints <object\[\]> \(repeatable\)\n +\{ file\?: string, line\?: integer, column\?: integer, function\?: string, condition\?: string, hitCondition\?: string, logMessage\?: string, trace\?: \(string\|object\)\[\], maxHits\?: integer, enabled\?: boolean \}\n +e\.g\. --breakpoints '\{"file":"app\.py","line":12,"condition":"total > 100"\}'/);
    expect(help.stdout).toContain('Values are taken as written');
    expect((await debugbridge(env, 'call', 'breakpoint_set', '--help')).stdout).toMatch(/--trace <\(string\|object\)\[\]> \(repeatable\)\n +\{ expression: string, frameIndex\?: integer \}/);
  });

  it('answers languages_list in a line per runtime', async () => {
    const short = await debugbridge(env, 'call', 'languages_list');
    const lines = short.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^python: \S*python\S* \(Python [\d.]+, debugpy [^)]+\)$/);
    expect(lines[3]).toBe('(languages_list {"details":true}: what each engine can do)');
    expect(short.stdout.length).toBeLessThan(600);
    expect((await debugbridge(env, 'call', 'languages_list', '--details')).stdout).toMatch(/python \(Python \(debugpy\)\): available.*\n {2}can: conditionalBreakpoints/);
  });

  it('ends the sessions it holds, their programs and itself on daemon stop', async () => {
    const launch = await debugbridge(env, 'call', 'session_launch', '--program', 'workflow.py', '--breakpoints', `workflow.py:${line('line_total')}`, '--wait-for-stop', '--json');
    expect(launch.code, launch.stderr).toBe(0);
    const debuggee = (JSON.parse(launch.stdout) as { pid: number }).pid;
    const daemon = await daemonPid(env);
    const processes = [daemon, ...descendants(daemon)];
    expect(processes).toContain(debuggee);

    const stopped = await debugbridge(env, 'daemon', 'stop');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/stopped \(pid \d+; ended 1 running session\)/);
    expect(isAlive(daemon)).toBe(false);
    expect(await waitGone(processes, 15_000)).toEqual([]);
    expect(existsSync(join(runtimeDir, 'daemon.sock'))).toBe(false);
    expect((await debugbridge(env, 'daemon', 'status')).code).toBe(1);
  });
});

describe.runIf(onLinux)('debugbridge daemon', { timeout: BUDGET_MS }, () => {
  it('ends by itself after its idle time without a client', async () => {
    // Long enough for `daemon start` to connect to the daemon it started, even on a busy machine.
    const env = shellEnv(mkdtempSync(join(tmpdir(), 'dbb-shell-idle-')), { DEBUGBRIDGE_DAEMON_IDLE_MS: '3000' });
    const started = await debugbridge(env, 'daemon', 'start');
    expect(started.stdout).toMatch(/running \(pid \d+\)/);
    const pid = Number(/\(pid (\d+)\)/.exec(started.stdout)![1]);
    expect(await waitGone([pid], 30_000)).toEqual([]);
    expect((await debugbridge(env, 'daemon', 'status')).code).toBe(1);
  });

  it('starts once for commands that come at the same moment, and again after being killed', async () => {
    const runtimeDir = mkdtempSync(join(tmpdir(), 'dbb-shell-race-'));
    const env = shellEnv(runtimeDir);
    try {
      const first = await startAtOnce(env, runtimeDir);

      process.kill(first, 'SIGKILL');
      expect(await waitGone([first], 15_000)).toEqual([]);
      expect(existsSync(join(runtimeDir, 'daemon.sock'))).toBe(true); // left behind by the killed daemon
      const second = await startAtOnce(env, runtimeDir);

      // Killed while it held the startup lock: the lock names a process that is gone.
      process.kill(second, 'SIGKILL');
      expect(await waitGone([second], 15_000)).toEqual([]);
      mkdirSync(join(runtimeDir, 'daemon.lock'));
      writeFileSync(join(runtimeDir, 'daemon.lock', `${second}.0`), '');
      await startAtOnce(env, runtimeDir);
      expect(readdirSync(runtimeDir).filter((name) => name.startsWith('daemon.lock'))).toEqual([]);
    } finally {
      await debugbridge(env, 'daemon', 'stop');
    }
  });

  it('says how it is used when the action is missing or unknown', async () => {
    const env = shellEnv(mkdtempSync(join(tmpdir(), 'dbb-shell-usage-')));
    const wrong = await debugbridge(env, 'daemon', 'restart');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/unknown action "restart"[\s\S]*daemon start\|stop\|status/);
  });
});
