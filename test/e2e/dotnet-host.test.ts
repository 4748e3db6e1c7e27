/**
 * ICorDebug runs in a host process per session: a debuggee killed at the worst moment, or the host
 * itself dying, ends that session with a clear state and never takes the server down.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { commandLine, descendants, isAlive, waitGone, waitIdle } from '../support/processTree.js';
import { requireRuntime } from '../support/runtimes.js';

const run = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);

interface Launched {
  sessionId: string;
  pid?: number;
}
interface Wait {
  status: string;
  state: string;
  error?: string;
}

describe.runIf(run)('the .NET debugger host', () => {
  let client: McpTestClient;
  let hello: string;
  let waiter: string;

  beforeAll(async () => {
    hello = buildFixture('hello');
    waiter = buildFixture('waiter');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-host-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('survives debuggees killed right after launch, run after run', async () => {
    for (let i = 0; i < 6; i++) {
      const first = await client.call<Launched>('session_launch', { program: hello });
      await client.call('breakpoint_wait', { sessionId: first.structured.sessionId });
      const launched = await client.call<Launched>('session_launch', { program: waiter, args: [join(tmpdir(), 'dbb-never-released')] });
      expect(launched.isError, launched.text).toBe(false);
      process.kill(launched.structured.pid!, 'SIGKILL');
      const wait = await client.call<Wait>('breakpoint_wait', { sessionId: launched.structured.sessionId, timeoutMs: 20_000 });
      expect(wait.structured.status).toBe('exited');
    }
    expect(isAlive(client.pid!)).toBe(true);
  });

  it('reads the runtime library in the host readied for the next launch, never in one a launch waits for', async () => {
    const server = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-host-')) } });
    // ms from the launch to each start-up moment of the session's host, as session_diagnostics tells them
    const startup = async (): Promise<Record<string, number | undefined>> => {
      const launched = await server.call<Launched & { status: string }>('session_launch', { program: hello, stopOnEntry: true, waitForStop: true });
      expect(launched.structured.status, launched.text).toBe('stopped');
      const { sessionId } = launched.structured;
      const diagnostics = await server.call<{ diagnostics: { engine: { details: { startup: Record<string, number> } } } }>('session_diagnostics', { sessionId });
      await server.call('session_stop', { sessionId });
      return diagnostics.structured.diagnostics.engine.details.startup;
    };
    try {
      const first = await startup();
      expect(first.hostStart).toBeGreaterThan(0);
      expect(first.readAhead).toBeUndefined();
      const readied = descendants(server.pid!).filter((p) => commandLine(p).includes('hostMain') && commandLine(p).includes('System.Private.CoreLib.dll'));
      expect(readied).toHaveLength(1);
      // It reads once it has booted: idle 1.5 s running means it has read.
      expect(await waitIdle(readied[0], 1500), 'the readied host settles').toBe(true);
      const next = await startup();
      expect(next.readAhead).toBeLessThan(0); // ms from the launch: before it
      expect(next.readAheadUsed, 'the library read ahead is the one the program loaded').toBeDefined();
    } finally {
      await server.close();
    }
  });

  it('fails the session, ends the program and keeps serving when the host dies', async () => {
    const launched = await client.call<Launched>('session_launch', { program: waiter, args: [join(tmpdir(), 'dbb-never-released')] });
    const { sessionId, pid } = launched.structured;
    const hosts = descendants(client.pid!).filter((p) => commandLine(p).includes('hostMain'));
    expect(hosts.length).toBeGreaterThanOrEqual(1);
    for (const host of hosts) process.kill(host, 'SIGSEGV');
    const wait = await client.call<Wait>('breakpoint_wait', { sessionId, timeoutMs: 20_000 });
    expect(wait.structured.status).toBe('exited');
    expect(wait.structured.state).toBe('failed');
    expect(wait.text).toMatch(/debugger process ended unexpectedly \(SIGSEGV\)/);
    expect(await waitGone([pid!])).toEqual([]);
    const next = await client.call<Launched>('session_launch', { program: hello });
    expect(next.isError, next.text).toBe(false);
    const end = await client.call<Wait & { exitCode?: number }>('breakpoint_wait', { sessionId: next.structured.sessionId });
    expect(end.structured.exitCode).toBe(7);
  });
});
