/**
 * The ready debuggee through the real MCP server: a program it runs sees what a plain
 * `python3 prog.py` run sees, launches it cannot serve take the normal path, breakpoints are armed
 * before the first line, and no ready process outlives the server.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { commandLine, descendants, waitGone } from '../support/processTree.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const PYTHON = '/usr/bin/python3';
const FIXTURES = fileURLToPath(new URL('../fixtures/e2e/python/', import.meta.url));
const facts = join(FIXTURES, 'facts.py');
const onlyLine = join(FIXTURES, 'only_line.py');
const crash = join(FIXTURES, 'crash.py');
/** What debugpy adds to a program's environment, ready debuggee or not, and what differs between the test's servers. */
const DEBUGGER_ADDED = ['PYTHONUNBUFFERED', 'PYTHONIOENCODING', 'PYDEVD_USE_FRAME_EVAL'];
const NOT_COMPARED = ['PYTHONUNBUFFERED', 'PYTHONIOENCODING', 'PYDEVD_USE_FRAME_EVAL', 'DEBUGBRIDGE_STATE_DIR', 'DEBUGBRIDGE_READY_DEBUGGEE'];

const run = requireRuntime('python with debugpy', hasCommand(PYTHON, ['-c', 'import debugpy']));

interface Started {
  sessionId: string;
  status?: string;
  exitCode?: number;
  outputTail?: string;
  stop?: { reason: string; frame: { file?: string; line: number } };
}
type Facts = Record<string, unknown> & { env: Record<string, string> };

const scratch = mkdtempSync(join(tmpdir(), 'dbb-ready-'));
// A Python project's folder: the server readies Python only where Python is in play.
writeFileSync(join(scratch, 'pyproject.toml'), '[project]\nname = "scratch"\n');
const serverEnv = (extra: Record<string, string> = {}) => ({ DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(scratch, 'state-')), ...extra });
const clients: McpTestClient[] = [];

/** A server in a Python project's folder; unless ready debuggees are off, once its first one is up. */
async function server(extra: Record<string, string> = {}): Promise<McpTestClient> {
  const client = await McpTestClient.start({ env: serverEnv(extra), cwd: scratch });
  clients.push(client);
  if (extra.DEBUGBRIDGE_READY_DEBUGGEE !== '0') await readyProcesses(client);
  return client;
}

async function startedAs(client: McpTestClient, sessionId: string): Promise<{ start: string; startNote?: string }> {
  const d = await client.call<{ diagnostics: { engine: { details: { start: string; startNote?: string } } } }>('session_diagnostics', { sessionId });
  const { start, startNote } = d.structured.diagnostics.engine.details;
  return startNote === undefined ? { start } : { start, startNote };
}

/** Runs facts.py under the debugger (no breakpoints) to its end; its report and exit. */
async function factsUnderDebugger(client: McpTestClient, out: string, launch: Record<string, unknown> = {}) {
  const r = await client.call<Started>('session_launch', { program: facts, args: [out, 'x y', 'z'], waitForStop: true, ...launch });
  expect(r.isError, r.text).toBe(false);
  const way = await startedAs(client, r.structured.sessionId);
  return { ...r.structured, way, facts: JSON.parse(readFileSync(out, 'utf8')) as Facts, finalized: takeFinalized(out) };
}

/** What facts.py's object in a reference cycle wrote when the collector freed it at the exit. */
function takeFinalized(out: string): string | undefined {
  try {
    return readFileSync(`${out}.end`, 'utf8');
  } catch {
    return undefined;
  } finally {
    rmSync(`${out}.end`, { force: true });
  }
}

function comparable(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !NOT_COMPARED.includes(k)));
}

