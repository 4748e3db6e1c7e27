/**
 * Debugging where the program runs: targets reached through an exec command that starts
 * `debugbridge agent` there (ssh to an sshd of the test's own; a PID and mount namespace whose
 * files sit at another path), through the real MCP client over stdio. Paths are given and read as
 * local ones; the pipe cut mid-session ends the target's sessions with nothing left running.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { VERSION } from '../../src/version.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { commandLine, descendants, waitGone } from '../support/processTree.js';
import { CLI, namespaceCommand, namespacesWork, packageOfVersion, pidNamespaceCommand, processesMentioning, SSHD, startSshd, type Sshd } from '../support/remoteTargets.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/e2e/remote/', import.meta.url));
const PROGRAMS = ['invoice.py', 'invoice.mjs'];

// Linux: the targets are made of Linux namespaces and Debian's OpenSSH server.
const run = process.platform === 'linux' && requireRuntime(
  'python with debugpy, sshd, ssh and unshare that can make PID and mount namespaces',
  hasCommand('/usr/bin/python3', ['-c', 'import debugpy']) && hasCommand(SSHD, ['-V']) && hasCommand('ssh', ['-V']) && namespacesWork(),
);

interface Frame {
  name: string;
  file?: string;
  line: number;
}
interface Wait {
  sessionId: string;
  state: string;
  status: 'stopped' | 'exited' | 'timeout';
  stop?: { reason: string; frame: Frame; locals?: { name: string; value: string }[] };
  exitCode?: number;
  breakpoints?: { verified: boolean; line: number }[];
}

describe.runIf(run)('remote targets', () => {
  const root = mkdtempSync(join(tmpdir(), 'dbb-remote-'));
  /** The program's files as the agent edits them here. */
  const local = join(root, 'code');
  /** The same files where ssh's far side has them. */
  const sshFar = join(root, 'box-srv');
  /** Where the namespace sees them (outside it, an empty folder). */
  const jailFar = join(root, 'jail-srv');
  const oldCli = join(root, 'old-package', 'dist', 'cli.js');
  let sshd: Sshd;
  let client: McpTestClient;

  beforeAll(async () => {
    for (const dir of [local, sshFar]) {
      mkdirSync(dir, { recursive: true });
      for (const name of PROGRAMS) copyFileSync(join(FIXTURES, name), join(dir, name));
    }
    sshd = await startSshd(join(root, 'sshd'));
    packageOfVersion(join(root, 'old-package'), '0.0.1-old');
    const targets = {
      box: { command: sshd.command(process.execPath, CLI, 'agent'), pathMappings: [{ local, remote: sshFar }] },
      jail: { command: namespaceCommand(local, jailFar), pathMappings: [{ local, remote: jailFar }] },
      old: { command: [process.execPath, oldCli, 'agent'] },
      pidns: { command: pidNamespaceCommand() },
    };
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: join(root, 'state'), DEBUGBRIDGE_TARGETS: JSON.stringify(targets) } });
  });
  afterAll(async () => {
    await client?.close();
    sshd?.stop();
  });
  afterEach(async () => {
    await stopActiveSessions(client);
  });

  const program = (name: string) => join(local, name);
  const bpLine = (name: string) => markerLine(program(name), 'BP:line_total');

  async function launchToBreakpoint(target: string, name: string): Promise<Wait> {
    const launch = await client.call<Wait>('session_launch', { program: program(name), target, breakpoints: [{ file: program(name), line: bpLine(name) }], waitForStop: true });
    expect(launch.isError, launch.text).toBe(false);
    return launch.structured;
  }

  describe.each([
    { target: 'box', how: 'ssh to 127.0.0.1' },
    { target: 'jail', how: 'a PID and mount namespace' },
  ])('on $target ($how)', ({ target }) => {
    it.each([
      { language: 'python', name: 'invoice.py', fn: 'line_total', caller: 'main', evaluated: '11.0', total: /total = 10\.0/ },
      { language: 'node', name: 'invoice.mjs', fn: 'lineTotal', caller: '', evaluated: '11', total: /total = (undefined → )?10 / },
    ])('$language: a local breakpoint binds there; stack, evaluate, step and continue to the exit, in local paths', async ({ name, fn, evaluated, total }) => {
      const stop = await launchToBreakpoint(target, name);
      expect(stop.breakpoints?.[0]).toMatchObject({ verified: true, line: bpLine(name) });
      expect(stop.stop).toMatchObject({ reason: 'breakpoint', frame: { name: fn, file: program(name), line: bpLine(name) } });

      const stack = await client.call<{ frames: Frame[] }>('inspect_stack', {});
      const files = stack.structured.frames.map((f) => f.file).filter((f): f is string => f !== undefined);
      expect(files[0]).toBe(program(name));
      expect(files.filter((f) => f.startsWith(sshFar) || f.startsWith(jailFar))).toEqual([]);

      const value = await client.call<{ value: string }>('inspect_evaluate', { expression: 'line.price * line.qty + 1' });
      expect(value.structured.value).toBe(evaluated);

      const over = await client.call<Wait>('execution_step', { kind: 'over' });
      expect(over.structured.stop?.frame).toMatchObject({ file: program(name), line: bpLine(name) + 1 });
      expect(over.text).toMatch(total);

      const second = await client.call<Wait>('execution_continue', {});
      expect(second.structured.stop?.frame).toMatchObject({ name: fn, line: bpLine(name) });
      await client.call('breakpoint_remove', { all: true });
      const end = await client.call<Wait>('execution_continue', {});
      expect(end.structured).toMatchObject({ status: 'exited', exitCode: 4 });

      const list = await client.call('session_list', {});
      expect(list.text).toContain(`on ${target}`);
    });
  });

  describe.runIf(process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined))('.NET', () => {
    it('in a PID namespace: ICorDebug runs beside the program, breakpoint, stack, evaluate, step, exit', async () => {
      const dll = buildFixture('hello');
      const { path: source, line: marked } = fixtureSource('hello', 'Program.cs');
      const line = marked('hello');
      const launch = await client.call<Wait>('session_launch', { program: dll, target: 'pidns', breakpoints: [{ file: source, line }], waitForStop: true });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { file: source, line } });
      const value = await client.call<{ value: string }>('inspect_evaluate', { expression: 'args.Length + 1' });
      expect(value.structured.value).toBe('1');
      const over = await client.call<Wait>('execution_step', { kind: 'over' });
      expect(over.structured.stop?.frame.line).toBe(line + 1);
      const end = await client.call<Wait>('execution_continue', {});
      expect(end.structured).toMatchObject({ status: 'exited', exitCode: 7 });
    });
  });

  it('debug_probe on a target: one row per hit, in local paths', async () => {
    const name = 'invoice.mjs';
    const probe = await client.call<{ status: string; exitCode?: number; hits: { stop: { frame: Frame }; values: { value?: string }[] }[] }>('debug_probe', {
      program: program(name),
      target: 'jail',
      breakpoints: [{ file: program(name), line: bpLine(name) }],
      expressions: ['line.sku'],
    });
    expect(probe.isError, probe.text).toBe(false);
    expect(probe.structured.hits.map((h) => h.values[0].value)).toEqual(['"b7-a"', '"b7-b"']);
    expect(probe.structured.hits[0].stop.frame.file).toBe(program(name));
    expect(probe.structured).toMatchObject({ status: 'exited', exitCode: 4 });
  });

  it('the namespace killed mid-session: its session fails saying so, nothing is left, and the target serves the next session', async () => {
    const { sessionId } = await launchToBreakpoint('jail', 'invoice.py');
    const unshare = descendants(client.pid!).find((pid) => commandLine(pid).startsWith('unshare'))!;
    const init = descendants(unshare)[0];
    const inside = [unshare, ...descendants(unshare)];
    process.kill(init, 'SIGKILL');

    const state = await waitForState(sessionId, 'failed');
    expect(state.text).toMatch(/connection to target "jail" was lost/);
    expect(await waitGone(inside, 10_000)).toEqual([]);
    expect(processesMentioning(jailFar)).toEqual([]);

    const again = await client.call<Wait>('session_launch', { program: program('invoice.mjs'), target: 'jail', waitForStop: true });
    expect(again.structured).toMatchObject({ status: 'exited', exitCode: 4 });
  });

  it('the ssh connection killed mid-session: the agent and the program end on the far side', async () => {
    const { sessionId } = await launchToBreakpoint('box', 'invoice.mjs');
    const diagnostics = await client.call<{ diagnostics: { engine: { details: { agent: { pid: number } } } } }>('session_diagnostics', { sessionId });
    const agent = diagnostics.structured.diagnostics.engine.details.agent.pid;
    const farSide = [agent, ...descendants(agent)];
    expect(farSide.some((pid) => commandLine(pid).includes(sshFar))).toBe(true);
    const ssh = descendants(client.pid!).find((pid) => commandLine(pid).startsWith('ssh'))!;
    process.kill(ssh, 'SIGKILL');

    const state = await waitForState(sessionId, 'failed');
    expect(state.text).toMatch(/connection to target "box" was lost/);
    expect(await waitGone(farSide, 10_000)).toEqual([]);
  });

  it('an agent of another version is refused, both versions named, and nothing of it stays', async () => {
    const launch = await client.call('session_launch', { program: program('invoice.py'), target: 'old' });
    expect(launch.isError).toBe(true);
    expect(launch.text).toContain('TARGET_VERSION_MISMATCH');
    expect(launch.text).toContain('0.0.1-old');
    expect(launch.text).toContain(VERSION);
    expect(await waitGone(processesMentioning(oldCli), 5_000)).toEqual([]);
  });

  it('an unknown target is refused with the names there are', async () => {
    const launch = await client.call('session_launch', { program: program('invoice.py'), target: 'nope' });
    expect(launch.isError).toBe(true);
    expect(launch.text).toMatch(/INVALID_ARGUMENT: No target "nope"\. Targets: box, jail, old, pidns\./);
  });

  async function waitForState(sessionId: string, state: string): Promise<{ text: string }> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const answer = await client.call<{ state: string }>('session_state', { sessionId });
      if (answer.structured.state === state || Date.now() > deadline) {
        expect(answer.structured.state, answer.text).toBe(state);
        return answer;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});
