/**
 * .NET on Windows x64 under Wine where the SDK's build is needed: a `.csproj` launch. No Windows .NET
 * SDK is served here, so the server's DOTNET_ROOT holds the bed's own dotnet.exe (support/bed.mjs
 * sdkShim()): it hosts `dotnet <app>.dll` as the real muxer does, over the runtime NuGet served, and
 * hands build/run/test to the Linux SDK, with PathMap so the PDBs hold Windows paths. The program
 * under the debugger is a Windows process. The project is a copy of the fixture in a folder of its own.
 * Not here, debug_test: under VSTest (xUnit v2, NUnit) the Linux SDK would start the test host as a
 * Linux process; an MSTest program on Microsoft.Testing.Platform, started this way, ends under Wine
 * with "Internal CLR error (0x80131506)" — in DynamicResolver+DestroyScout.Finalize under the
 * debugger, and while printing a failed assertion without it (README, platforms).
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { fixturesDir } from '../fixtures/dotnet/fixtures.js';
import { requireRuntime } from '../support/runtimes.js';
import { bedAvailable, prepareBed, sdkShim, winPath } from './support/bed.mjs';
import { startWindowsServer, type WindowsServer } from './support/windowsServer.js';

const run = requireRuntime('the Windows test bed (apt-get install wine64 g++-mingw-w64-x86-64-posix; dotnet)', bedAvailable());
/** A build through the Linux SDK from under Wine, restore included: a minute or two on a busy machine. */
const BUILD_MS = 300_000;

interface Wait {
  sessionId: string;
  status: 'stopped' | 'exited' | 'timeout';
  exitCode?: number;
  stop?: { reason: string; frame: { name: string; file?: string; line: number } };
}

/** A copy of fixture folders (without their builds) in a folder of its own; answers that folder. */
function copyOf(from: string, names: string[]): string {
  const to = mkdtempSync(join(tmpdir(), 'dbb-win-sdk-'));
  for (const name of names) cpSync(join(from, name), join(to, name), { recursive: true, filter: (f) => !['bin', 'obj'].includes(basename(f)) });
  return to;
}

describe.runIf(run)('.NET on Windows x64 (Wine) with the SDK build', () => {
  let server: WindowsServer;
  let client: McpTestClient<Transport>;

  beforeAll(async () => {
    const bed = prepareBed(['hello']);
    const dotnetRoot = sdkShim(bed.apps.hello!);
    server = await startWindowsServer(bed.node, { DOTNET_ROOT: winPath(dotnetRoot) });
    client = server.client;
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await client.stopActiveSessions();
  });

  it('a .csproj is built first, then stops at a breakpoint set in its source, and ends with its exit code', async () => {
    const folder = copyOf(fixturesDir, ['hello', 'Directory.Build.props']);
    const program = join(folder, 'hello', 'Program.cs');
    const line = markerLine(program, 'BP:hello');
    const launch = await client.call<Wait>(
      'session_launch',
      { program: winPath(join(folder, 'hello', 'hello.csproj')), args: ['sdk'], breakpoints: [{ file: winPath(program), line }], waitForStop: true, timeoutMs: BUILD_MS },
      { timeoutMs: BUILD_MS },
    );
    expect(launch.isError, launch.text).toBe(false);
    expect(launch.structured.stop, launch.text).toMatchObject({ reason: 'breakpoint', frame: { name: 'Program.<Main>$', file: winPath(program), line } });
    const end = await client.call<Wait>('execution_continue', { sessionId: launch.structured.sessionId, timeoutMs: 30_000 });
    expect(end.structured, end.text).toMatchObject({ status: 'exited', exitCode: 7 });
  }, BUILD_MS + 60_000);
});
