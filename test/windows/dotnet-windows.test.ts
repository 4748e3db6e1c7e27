/**
 * .NET on Windows x64, under Wine: the server runs under Windows node.exe with the win32-x64 addon
 * (cross-compiled with mingw), its MCP client on this side of a socket (support/windowsServer.ts).
 * The programs are the .NET fixtures published self-contained for win-x64, and one framework-dependent
 * with a DOTNET_ROOT made from NuGet's runtime pack, since Wine has no Windows .NET installed
 * (support/bed.mjs): launching an apphost .exe and a .dll, breakpoints armed before the
 * first line, stopOnEntry, Windows paths, exit codes, output, kill, attach by pid, detach, and no
 * process left behind, also when the server itself is killed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';
import { bedAvailable, dotnetRoot, prepareBed, publishFixture, root, WINE, wineEnv, winPath } from './support/bed.mjs';
import { processesMatching, waitNoneMatching } from './support/wineProcesses.js';
import { startWindowsServer, type WindowsServer } from './support/windowsServer.js';

const run = requireRuntime('the Windows test bed (apt-get install wine64 g++-mingw-w64-x86-64-posix; dotnet)', bedAvailable());

interface Frame {
  name: string;
  file?: string;
  line: number;
}
interface Wait {
  sessionId: string;
  status: 'stopped' | 'exited' | 'timeout';
  state: string;
  pid?: number;
  exitCode?: number;
  stop?: { reason: string; threadId: number; frame: Frame; hitBreakpointIds: number[]; locals?: { name: string; value: string }[] };
  breakpoints?: { id: number; status: string; verified: boolean }[];
}

describe.runIf(run)('.NET on Windows x64 (Wine)', () => {
  let server: WindowsServer;
  let client: McpTestClient<Transport>;
  let apps: Record<string, string>;
  const hello = fixtureSource('hello', 'Program.cs');
  const exe = (name: string) => winPath(join(apps[name]!, `${name}.exe`));

  beforeAll(async () => {
    const bed = prepareBed(['hello', 'waiter']);
    apps = bed.apps;
    server = await startWindowsServer(bed.node, { DEBUGBRIDGE_STATE_DIR: winPath(mkdtempSync(join(tmpdir(), 'dbb-win-state-'))) });
    client = server.client;
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await client.stopActiveSessions();
  });

  it('says .NET is available under Windows node.exe, through its own handshake', async () => {
    const r = await client.call<{ languages: { language: string; available: boolean; detail?: string }[] }>('languages_list');
    const dotnet = r.structured.languages.find((l) => l.language === 'dotnet');
    expect(dotnet?.available, r.text).toBe(true);
  });

  describe('launch', () => {
    it('an apphost .exe: the breakpoint set before the first line stops there, in Windows paths; then exit code 7 with stdout and stderr', async () => {
      const launch = await client.call<Wait>('session_launch', {
        program: exe('hello'),
        args: ['e2e', 'two words'],
        env: { FIXTURE_VALUE: 'from windows' },
        breakpoints: [{ file: winPath(hello.path), line: hello.line('hello') }],
        waitForStop: true,
        timeoutMs: 60_000,
      });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.stop).toMatchObject({
        reason: 'breakpoint',
        hitBreakpointIds: [1],
        frame: { name: 'Program.<Main>$', file: winPath(hello.path), line: hello.line('hello') },
      });
      expect(launch.structured.stop?.locals?.find((l) => l.name === 'mode')?.value).toBe('"e2e"');
      const { sessionId } = launch.structured;
      const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(end.structured, end.text).toMatchObject({ status: 'exited', exitCode: 7 });
      const output = await client.call<{ output: string }>('session_output', { sessionId });
      expect(output.structured.output).toContain('hello from dotnet');
      expect(output.structured.output).toContain('to stderr');
      // The arguments crossed CreateProcess's command line intact, the environment too.
      expect(output.structured.output).toContain('args: e2e,two words; FIXTURE_VALUE=from windows');
    });

    it('a self-contained .dll through its apphost, stopOnEntry before any line of Main; a breakpoint file in another case and with / still binds', async () => {
      const spelledOtherwise = winPath(hello.path).replace('Program.cs', 'PROGRAM.CS').replaceAll('\\', '/');
      const launch = await client.call<Wait>('session_launch', {
        program: winPath(join(apps.hello!, 'hello.dll')),
        args: ['break'],
        stopOnEntry: true,
        breakpoints: [{ file: spelledOtherwise, line: hello.line('hello') }],
        waitForStop: true,
        timeoutMs: 60_000,
      });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.stop).toMatchObject({ reason: 'entry', frame: { name: 'Program.<Main>$', file: winPath(hello.path) } });
      expect(launch.structured.breakpoints?.[0]).toMatchObject({ verified: true });
      const { sessionId } = launch.structured;
      const atBreakpoint = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(atBreakpoint.structured.stop, atBreakpoint.text).toMatchObject({ reason: 'breakpoint', frame: { line: hello.line('hello') } });
      // Debugger.Break() is a stop of its own; the program then returns 3.
      const atBreak = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(atBreak.structured.stop?.reason, atBreak.text).toBe('pause');
      const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(end.structured).toMatchObject({ status: 'exited', exitCode: 3 });
    });

    // Under Wine a program whose exception went unhandled does not end while a managed debugger is
    // attached (it hangs in Wine's crash path after the runtime printed the exception; without a
    // debugger it ends with 0xE0434352): session_stop ends it.
    it('an unhandled exception stops with its type, message and stack; session_stop then ends the program', async () => {
      const launch = await client.call<Wait>('session_launch', { program: exe('hello'), args: ['throw'], waitForStop: true, timeoutMs: 60_000 });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.stop, launch.text).toMatchObject({ reason: 'exception', frame: { name: 'Program.<Main>$', file: winPath(hello.path) } });
      expect(launch.text).toMatch(/InvalidOperationException: boom/);
      const stop = await client.call('session_stop', { sessionId: launch.structured.sessionId });
      expect(stop.isError, stop.text).toBe(false);
      expect(await waitNoneMatching('hello.exe throw', 15_000)).toEqual([]);
    });

    // No Windows .NET is installed under Wine: DOTNET_ROOT names a layout made from NuGet's runtime
    // pack (support/bed.mjs), where the apphost finds hostfxr and the shared framework.
    it('a framework-dependent apphost .exe with DOTNET_ROOT: stops at the breakpoint, steps into a framework call as over it (Just My Code), exits 7', async () => {
      const fd = publishFixture('hello', 'framework-dependent');
      const launch = await client.call<Wait>('session_launch', {
        program: winPath(join(fd, 'hello.exe')),
        args: ['fd'],
        env: { DOTNET_ROOT: winPath(dotnetRoot(apps.hello!)) },
        breakpoints: [{ file: winPath(hello.path), line: hello.line('hello') }],
        waitForStop: true,
        timeoutMs: 60_000,
      });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.stop, launch.text).toMatchObject({ reason: 'breakpoint', frame: { name: 'Program.<Main>$', file: winPath(hello.path), line: hello.line('hello') } });
      const { sessionId } = launch.structured;
      const into = await client.call<Wait>('execution_step', { sessionId, kind: 'into', timeoutMs: 30_000 });
      expect(into.structured.stop?.frame, into.text).toMatchObject({ name: 'Program.<Main>$', line: hello.line('hello') + 1 });
      const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(end.structured, end.text).toMatchObject({ status: 'exited', exitCode: 7 });
      const output = await client.call<{ output: string }>('session_output', { sessionId });
      expect(output.structured.output).toContain('args: fd;');
    });

    it('a .csproj needs the .NET SDK: with no dotnet.exe (as under Wine) the answer says so and how to fix it', async () => {
      const r = await client.call('session_launch', { program: winPath(join(hello.path, '..', 'hello.csproj')) });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^ENGINE_UNAVAILABLE: .*dotnet/s);
      expect(r.text).toMatch(/DOTNET_ROOT/);
    });
  });

  describe('ending', () => {
    it('session_stop ends the program; no process is left behind', async () => {
      const launch = await client.call<Wait>('session_launch', { program: exe('waiter'), args: [winPath(join(tmpdir(), 'dbb-never-released'))] });
      expect(launch.isError, launch.text).toBe(false);
      expect(processesMatching('waiter.exe').length).toBeGreaterThan(0);
      const stop = await client.call<{ exitCode?: number }>('session_stop', { sessionId: launch.structured.sessionId });
      expect(stop.isError, stop.text).toBe(false);
      expect(await waitNoneMatching('waiter.exe', 15_000)).toEqual([]);
    });

    it('attaches by pid, pauses, lists threads, detaches; the program runs on to its own end', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dbb-win-waiter-'));
      const release = join(dir, 'release');
      const out = join(dir, 'out.txt');
      // Wine's console output to a Linux pipe is unreliable: the waiter writes to a file.
      const waiter = spawn('/bin/sh', ['-c', `exec "${WINE}" "$0" "$1" > "$2"`, join(apps.waiter!, 'waiter.exe'), winPath(release), out], {
        env: wineEnv(),
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) => waiter.on('exit', (code) => resolve(code)));
      let pid: number | undefined;
      for (let i = 0; i < 240 && pid === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const ready = /ready (\d+)/.exec(readOrEmpty(out));
        if (ready) pid = Number(ready[1]);
      }
      expect(pid, 'the waiter printed its Windows pid').toBeDefined();
      const attach = await client.call<Wait>('session_attach', { language: 'dotnet', pid });
      expect(attach.isError, attach.text).toBe(false);
      const { sessionId } = attach.structured;
      const pause = await client.call<Wait>('execution_pause', { sessionId, timeoutMs: 30_000 });
      expect(pause.structured.status, pause.text).toBe('stopped');
      const threads = await client.call<{ threads: { id: number; name: string }[] }>('inspect_threads', { sessionId });
      expect(threads.structured.threads.some((t) => t.name === 'fixture-worker'), threads.text).toBe(true);
      const stop = await client.call('session_stop', { sessionId, detach: true });
      expect(stop.isError, stop.text).toBe(false);
      writeFileSync(release, 'go');
      expect(await exited).toBe(0);
      expect(readOrEmpty(out)).toContain('done');
    });

    it('the server killed while debugging takes the program with it (its job object closes)', async () => {
      const own = await startWindowsServer(nodeExePath(), { DEBUGBRIDGE_STATE_DIR: winPath(mkdtempSync(join(tmpdir(), 'dbb-win-kill-'))) });
      try {
        const launch = await own.client.call<Wait>('session_launch', { program: exe('waiter'), args: [winPath(join(tmpdir(), 'dbb-never-released-2'))] });
        expect(launch.isError, launch.text).toBe(false);
        const servers = serverProcesses().filter((pid) => !serverPids.includes(pid));
        expect(servers.length).toBe(1);
        process.kill(servers[0]!, 'SIGKILL');
        expect(await waitNoneMatching('never-released-2', 20_000)).toEqual([]);
      } finally {
        await own.close();
      }
    });
  });

  /** The servers running under Wine (each has a bridge whose command line names cli.js too). */
  const serverProcesses = () => processesMatching(winPath(join(root, 'dist', 'cli.js')), 'bridge.cjs');
  let serverPids: number[] = [];
  beforeAll(() => {
    serverPids = serverProcesses();
  });
  const nodeExePath = () => prepareBed([]).node;
});

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
