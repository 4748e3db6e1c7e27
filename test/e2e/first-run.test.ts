/**
 * What a new user meets first, through the real CLI and MCP server: the demo's arguments, what
 * session_stop says it did, how execution_run_to reports its stop, and paths that tools accept.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { CLI_PATH, McpTestClient } from '../../src/demo/mcpClient.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const program = fileURLToPath(new URL('../fixtures/e2e/python/first_run.py', import.meta.url));
const line = (marker: string) => markerLine(program, `BP:${marker}`);
/**
 * What a test may take before it counts as hung: the slowest here took 11 s at load 18 on 2 cores.
 * Waits for a condition get the same room; none of them costs time when things go well.
 */
const BUDGET_MS = 120_000;
const CLI_BUDGET_MS = 60_000;

describe('debugbridge demo arguments', () => {
  it('refuses an unknown language, naming the choices', () => {
    const r = spawnSync(process.execPath, [CLI_PATH, 'demo', 'pyhton'], { encoding: 'utf8', timeout: CLI_BUDGET_MS });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown language "pyhton"; choose python, node, dotnet/);
    expect(r.stdout).not.toMatch(/Demo finished/);
  });

  it('says which argument it takes in --help', () => {
    const top = spawnSync(process.execPath, [CLI_PATH, '--help'], { encoding: 'utf8', timeout: CLI_BUDGET_MS });
    expect(top.stdout).toMatch(/debugbridge demo \[python\|node\|dotnet\]/);
    const own = spawnSync(process.execPath, [CLI_PATH, 'demo', '--help'], { encoding: 'utf8', timeout: CLI_BUDGET_MS });
    expect(own.status).toBe(0);
    expect(own.stdout).toMatch(/Usage: debugbridge demo \[python\|node\|dotnet\]/);
  });
});

const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));

interface Variable {
  name: string;
  path: string;
  hasChildren: boolean;
}

describe.runIf(requireRuntime('python with debugpy', hasDebugpy))('first-run answers (python)', { timeout: BUDGET_MS }, () => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-first-run-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });

  /** A session stopped at its breakpoint on `bpLine`; its id. */
  async function launch(bpLine: number): Promise<string> {
    const launched = await client.call<{ sessionId: string }>('session_launch', { program, breakpoints: [{ file: program, line: bpLine }], waitForStop: true });
    expect(launched.text).toMatch(/Stopped at breakpoint #1/);
    return launched.structured.sessionId;
  }

  it('reports run_to reaching its line as such, not as a breakpoint of the user', async () => {
    const sessionId = await launch(line('start'));
    const ran = await client.call<{ stop: { reason: string; hitBreakpointIds: number[]; frame: { line: number } } }>('execution_run_to', { sessionId, file: program, line: line('target') });
    expect(ran.isError).toBe(false);
    expect(ran.text).toMatch(new RegExp(`Ran to <module> \\(first_run\\.py:${line('target')}\\)`));
    expect(ran.text).not.toMatch(/breakpoint #/);
    expect(ran.structured.stop).toMatchObject({ reason: 'run to', hitBreakpointIds: [], frame: { line: line('target') } });
    const listed = await client.call('breakpoint_list', { sessionId });
    expect(listed.text).toMatch(/#1 first_run\.py/);
    expect(listed.text).not.toMatch(/#2/);
    await client.call('session_stop', { sessionId });
  });

  it("gives every child a path some tool accepts (debugpy's len() included)", async () => {
    const sessionId = await launch(line('target'));
    const { structured } = await client.call<{ variables: Variable[] }>('inspect_variables', { sessionId, path: 'counts' });
    const len = structured.variables.find((v) => v.name === 'len()');
    expect(len?.path).toBe('len(counts)');
    for (const child of structured.variables) {
      const answer = child.hasChildren ? await client.call('inspect_variables', { sessionId, path: child.path }) : await client.call('inspect_evaluate', { sessionId, expression: child.path });
      expect(answer.isError, `${child.name} → ${child.path}: ${answer.text}`).toBe(false);
    }
    expect((await client.call('inspect_evaluate', { sessionId, expression: len!.path })).text).toMatch(/\b2\b/);
    await client.call('session_stop', { sessionId });
  });

  it('session_stop says the session ended a running program, apart from a program that exited by itself', async () => {
    const running = await launch(line('start'));
    const stopped = await client.call<{ wasRunning: boolean; exitCode?: number }>('session_stop', { sessionId: running });
    expect(stopped.text).toMatch(/the session ended the program by terminating it/);
    expect(stopped.text).not.toMatch(/^\[\S+\] Stopped \(exit code/);
    expect(stopped.structured.wasRunning).toBe(true);

    const { structured: plain } = await client.call<{ sessionId: string }>('session_launch', { program });
    const waited = await client.call('breakpoint_wait', { sessionId: plain.sessionId, timeoutMs: BUDGET_MS / 2 });
    expect(waited.text).toMatch(/exited with code 0/);
    const ended = await client.call<{ wasRunning: boolean }>('session_stop', { sessionId: plain.sessionId });
    expect(ended.text).toMatch(/the program had already exited with code 0/);
    expect(ended.structured.wasRunning).toBe(false);
  });
});
