import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pidsWithArg, processAlive, RawProxy, sdkServer, waitFor } from '../fixtures/mcp-server/harness.js';

/** A proxy with the SDK fixture behind it, initialised, and the server's pid. */
async function proxyWithServer(env: Record<string, string> = {}): Promise<{ proxy: RawProxy; serverPid: number; marker: string }> {
  const marker = mkdtempSync(join(tmpdir(), 'reload-shutdown-'));
  const proxy = RawProxy.start(['--watch', marker, '--kill-timeout', '500', '--', process.execPath, sdkServer], env);
  await proxy.initialize();
  proxy.send({ id: 'who', method: 'tools/call', params: { name: 'whoami', arguments: {} } });
  const answer = await proxy.until(() => proxy.response('who'), 10_000, 'whoami');
  const serverPid = JSON.parse((answer.result as { content: Array<{ text: string }> }).content[0]!.text).pid as number;
  expect(processAlive(serverPid)).toBe(true);
  return { proxy, serverPid, marker };
}

describe('reload proxy: no process left behind', () => {
  it('the client closing stdin ends the server and the proxy', async () => {
    const { proxy, serverPid } = await proxyWithServer();
    proxy.child.stdin!.end();
    expect(await proxy.exited()).toBe(0);
    await waitFor(() => !processAlive(serverPid), 5_000, 'the server to end');
  });

  it('SIGTERM to the proxy ends the server and the proxy', async () => {
    const { proxy, serverPid } = await proxyWithServer();
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited()).toBe(0);
    await waitFor(() => !processAlive(serverPid), 5_000, 'the server to end');
  });

  it('SIGKILL to the proxy: a well-behaved server ends as its stdin closes', async () => {
    const { proxy, serverPid } = await proxyWithServer();
    proxy.child.kill('SIGKILL');
    await proxy.exited();
    await waitFor(() => !processAlive(serverPid), 5_000, 'the server to end');
  });

  it('a server that ignores SIGTERM and its stdin is killed after --kill-timeout', async () => {
    const { proxy, serverPid } = await proxyWithServer({ FIXTURE_STUBBORN: '1' });
    const started = Date.now();
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited()).toBe(0);
    expect(processAlive(serverPid)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(proxy.stderr).toContain('ignoring SIGTERM');
  });

  it('SIGKILL to the proxy with a server that ignores SIGTERM and its stdin: the watchdog kills it', async () => {
    const { proxy, serverPid } = await proxyWithServer({ FIXTURE_STUBBORN: '1' });
    const watchdogs = pidsWithArg(`watchdogMain.js\u0000500\u0000${proxy.child.pid}`);
    expect(watchdogs).toHaveLength(1);
    proxy.child.kill('SIGKILL');
    await proxy.exited();
    await waitFor(() => !processAlive(serverPid), 5_000, 'the watchdog to end the server');
    await waitFor(() => !processAlive(watchdogs[0]!), 5_000, 'the watchdog to exit');
  });
});
