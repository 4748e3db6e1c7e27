/**
 * What a server readies ahead, counted in its process tree: only the runtimes whose project files
 * its working folder holds, only after the client listed the tools, and never more than one spare
 * of each kind, whatever the interleaving of launches, restarts and stops.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { commandLine, descendants } from '../support/processTree.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const PYTHON = '/usr/bin/python3';
const run = requireRuntime('python with debugpy', hasCommand(PYTHON, ['-c', 'import debugpy']));
const loop = fileURLToPath(new URL('../fixtures/e2e/python/loop.py', import.meta.url));
const nodeLoop = fileURLToPath(new URL('../fixtures/node/loop.js', import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), 'dbb-readiness-'));
const clients: McpTestClient[] = [];

/** A server started in a folder holding these files (names → contents). */
async function serverIn(files: Record<string, string>, env: Record<string, string> = {}): Promise<McpTestClient> {
  const folder = mkdtempSync(join(scratch, 'project-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const client = await McpTestClient.start({ cwd: folder, env: { DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(scratch, 'state-')), ...env } });
  clients.push(client);
  return client;
}

interface Census {
  /** debugpy adapters (each runs in our bootstrap). */
  adapters: number;
  /** Ready debuggees waiting for a launch (the Python process that runs the ready launcher file). */
  readyDebuggees: number;
  python: number;
  dotnetHosts: number;
}

function census(server: McpTestClient): Census {
  const lines = descendants(server.pid!).map(commandLine);
  return {
    adapters: lines.filter((l) => l.includes('_end_session_with_server')).length,
    readyDebuggees: lines.filter((l) => l.includes('frozen_modules=off') && l.includes('_debugpy_launcher.py')).length,
    python: lines.filter((l) => /^\S*python[\d.]*\s/.test(l)).length,
    dotnetHosts: lines.filter((l) => l.includes('hostMain.cjs')).length,
  };
}

/** The census once `wanted` holds and has held for `quietMs` (readying has settled). */
async function once(server: McpTestClient, wanted: (c: Census) => boolean, quietMs = 1500, limitMs = 30_000): Promise<Census> {
  const deadline = Date.now() + limitMs;
  let last = census(server);
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const now = census(server);
    if (JSON.stringify(now) !== JSON.stringify(last) || !wanted(now)) since = Date.now();
    last = now;
    if (wanted(now) && Date.now() - since >= quietMs) return now;
  }
  return last;
}

const readied = (c: Census) => c.readyDebuggees === 1;

describe.runIf(run)('readying ahead', () => {
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('starts no Python process in a .NET project and no .NET host in a Python one', async () => {
    const [dotnet, python] = await Promise.all([
      serverIn({ 'Shop.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n' }),
      serverIn({ 'pyproject.toml': '[project]\nname = "shop"\n' }),
    ]);
    // Both started together: by the time the Python folder's server has readied Python, the other
    // has had the same time to start what it would.
    expect(await once(python, (c) => readied(c) && c.adapters === 2)).toMatchObject({ dotnetHosts: 0, adapters: 2, readyDebuggees: 1 });
    expect(await once(dotnet, (c) => c.dotnetHosts === 1)).toMatchObject({ python: 0, dotnetHosts: 1 });
  });

  it('readies nothing in a folder that holds no project, until a session of a runtime ran', async () => {
    const [empty, python] = await Promise.all([serverIn({ 'notes.txt': 'nothing to debug here\n' }), serverIn({ 'main.py': 'print("hi")\n' })]);
    await once(python, readied);
    expect(census(empty)).toEqual({ adapters: 0, readyDebuggees: 0, python: 0, dotnetHosts: 0 });
    const r = await empty.call('session_launch', { program: loop, breakpoints: [{ file: loop, line: markerLine(loop, 'BP:body') }], waitForStop: true });
    expect(r.isError, r.text).toBe(false);
    await empty.call('session_stop', {});
    // Python is in play now: the next launch like it finds a debuggee ready.
    expect(await once(empty, readied)).toMatchObject({ readyDebuggees: 1, dotnetHosts: 0 });
  });

  it('lets a launch that comes right after tools/list take over the debuggee readied meanwhile', async () => {
    // What a shell user, a CI job and every new agent do: no pause between the tool list and the launch.
    const server = await serverIn({ 'main.py': 'print("hello")\n' });
    const r = await server.call<{ sessionId: string }>('session_launch', { program: loop, breakpoints: [{ file: loop, line: markerLine(loop, 'BP:body') }], waitForStop: true });
    expect(r.isError, r.text).toBe(false);
    const d = await server.call<{ diagnostics: { engine: { details: { start: string; startNote?: string } } } }>('session_diagnostics', { sessionId: r.structured.sessionId });
    // Readying began when the list was answered, before the server had loaded the rest, so the
    // launch found it under way instead of starting the same processes beside it.
    expect(d.structured.diagnostics.engine.details).toMatchObject({ start: 'ready debuggee' });
    await server.call('session_stop', {});
    expect((await once(server, readied)).adapters).toBeLessThanOrEqual(2);
  });

  it('readies nothing beside a launch of another runtime that comes at once, then readies Python once the calls are quiet', async () => {
    const server = await serverIn({ 'main.py': 'print("hello")\n', 'package.json': '{ "name": "shop" }\n' });
    const r = await server.call('session_launch', { program: nodeLoop, breakpoints: [{ file: nodeLoop, line: markerLine(nodeLoop, 'BP:body') }], waitForStop: true });
    expect(r.isError, r.text).toBe(false);
    // Python waited for the Node.js launch's turn: the stop came with no Python process beside it.
    expect(census(server).python).toBe(0);
    await server.call('session_stop', {});
    expect(await once(server, readied)).toMatchObject({ readyDebuggees: 1 });
  });

  it('keeps one spare adapter and one ready debuggee at most, after concurrent restarts and a stop', async () => {
    const server = await serverIn({ 'main.py': 'print("hello")\n' });
    await once(server, readied);
    const launched = await server.call('session_launch', { program: loop, breakpoints: [{ file: loop, line: markerLine(loop, 'BP:body') }], waitForStop: true });
    expect(launched.isError, launched.text).toBe(false);
    const restarts = await Promise.all([server.call('session_restart', { waitForStop: true }), server.call('session_restart', { waitForStop: true })]);
    for (const r of restarts) expect(r.isError, r.text).toBe(false);
    await server.call('session_stop', {});
    const after = await once(server, readied);
    expect(after.readyDebuggees).toBe(1);
    // The ready debuggee's own adapter and at most one spare.
    expect(after.adapters).toBeLessThanOrEqual(2);
  });
});
