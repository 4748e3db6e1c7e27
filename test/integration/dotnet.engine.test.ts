/**
 * The .NET engine against real programs, driven directly (no MCP): launch forms, runtime events,
 * exceptions, user breaks, attach / pause / threads / detach, kill -9, and the clear errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { DebugError } from '../../src/core/errors.js';
import { engine as dotnetFactory } from '../../src/engines/dotnet/index.js';
import { loadAddon, NativeError } from '../../src/engines/dotnet/addon.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture, fixtureAppHost, fixtureProject } from '../fixtures/dotnet/fixtures.js';
import { requireRuntime } from '../support/runtimes.js';
import { createEngine, isAlive, launchConfig, type RecordingContext } from './dotnetEngineHarness.js';

const dotnet = findDotnet();
// Launch and the own runtime access are Linux-only so far (macOS needs dbgshim, Windows is not implemented).
const available = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

describe.skipIf(!available)('dotnet engine (integration)', () => {
  let hello: string;
  let waiter: string;
  const engines: Engine[] = [];
  const children: ChildProcess[] = [];

  beforeAll(() => {
    hello = buildFixture('hello');
    waiter = buildFixture('waiter');
  });

  afterEach(async () => {
    for (const e of engines.splice(0)) await e.dispose();
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  function start(): { engine: Engine; context: RecordingContext } {
    const created = createEngine();
    engines.push(created.engine);
    return created;
  }

  function startWaiter(extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; release: () => void }> {
    const dir = mkdtempSync(join(tmpdir(), 'dotnet-waiter-'));
    const releaseFile = join(dir, 'release');
    const child = spawn(dotnet!, [waiter, releaseFile], { env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve({ child, release: () => writeFileSync(releaseFile, 'go') });
      });
      child.on('exit', (code) => reject(new Error(`waiter exited early with ${code}: ${out}`)));
      setTimeout(() => reject(new Error('waiter not ready')), 20_000);
    }).finally(() => undefined) as Promise<{ child: ChildProcess; release: () => void }>;
  }

  it('detects the runtime and tells the truth about its capabilities', async () => {
    const availability = await dotnetFactory.detect();
    expect(availability.available).toBe(true);
    expect(availability.version).toMatch(/^\d+\.\d+/);
    expect(dotnetFactory.capabilities.pause).toBe(true);
    expect(dotnetFactory.capabilities.setVariable).toBe(true);
    expect(dotnetFactory.claims!(fixtureProject('hello'))).toBe(true);
  });

  it('launches a dll: module load of the app, output, exit code 7', async () => {
    const { engine, context } = start();
    const result = await engine.launch(
      launchConfig(hello, { args: ['plain', 'x y'], env: { FIXTURE_VALUE: 'v1' }, breakpoints: [{ id: 1, file: '/x/Program.cs', line: 3 }] }),
    );
    expect(result.pid).toBeGreaterThan(0);
    expect(result.breakpoints[0]).toMatchObject({ id: 1, verified: false });
    const module = await context.waitFor('module', (e) => e.path?.endsWith('hello.dll') ?? false);
    expect(module.name).toBe('hello.dll');
    const exited = await context.waitFor('exited');
    expect(exited.exitCode).toBe(7);
    await context.waitFor('terminated');
    expect(context.output('stdout')).toContain('hello from dotnet');
    expect(context.output('stdout')).toContain('args: plain,x y; FIXTURE_VALUE=v1');
    expect(context.output('stderr')).toContain('to stderr');
    expect(context.events.some((e) => e.type === 'process')).toBe(true);
    expect(context.events.some((e) => e.type === 'thread' && e.reason === 'started')).toBe(true);
    // Everything the program printed arrives before the exit.
    const exitIndex = context.events.findIndex((e) => e.type === 'exited');
    const lastOutput = context.events.map((e) => e.type).lastIndexOf('output');
    expect(lastOutput).toBeLessThan(exitIndex);
  });

  it('launches an apphost executable', async () => {
    const { engine, context } = start();
    await engine.launch(launchConfig(fixtureAppHost('hello')));
    expect((await context.waitFor('exited')).exitCode).toBe(7);
  });

  it('builds and launches a project folder', async () => {
    const { engine, context } = start();
    await engine.launch(launchConfig(fixtureProject('hello')));
    expect((await context.waitFor('exited', () => true, 60_000)).exitCode).toBe(7);
  }, 180_000);

  it('reports compile errors as LAUNCH_BUILD_FAILED', async () => {
    const { engine } = start();
    const error = await engine.launch(launchConfig(join(fixtureProject('broken'), 'broken.csproj'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DebugError);
    expect((error as DebugError).code).toBe('LAUNCH_BUILD_FAILED');
    expect((error as DebugError).message).toMatch(/CS0029/);
  }, 180_000);

  it('stops on an unhandled exception with its type and message, reports handled ones as output', async () => {
    const { engine, context } = start();
    await engine.launch(launchConfig(hello, { args: ['throw'] }));
    const stop = await context.waitFor('stopped');
    expect(stop.reason).toBe('exception');
    expect(stop.exception).toMatchObject({ type: 'System.InvalidOperationException', message: 'boom', kind: 'unhandled' });
    expect(context.output('console')).toContain("Exception thrown: 'System.ArgumentException': handled one");
    const threads = await engine.threads();
    expect(threads.map((t) => t.id)).toContain(stop.threadId);
    await engine.continue();
    const exited = await context.waitFor('exited');
    expect(exited.exitCode).not.toBe(0);
  });

  it('stops at Debugger.Break() and goes on', async () => {
    const { engine, context } = start();
    await engine.launch(launchConfig(hello, { args: ['break'] }));
    const stop = await context.waitFor('stopped');
    expect(stop.reason).toBe('pause');
    await engine.continue();
    expect((await context.waitFor('exited')).exitCode).toBe(3);
    expect(context.output('stdout')).toContain('after break');
  });

  it('attaches to a running program, pauses, lists threads, detaches and the program runs on', async () => {
    const { child, release } = await startWaiter();
    const childExit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const { engine, context } = start();
    await engine.attach({ pid: child.pid!, breakpoints: [], functionBreakpoints: [], exceptions: { filters: ['uncaught'] }, options: {} });
    await context.waitFor('module', (e) => e.path?.endsWith('waiter.dll') ?? false);
    await engine.pause();
    const stop = await context.waitFor('stopped');
    expect(stop.reason).toBe('pause');
    const threads = await engine.threads();
    expect(threads.find((t) => t.id === child.pid)?.name).toBe('Main Thread');
    expect(threads.some((t) => t.name === 'fixture-worker')).toBe(true);
    await engine.continue();
    await engine.detach();
    await context.waitFor('terminated');
    expect(context.events.some((e) => e.type === 'exited')).toBe(false);
    expect(isAlive(child.pid!)).toBe(true);
    release();
    expect(await childExit).toBe(0);
  });

  it('says exited when the debuggee is killed with SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dotnet-kill-'));
    const { engine, context } = start();
    const { pid } = await engine.launch(launchConfig(waiter, { args: [join(dir, 'never')] }));
    await context.waitFor('output', (e) => e.text.includes('ready'));
    process.kill(pid!, 'SIGKILL');
    const exited = await context.waitFor('exited');
    expect(exited.signal).toBe('SIGKILL');
    await context.waitFor('terminated');
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no process behind when disposed while running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dotnet-dispose-'));
    const { engine, context } = start();
    const { pid } = await engine.launch(launchConfig(waiter, { args: [join(dir, 'never')] }));
    await context.waitFor('output', (e) => e.text.includes('ready'));
    await engine.dispose();
    expect(isAlive(pid!)).toBe(false);
  });

  it('refuses DOTNET_EnableDiagnostics=0 with a clear error', async () => {
    const { engine } = start();
    const error = await engine.launch(launchConfig(hello, { env: { DOTNET_EnableDiagnostics: '0' } })).catch((e: unknown) => e);
    expect((error as DebugError).code).toBe('DEBUGGING_DISABLED');
    expect((error as DebugError).message).toContain('DOTNET_EnableDiagnostics=0');
  });

  it('refuses to attach to a process with debugging disabled, without hanging', async () => {
    const { child } = await startWaiter({ DOTNET_EnableDiagnostics: '0' });
    const { engine } = start();
    const error = await engine
      .attach({ pid: child.pid!, breakpoints: [], functionBreakpoints: [], exceptions: { filters: [] }, options: {} })
      .catch((e: unknown) => e);
    expect((error as DebugError).code).toBe('DEBUGGING_DISABLED');
    // The native layer says so too when the environment check is bypassed (pipe missing).
    const addon = loadAddon();
    const session = new addon.Session(() => undefined);
    const started = Date.now();
    const nativeError = await session.call('attachRunning', { pid: child.pid!, timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(nativeError).toBeInstanceOf(NativeError);
    expect((nativeError as NativeError).code).toBe('TRANSPORT_NOT_FOUND');
    expect(Date.now() - started).toBeLessThan(5_000);
    await session.close();
  });

  it('explains a TMPDIR that differs from the debugger', async () => {
    const { engine } = start();
    const error = await engine.launch(launchConfig(hello, { env: { TMPDIR: '/var/tmp/elsewhere' } })).catch((e: unknown) => e);
    expect((error as DebugError).code).toBe('LAUNCH_FAILED');
    expect((error as DebugError).message).toContain('TMPDIR');
  });

  it('answers INVALID_STATE before a start', async () => {
    const { engine } = start();
    await expect(engine.stackTrace(1, 0, 10)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(engine.evaluate('1+1', undefined, 'repl')).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect(existsSync(hello)).toBe(true);
  });
});