/** The ready debuggee of a server, once its debuggee process is up (the launcher file is its program). */
async function readyProcesses(client: McpTestClient): Promise<number[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const tree = descendants(client.pid!);
    if (tree.some((pid) => commandLine(pid).includes('frozen_modules=off') && commandLine(pid).includes('_debugpy_launcher.py'))) return tree;
    if (Date.now() > deadline) throw new Error(`no ready debuggee under the server: ${tree.map(commandLine).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(run)('python ready debuggee end to end', () => {
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('runs a program that sees what a plain python3 run sees, and what a normal launch sees', async () => {
    const out = join(scratch, 'facts.json');
    const ready = await factsUnderDebugger(await server({ DEBUGBRIDGE_READY_DEBUGGEE: '1' }), out);
    expect(ready.way).toEqual({ start: 'ready debuggee' });
    const normal = await factsUnderDebugger(await server({ DEBUGBRIDGE_READY_DEBUGGEE: '0' }), out);
    expect(normal.way.start).toBe('normal launch');

    // The server's environment is the test's (McpTestClient passes it on) plus serverEnv().
    const env = { ...getDefaultEnvironment(), ...(process.env as Record<string, string>), ...serverEnv() };
    const plainRun = spawnSync(PYTHON, [facts, out, 'x y', 'z'], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    const plain = JSON.parse(readFileSync(out, 'utf8')) as Facts;
    const plainFinalized = takeFinalized(out);

    for (const key of ['argv', 'file', 'name', 'cwd', 'path0', 'path', 'meta_path', 'platform', 'pkg_resources', 'main_file', 'stdin', 'streams', 'argv0_at_exit', 'worker_done_before_atexit']) {
      expect(ready.facts[key], key).toEqual(plain[key]);
    }
    expect(comparable(ready.facts.env)).toEqual(comparable(plain.env));
    expect(ready.facts.env.PYTHONUNBUFFERED).toBe('1');
    expect(ready.facts.argv).toEqual([facts, out, 'x y', 'z']);
    expect(ready.facts.cwd).toBe(scratch);
    // pydevd imported its plugins without pkg_resources (debuggeePrelude.ts); the program still has it.
    expect(ready.facts.pkg_resources).toBe(true);
    expect(ready.facts.streams).toEqual(['char device', 'stream', 'stream']);
    expect(ready.exitCode).toBe(plainRun.status);
    expect(ready.exitCode).toBe(3);
    expect(plainRun.stdout).toBe("to stdout ['x y', 'z']\n");
    expect(plainRun.stderr).toBe('to stderr\n');
    expect(ready.outputTail).toContain("to stdout ['x y', 'z']");
    expect(ready.outputTail).toContain('to stderr');

    // Against debugpy's own launch of the same program: everything, globals and -X options too.
    expect({ ...ready.facts, env: undefined, argv: undefined }).toEqual({ ...normal.facts, env: undefined, argv: undefined });
    expect(comparable(ready.facts.env)).toEqual(comparable(normal.facts.env));
    expect(DEBUGGER_ADDED.map((k) => ready.facts.env[k])).toEqual(DEBUGGER_ADDED.map((k) => normal.facts.env[k]));
    expect(normal.exitCode).toBe(3);

    // The end as in a plain run, though the debug session ends as the program's code does and the
    // debugger's objects are out of the collector's reach (sessionEnd.ts): a thread that outlives
    // the main code finishes before the exit handlers, and the program's own garbage is collected.
    for (const run of [plain, ready.facts, normal.facts]) expect(run.worker_done_before_atexit).toBe(true);
    expect([ready.finalized, normal.finalized]).toEqual([plainFinalized, plainFinalized]);
    expect(plainFinalized).toBe('cycle finalized\n');
  });

  it('prints a crash traceback without a frame of its own, as debugpy does when it runs the program itself', async () => {
    const outputs: string[] = [];
    for (const ready of ['1', '0']) {
      const client = await server({ DEBUGBRIDGE_READY_DEBUGGEE: ready });
      const r = await client.call<Started>('session_launch', { program: crash, exceptions: 'none', waitForStop: true });
      expect(r.structured).toMatchObject({ status: 'exited', exitCode: 1 });
      expect((await startedAs(client, r.structured.sessionId)).start).toBe(ready === '1' ? 'ready debuggee' : 'normal launch');
      outputs.push((await client.call<{ output: string }>('session_output', { sessionId: r.structured.sessionId, maxChars: 50_000 })).structured.output);
      // The process is named after the program, not after the ready launcher file.
      expect((await client.call('session_events', { sessionId: r.structured.sessionId })).text).toContain(`started: ${crash}`);
    }
    // What the program printed to stdout arrives on another pipe: it may come before, after or
    // inside the traceback (its line end apart from its text), so it is taken out with blank lines.
    const tracebacks = outputs.map((text) => text.replace('about to fail', '').split('\n').filter((line) => line !== '').join('\n'));
    expect(tracebacks[0]).toContain("ValueError: invalid literal for int() with base 10: 'not a number'");
    expect(tracebacks[0]).not.toContain('debugpy_launcher');
    expect(tracebacks[0]).toBe(tracebacks[1]);
  });

  it('takes the normal path for another environment or another interpreter, then readies one for it', async () => {
    const client = await server();
    const other = await client.call<Started>('session_launch', { program: onlyLine, env: { EXTRA: '1' }, waitForStop: true });
    expect(await startedAs(client, other.structured.sessionId)).toMatchObject({ start: 'normal launch', startNote: expect.stringMatching(/environment/) });
    expect(other.structured).toMatchObject({ status: 'exited', exitCode: 0 });

    const again = await client.call<Started>('session_launch', { program: onlyLine, env: { EXTRA: '1' }, waitForStop: true });
    expect(await startedAs(client, again.structured.sessionId)).toEqual({ start: 'ready debuggee' });

    const link = join(scratch, 'python3-link');
    symlinkSync(PYTHON, link);
    const interpreter = await client.call<Started>('session_launch', { program: onlyLine, pythonPath: link, env: { EXTRA: '1' }, waitForStop: true });
    expect(interpreter.isError, interpreter.text).toBe(false);
    expect(await startedAs(client, interpreter.structured.sessionId)).toMatchObject({ start: 'normal launch', startNote: expect.stringMatching(/interpreter/) });
  });

  it('stops at a breakpoint on the first line of a program, launch after launch', async () => {
    const client = await server();
    for (let i = 0; i < 5; i++) {
      const r = await client.call<Started>('session_launch', { program: onlyLine, breakpoints: [{ file: onlyLine, line: 1 }], waitForStop: true, timeoutMs: 20_000 });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.stop?.frame).toMatchObject({ file: onlyLine, line: 1 });
      expect((await startedAs(client, r.structured.sessionId)).start).toBe('ready debuggee');
      await client.call('session_stop', { sessionId: r.structured.sessionId });
    }
    const first = markerLine(facts, 'BP:first');
    const r = await client.call<Started>('session_launch', { program: facts, args: [join(scratch, 'bp.json')], breakpoints: [{ file: facts, line: first }], waitForStop: true });
    expect(r.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { file: facts, line: first } });
    const stack = await client.call<{ frames: { name: string; file?: string }[] }>('inspect_stack', {});
    // The launcher file is never a frame of the program.
    expect(stack.structured.frames.map((f) => f.file)).toEqual([facts]);
    // pydevd connected without its 0.1 s sleep (debuggeePrelude.ts): a pydevd that renamed what the
    // prelude wraps would bring it back without a word.
    const connect = await client.call<{ value: string }>('inspect_evaluate', { expression: "__import__('pydevd').PyDB.initialize_network.__name__" });
    expect(connect.structured.value).toBe("'initialize_network_at_once'");
  });

  it('starts a fresh server from the interpreter the last one found, and searches again only once the calls pause', async () => {
    // A candidate that is slow to answer, like a pyenv shim; each probe of it (python -c '…python_version…import debugpy…') is logged.
    const probes = join(scratch, 'probes.log');
    const shim = join(scratch, 'python-shim');
    writeFileSync(shim, `#!/bin/sh\ncase "$1 $2" in "-c "*python_version*) echo probe >> '${probes}' ;; esac\nexec ${PYTHON} "$@"\n`, { mode: 0o755 });
    const runs = () => readFileSync(probes, 'utf8').split('\n').filter(Boolean).length;
    const env = { DEBUGBRIDGE_PYTHON: shim, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(scratch, 'state-')), DEBUGBRIDGE_READY_DEBUGGEE: '0' };
    const launch = { program: onlyLine, waitForStop: true };

    const first = await (await server(env)).call<Started>('session_launch', launch);
    expect(first.structured.status, first.text).toBe('exited');
    expect(runs()).toBe(1);
    for (const client of clients.splice(0)) await client.close();

    const fresh = await server(env);
    const second = await fresh.call<Started>('session_launch', launch);
    expect(second.structured.status, second.text).toBe('exited');
    expect(runs()).toBe(1);
    const deadline = Date.now() + 20_000;
    while (runs() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(runs()).toBe(2);
  });

  it('leaves no ready process behind when the server exits', async () => {
    const client = await server();
    const tree = await readyProcesses(client);
    expect(tree.length).toBeGreaterThanOrEqual(3);
    await client.close();
    expect(await waitGone(tree, 8000)).toEqual([]);
  });

  it('leaves no ready process behind when the server is killed', async () => {
    const client = await server();
    const tree = [client.pid!, ...(await readyProcesses(client))];
    process.kill(client.pid!, 'SIGKILL');
    expect(await waitGone(tree, 8000)).toEqual([]);
  });
});
