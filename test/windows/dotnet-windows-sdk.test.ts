/**
 * .NET on Windows x64 under Wine where the SDK is needed: a `.csproj` launch, a `.dll` hosted by
 * dotnet.exe, live edit (its Roslyn worker built by dotnet.exe, run as a Windows process), and
 * debug_test of an xUnit v3 project (xUnit's own runner) and of an MSTest one (Microsoft.Testing.Platform):
 * the test program itself runs under the debugger. No Windows .NET SDK is served here, so the server's
 * DOTNET_ROOT holds the bed's own dotnet.exe (support/bed.mjs sdkShim()): it hosts `dotnet <app>.dll` as
 * the real muxer does, over the runtime NuGet served, and hands build/run/test to the Linux SDK, with a
 * path map so the PDBs hold Windows paths. The program under the debugger, and the one xUnit's test_list
 * runs (`dotnet.exe <dll> -list`), is a Windows process (the platform's discovery, `dotnet run -- --server`,
 * runs as a Linux one). Each project is a copy of the fixture in a folder of its own.
 * The server runs with DOTNET_gcServer=1 and a 1 GB gen0 budget, conditions of the bed, not of Windows:
 * under Wine a .NET process ends with "Internal CLR error (0x80131506)" (in
 * DynamicResolver+DestroyScout.Finalize) when a GC finalizes a dynamic method: a test program in about
 * half the runs under workstation GC, the live edit worker's first update every time under server GC alone.
 * Not here, debug_test under VSTest (xUnit v2, NUnit): the Linux SDK would start the test host as a
 * Linux process (README, platforms).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { fixturesDir } from '../fixtures/dotnet/fixtures.js';
import { DOTNET_TEST_FIXTURES, MSTEST_IDS } from '../support/dotnetTestFixtures.js';
import { requireRuntime } from '../support/runtimes.js';
import type { DebugTestAnswer, TestListAnswer } from '../support/testToolClient.js';
import { bedAvailable, cacheDir, prepareBed, publishFixture, sdkShim, winPath } from './support/bed.mjs';
import { startWindowsServer, type WindowsServer } from './support/windowsServer.js';
import { processesMatching, waitNoneMatching } from './support/wineProcesses.js';

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
    // The live edit worker is built once into the bed's cache (the server's default, the prefix's AppData on C:, is no path the Linux SDK reads).
    server = await startWindowsServer(bed.node, {
      DOTNET_ROOT: winPath(dotnetRoot),
      DOTNET_gcServer: '1',
      DOTNET_GCgen0size: '0x40000000',
      DEBUGBRIDGE_CACHE_DIR: winPath(join(cacheDir, 'debugbridge')),
    });
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

  it('a framework-dependent .dll runs under dotnet.exe (the muxer hosts it): stops at its breakpoint, ends with its exit code', async () => {
    const dll = join(publishFixture('hello', 'framework-dependent'), 'hello.dll');
    const program = join(fixturesDir, 'hello', 'Program.cs');
    const line = markerLine(program, 'BP:hello');
    const launch = await client.call<Wait>('session_launch', { program: winPath(dll), args: ['dll'], breakpoints: [{ file: winPath(program), line }], waitForStop: true, timeoutMs: 90_000 });
    expect(launch.structured.stop, launch.text).toMatchObject({ reason: 'breakpoint', frame: { name: 'Program.<Main>$', file: winPath(program), line } });
    // The program stopped is the Windows process `dotnet.exe …\hello.dll`.
    const running = processesMatching('hello.dll').map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
    expect(running.some((line) => /^"?(\S*\\)?dotnet(\.exe)?"? \S+\\hello\.dll dll/i.test(line)), running.join('\n')).toBe(true);
    const end = await client.call<Wait>('execution_continue', { sessionId: launch.structured.sessionId, timeoutMs: 30_000 });
    expect(end.structured, end.text).toMatchObject({ status: 'exited', exitCode: 7 });
  }, 120_000);

  it('live edit: a fix applied to the stopped program (Roslyn\'s worker a Windows process) is what it runs on, no restart', async () => {
    const folder = copyOf(fixturesDir, ['liveedit', 'Directory.Build.props', 'nuget.config']);
    const pricing = join(folder, 'liveedit', 'Pricing.cs');
    const launch = await client.call<Wait>(
      'session_launch',
      { program: winPath(join(folder, 'liveedit', 'liveedit.csproj')), breakpoints: [{ file: winPath(pricing), line: markerLine(pricing, 'BP:add') }], waitForStop: true, timeoutMs: BUILD_MS },
      { timeoutMs: BUILD_MS },
    );
    expect(launch.structured.stop, launch.text).toMatchObject({ reason: 'breakpoint', frame: { name: 'LiveEdit.Pricing.TotalAsync' } });
    const { sessionId } = launch.structured;
    writeFileSync(pricing, readFileSync(pricing, 'utf8').replace('total += item.UnitPrice;', 'total += item.UnitPrice * item.Quantity;'));
    // The first apply on a machine builds the worker with the SDK (dotnet.exe build): it answers that the build is under way until it is done.
    let applied = await client.call<{ changes: { file: string; status: string; items: string[] }[] }>('session_apply_changes', { sessionId, timeoutMs: 180_000 }, { timeoutMs: 240_000 });
    for (let tries = 0; applied.isError && /being built/.test(applied.text) && tries < 10; tries++) {
      applied = await client.call('session_apply_changes', { sessionId, timeoutMs: 180_000 }, { timeoutMs: 240_000 });
    }
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.structured.changes).toEqual([expect.objectContaining({ file: winPath(pricing), status: 'applied', items: ['LiveEdit.Pricing.TotalAsync (body)'] })]);
    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
    expect(end.structured, end.text).toMatchObject({ status: 'exited', exitCode: 0 });
    const output = await client.call<{ output: string }>('session_output', { sessionId });
    expect(output.structured.output).toMatch(/ada: 4\.75\r?\nbob: 3\.00\r?\ncy: 4\.00/);
  }, 2 * BUILD_MS + 60_000);

  it('debug_test on an xUnit v3 project: test_list ids, the failing test stopped at its assertion with expected and actual, the verdict at the end', async () => {
    const folder = copyOf(DOTNET_TEST_FIXTURES, ['Calc', 'XunitV3Tests', 'Directory.Build.props', 'nuget.config']);
    const project = winPath(join(folder, 'XunitV3Tests'));
    const tests = join(folder, 'XunitV3Tests', 'PricesTests.cs');
    const listed = await client.call<TestListAnswer>('test_list', { path: project, timeoutMs: BUILD_MS }, { timeoutMs: BUILD_MS });
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.structured.tests.map((t) => t.id)).toEqual(['total with "quotes" and spaces', 'XunitV3Tests.PricesTests.Adds', 'XunitV3Tests.PricesTests.Totals', 'XunitV3Tests.PricesTests+Pens.TotalOfPens']);

    // An id test_list gave runs exactly that test (xUnit's -id).
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project, test: 'XunitV3Tests.PricesTests.Totals', timeoutMs: BUILD_MS }, { timeoutMs: BUILD_MS });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/dotnet run --project \S+ -- -id [0-9a-f]{64} -noColor/);
    const testFrame = { name: 'XunitV3Tests.PricesTests.Totals', file: winPath(tests), line: markerLine(tests, 'FAIL:total') };
    expect(r.structured.failure, r.text).toMatchObject({ frame: testFrame, type: 'Xunit.Sdk.EqualException', expected: '30', actual: '25' });
    expect(r.structured.stop?.frame).toMatchObject(testFrame);
    const evaluated = await client.call<{ value?: string }>('inspect_evaluate', { expression: 'Calc.Prices.Total(prices, 0)' });
    expect(evaluated.structured.value, evaluated.text).toBe('35');

    const end = await client.call<Wait>('execution_continue', { sessionId: r.structured.sessionId, timeoutMs: 60_000 });
    expect(end.structured, end.text).toMatchObject({ status: 'exited', exitCode: 1 });
    expect(end.text).toMatch(/The test run ended: FAILED \(Failed: 1, Passed: 0, Skipped: 0, Total: 1, Duration: [^)]*\), exit code 1\.\nFailure summary:\n  XunitV3Tests\.PricesTests\.Totals\n/);
    // The test program (a Windows process, `dotnet.exe …\XunitV3Tests.dll`) is gone with its run.
    expect(await waitNoneMatching('XunitV3Tests.dll', 60_000)).toEqual([]);
  }, 2 * BUILD_MS + 60_000);

  it('debug_test on MSTest (Microsoft.Testing.Platform): test_list ids, the failing test stopped at its assertion, the verdict with its counts', async () => {
    const folder = copyOf(DOTNET_TEST_FIXTURES, ['Calc', 'MstestTests', 'Directory.Build.props', 'nuget.config']);
    const project = winPath(join(folder, 'MstestTests'));
    const tests = join(folder, 'MstestTests', 'PricesTests.cs');
    const listed = await client.call<TestListAnswer>('test_list', { path: project, timeoutMs: BUILD_MS }, { timeoutMs: BUILD_MS });
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.structured.tests.map((t) => t.id)).toEqual(MSTEST_IDS);

    // An id test_list gave runs exactly that test (the platform's --filter-uid).
    const r = await client.call<DebugTestAnswer>('debug_test', { path: project, test: 'MstestTests.PricesTests.Totals', timeoutMs: BUILD_MS }, { timeoutMs: BUILD_MS });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/dotnet run --project \S+ -- --filter-uid [0-9a-f-]{36}\n/);
    const testFrame = { name: 'MstestTests.PricesTests.Totals', file: winPath(tests), line: markerLine(tests, 'FAIL:total') };
    expect(r.structured.failure, r.text).toMatchObject({ frame: testFrame, type: 'Microsoft.VisualStudio.TestTools.UnitTesting.AssertFailedException', expected: '30', actual: '25' });
    expect(r.structured.stop?.frame).toMatchObject(testFrame);
    const evaluated = await client.call<{ value?: string }>('inspect_evaluate', { expression: 'Calc.Prices.Total(prices, 0)' });
    expect(evaluated.structured.value, evaluated.text).toBe('35');

    const end = await client.call<Wait>('execution_continue', { sessionId: r.structured.sessionId, timeoutMs: 60_000 });
    expect(end.structured, end.text).toMatchObject({ status: 'exited', exitCode: 2 });
    // The program's report ends its lines with \r\n, as a Windows program does: its failure is still read out of it.
    expect(end.text).toMatch(/The test run ended: FAILED \(1 failed, 0 passed, 1 total\), exit code 2\.\nFailure summary:\n  Totals \(.*\)\n    Assert\.AreEqual failed\. Expected:<30>\. Actual:<25>\./);
    // The test program (a Windows process) is gone with its run.
    expect(await waitNoneMatching('MstestTests', 60_000)).toEqual([]);
  }, 2 * BUILD_MS + 60_000);
});
