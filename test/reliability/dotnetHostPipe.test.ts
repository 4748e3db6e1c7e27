/**
 * Issue 9, failure 6: a .NET launch given almost no time (timeoutMs 0, 1, …) ends while the debugger
 * host is still releasing the debuggee; nothing in the server may go uncaught (it was an EPIPE).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { requireRuntime } from '../support/runtimes.js';
import { sleep, startServer, type TestServer } from './support/server.js';

const run = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);

describe.runIf(run)('.NET launches that time out at once', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  it('answer TIMEOUT, and nothing goes uncaught in the server', async () => {
    const dll = buildFixture('hello');
    server = await startServer();
    for (const timeoutMs of [0, 1, 0, 1, 0, 1, 2, 5]) {
      const r = await server.client.call('session_launch', { program: dll, timeoutMs });
      if (r.isError) expect(r.text, `timeoutMs ${timeoutMs}`).toMatch(/^TIMEOUT: /);
      else await server.client.call('session_stop', {});
    }
    await sleep(1000);
    expect(server.stderr()).not.toMatch(/uncaught|unhandled/);
    expect((await server.client.call('session_list')).isError).toBe(false);
  });
});
