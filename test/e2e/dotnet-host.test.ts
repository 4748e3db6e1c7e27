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
import { commandLine, descendants, isAlive, waitGone } from '../support/processTree.js';
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
