/**
 * .NET through the real MCP server over stdio (node dist/cli.js): launch, runtime events, exit code,
 * attach / pause / threads / detach, kill -9, the server killed while debugging, disabled debugging.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { descendants, isAlive, waitGone } from '../support/processTree.js';
import { requireRuntime } from '../support/runtimes.js';

const dotnet = findDotnet();
// Launch and the own runtime access are Linux-only so far (macOS needs dbgshim, Windows is not implemented).
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Launched {
  sessionId: string;
  state: string;
  pid?: number;
}
interface Wait {
  status: 'stopped' | 'exited' | 'timeout';
  exitCode?: number;
  state: string;
  stop?: { reason: string; threadId: number };
}
interface EventsResult {
  events: { type: string; summary: string; data?: { path?: string } }[];
  cursor: number;
}

describe.runIf(run)('dotnet end to end', () => {
  let client: McpTestClient;
  let hello: string;
  let waiter: string;
  const children: ChildProcess[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-dotnet-state-'));

  beforeAll(async () => {
    hello = buildFixture('hello');
    waiter = buildFixture('waiter');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(async () => {
    const { structured } = await client.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
    for (const s of structured.sessions) {
      if (['running', 'stopped', 'initializing'].includes(s.state)) await client.call('session_stop', { sessionId: s.sessionId });
    }
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  function startWaiter(): Promise<{ child: ChildProcess; release: () => void; exit: Promise<number | null> }> {
    const releaseFile = join(mkdtempSync(join(tmpdir(), 'dbb-waiter-')), 'release');
    const child = spawn(dotnet!, [waiter, releaseFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        if (d.toString().includes('ready')) resolve({ child, release: () => writeFileSync(releaseFile, 'go'), exit });
      });
      setTimeout(() => reject(new Error('waiter not ready')), 20_000);
    });
  }

  it('languages_list shows .NET available with its capabilities', async () => {
    const r = await client.call<{ languages: { language: string; available: boolean; capabilities?: { pause: boolean } }[] }>('languages_list');
    const entry = r.structured.languages.find((l) => l.language === 'dotnet');
    expect(entry?.available).toBe(true);
    expect(entry?.capabilities?.pause).toBe(true);
  });

  it('launches a dll: the app module loads, it runs to exit code 7 with its output', async () => {
    const launch = await client.call<Launched>('session_launch', { program: hello, args: ['e2e'], env: { FIXTURE_VALUE: 'mcp' } });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;
    const wait = await client.call<Wait>('breakpoint_wait', { sessionId, timeoutMs: 20_000 });
    expect(wait.structured.status).toBe('exited');
    expect(wait.structured.exitCode).toBe(7);
    const events = await client.call<EventsResult>('session_events', { sessionId });
    expect(events.structured.events.some((e) => e.type === 'module' && e.data?.path === hello)).toBe(true);
    const output = await client.call<{ output: string }>('session_output', { sessionId });
    expect(output.structured.output).toContain('hello from dotnet');
    expect(output.structured.output).toContain('args: e2e; FIXTURE_VALUE=mcp');
    const state = await client.call<{ state: string; exitCode?: number }>('session_state', { sessionId });
    expect(state.structured).toMatchObject({ state: 'exited', exitCode: 7 });
  });

  it('attaches to a waiting program, pauses, lists threads, detaches, and the program exits normally', async () => {
    const { child, release, exit } = await startWaiter();
    const attach = await client.call<Launched>('session_attach', { language: 'dotnet', pid: child.pid });
    expect(attach.isError, attach.text).toBe(false);
    const { sessionId } = attach.structured;
    const pause = await client.call<Wait>('execution_pause', { sessionId });
    expect(pause.isError, pause.text).toBe(false);
    expect(pause.structured.status).toBe('stopped');
    const threads = await client.call<{ threads: { id: number; name: string }[] }>('inspect_threads', { sessionId });
    expect(threads.isError, threads.text).toBe(false);
    expect(threads.structured.threads.map((t) => t.id)).toContain(child.pid);
    expect(threads.structured.threads.some((t) => t.name === 'fixture-worker')).toBe(true);
    const stop = await client.call('session_stop', { sessionId, detach: true });
    expect(stop.isError, stop.text).toBe(false);
    expect(isAlive(child.pid!)).toBe(true);
    release();
    expect(await exit).toBe(0);
  });

  it('says exited when the debuggee is killed with kill -9', async () => {
    const launch = await client.call<Launched>('session_launch', { program: waiter, args: [join(tmpdir(), 'dbb-never-released')] });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;
    process.kill(launch.structured.pid!, 'SIGKILL');
    const wait = await client.call<Wait>('breakpoint_wait', { sessionId, timeoutMs: 20_000 });
    expect(wait.structured.status).toBe('exited');
    const state = await client.call<{ state: string }>('session_state', { sessionId });
    expect(state.structured.state).toBe('exited');
  });

  it('leaves no process behind when the server is killed while debugging', async () => {
    const own = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-kill-')) } });
    const launch = await own.call<Launched>('session_launch', { program: waiter, args: [join(tmpdir(), 'dbb-never-released')] });
    expect(launch.isError, launch.text).toBe(false);
    const serverPid = own.pid!;
    const tree = descendants(serverPid);
    expect(tree).toContain(launch.structured.pid);
    process.kill(serverPid, 'SIGKILL');
    expect(await waitGone([serverPid, ...tree], 10_000)).toEqual([]);
    await own.close().catch(() => undefined);
  });

  it('answers DOTNET_EnableDiagnostics=0 with a clear DEBUGGING_DISABLED error', async () => {
    const r = await client.call('session_launch', { program: hello, env: { DOTNET_EnableDiagnostics: '0' } });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^DEBUGGING_DISABLED: .*DOTNET_EnableDiagnostics=0/s);
    expect(r.text).toMatch(/Next: /);
  });
});
