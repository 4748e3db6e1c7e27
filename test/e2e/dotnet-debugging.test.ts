/**
 * .NET source-level debugging through the real MCP server over stdio, on the lab fixture: line and
 * function breakpoints (loop, async, lambda, generic, class library loaded later), the stack, steps
 * (over / into / out, over an await, into a LINQ lambda, out of external code), the entry stop,
 * exceptions, attach, a program that ends at once, and kill -9 while stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { commandLine, descendants, waitGone } from '../support/processTree.js';
import { requireRuntime } from '../support/runtimes.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Frame {
  name: string;
  file?: string;
  line: number;
}
interface Stop {
  reason: string;
  threadId: number;
  frame: Frame;
  hitBreakpointIds: number[];
  exception?: { type?: string; message?: string };
  source?: { line: number; text: string; current?: boolean }[];
}
interface Wait {
  sessionId: string;
  status: 'stopped' | 'exited' | 'timeout';
  state: string;
  stop?: Stop;
  exitCode?: number;
  pid?: number;
  breakpoints?: { id: number; status: string; verified: boolean; line?: number; actualLine?: number; message?: string }[];
}

describe.runIf(run)('.NET debugging through MCP', () => {
  let client: McpTestClient;
  let lab: string;
  let hello: string;
  const program = fixtureSource('lab', 'Program.cs');
  const shapes = fixtureSource('lab', 'Shapes.cs');
  const thrower = fixtureSource('lab', 'Thrower.cs');
  const pricing = fixtureSource('lablib', 'Pricing.cs');
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    lab = buildFixture('lab');
    hello = buildFixture('hello');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-debug-')) } });
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

  async function launch(mode: string, extra: Record<string, unknown>): Promise<Wait> {
    const r = await client.call<Wait>('session_launch', { program: lab, args: [mode], waitForStop: true, timeoutMs: 30_000, ...extra });
    expect(r.isError, r.text).toBe(false);
    return r.structured;
  }

  async function step(sessionId: string, kind: 'over' | 'into' | 'out'): Promise<Stop> {
    const r = await client.call<Wait>('execution_step', { sessionId, kind, timeoutMs: 10_000 });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.status, r.text).toBe('stopped');
    return r.structured.stop!;
  }

  async function stack(sessionId: string): Promise<Frame[]> {
    const r = await client.call<{ frames: Frame[] }>('inspect_stack', { sessionId });
    expect(r.isError, r.text).toBe(false);
    return r.structured.frames;
  }

  it('walks a loop: breakpoint, stack, step into / out / over, the next hit, the exit code', async () => {
    const loopBody = program.line('loop-body');
    const first = await launch('loop', { breakpoints: [{ file: program.path, line: loopBody }] });
    expect(first.status).toBe('stopped');
    expect(first.stop).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [1], frame: { name: 'Lab.Program.Loop', file: program.path, line: loopBody } });
    expect(first.stop!.source?.find((l) => l.current)?.text).toContain('BP:loop-body');
    const sessionId = first.sessionId;

    const frames = await stack(sessionId);
    expect(frames.map((f) => f.name)).toEqual(['Lab.Program.Loop', 'Lab.Program.Main', '[External Code]']);

    // Like Visual Studio, a step into a method stops on its opening brace (a statement of its own in Debug builds).
    const into = await step(sessionId, 'into');
    expect(into).toMatchObject({ reason: 'step', frame: { name: 'Lab.Program.Add', line: program.line('add-body') - 1 } });
    const out = await step(sessionId, 'out');
    expect(out.frame).toMatchObject({ name: 'Lab.Program.Loop', line: loopBody });
    const over = await step(sessionId, 'over');
    expect(over.frame.name).toBe('Lab.Program.Loop');
    expect(over.frame.line).toBeGreaterThan(loopBody);

    const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 10_000 });
    expect(next.structured.stop, next.text).toMatchObject({ reason: 'breakpoint', frame: { line: loopBody } });
    const list = await client.call<Wait>('breakpoint_list', { sessionId });
    expect(list.structured.breakpoints?.[0]).toMatchObject({ status: 'verified', hits: 2 });

    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 10_000 });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
    const output = await client.call<{ output: string }>('session_output', { sessionId });
    expect(output.structured.output).toContain('total 6');
  });

  it('stops after an await and steps over awaits within the async method', async () => {
    const first = await launch('async', { breakpoints: [{ file: shapes.path, line: shapes.line('first-await') }] });
    expect(first.stop?.frame).toMatchObject({ name: 'Lab.Shapes.MeasureAsync', line: shapes.line('first-await') });
    const afterFirst = await step(first.sessionId, 'over');
    expect(afterFirst.frame).toMatchObject({ name: 'Lab.Shapes.MeasureAsync', line: shapes.line('after-await') });
    await step(first.sessionId, 'over'); // onto `await Task.Yield()`
    const afterYield = await step(first.sessionId, 'over');
    expect(afterYield.frame).toMatchObject({ name: 'Lab.Shapes.MeasureAsync', line: shapes.line('async-return') });
  });

  it('steps out of an async method back to the method awaiting it', async () => {
    const first = await launch('async', { breakpoints: [{ file: shapes.path, line: shapes.line('after-await') }] });
    expect(first.stop?.frame.name).toBe('Lab.Shapes.MeasureAsync');
    // Wherever Main is when the method resumes (its await registered or not), the step ends where it
    // takes the result: its next statement.
    const out = await step(first.sessionId, 'out');
    expect(out.frame).toMatchObject({ name: 'Lab.Program.Main', line: program.line('after-main-await') });
  });

  it('binds a breakpoint after an await in async Main', async () => {
    const first = await launch('async', { breakpoints: [{ file: program.path, line: program.line('after-main-await') }] });
    expect(first.stop?.frame).toMatchObject({ name: 'Lab.Program.Main', line: program.line('after-main-await') });
  });

  it('steps into a LINQ lambda, and binds a lambda by its column', async () => {
    const line = shapes.line('linq');
    const first = await launch('lambda', { breakpoints: [{ file: shapes.path, line }] });
    expect(first.stop?.frame.name).toBe('Lab.Queries.CountEvens');
    const into = await step(first.sessionId, 'into');
    expect(into.frame).toMatchObject({ name: 'Lab.Queries.CountEvens.<lambda>', line });
    await client.call('session_stop', { sessionId: first.sessionId });

    const column = readFileSync(shapes.path, 'utf8').split('\n')[line - 1]!.indexOf('n % 2') + 1;
    const byColumn = await launch('lambda', { breakpoints: [{ file: shapes.path, line, column }] });
    expect(byColumn.stop?.frame.name).toBe('Lab.Queries.CountEvens.<lambda>');
    await client.call('session_stop', { sessionId: byColumn.sessionId });

    // A lambda in a property is named under the property's accessor, as C# names it (not get_Odds).
    const getter = shapes.line('getter-lambda');
    const inGetter = await launch('lambda', { breakpoints: [{ file: shapes.path, line: getter, column: readFileSync(shapes.path, 'utf8').split('\n')[getter - 1]!.indexOf('n % 2') + 1 }] });
    expect(inGetter.stop?.frame).toMatchObject({ name: 'Lab.Queries.Odds.get.<lambda>', line: getter });
  });

  it('stops in a generic method and names it with its type arguments', async () => {
    const first = await launch('generic', { breakpoints: [{ file: shapes.path, line: shapes.line('generic') }] });
    expect(first.stop?.frame).toMatchObject({ name: 'Lab.Box<string>.Describe<int>', line: shapes.line('generic') });
  });

  it('stops in a constructor, a property getter, a local function, an iterator and a nested type, in order', async () => {
    const markers = ['ctor-body', 'getter', 'local-function', 'iterator', 'nested'];
    const first = await launch('shapes', { breakpoints: markers.map((m) => ({ file: shapes.path, line: shapes.line(m) })) });
    const seen: string[] = [];
    let at: Stop | undefined = first.stop;
    while (at && seen.length < 10) {
      seen.push(`${at.frame.name}:${at.frame.line}`);
      at = (await client.call<Wait>('execution_continue', { sessionId: first.sessionId, timeoutMs: 10_000 })).structured.stop;
    }
    expect(seen).toEqual([
      `Lab.Shapes.Shapes:${shapes.line('ctor-body')}`,
      `Lab.Shapes.Sides.get:${shapes.line('getter')}`, // shape.Sides + 1
      `Lab.Shapes.Sides.get:${shapes.line('getter')}`, // Twice(shape.Sides)
      `Lab.Shapes.Run.Twice:${shapes.line('local-function')}`,
      `Lab.Shapes.Numbers:${shapes.line('iterator')}`,
      `Lab.Shapes.Numbers:${shapes.line('iterator')}`,
      `Lab.Shapes.Numbers:${shapes.line('iterator')}`,
      `Lab.Shapes.Outer.Inner.Name:${shapes.line('nested')}`,
    ]);
  });

  it('binds in a class library that loads after Main starts: pending, then hit', async () => {
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['lib'], breakpoints: [{ file: pricing.path, line: pricing.line('lib-tax') }] });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/pending/i);
    const wait = await client.call<Wait>('breakpoint_wait', { sessionId: r.structured.sessionId, timeoutMs: 20_000 });
    expect(wait.structured.stop?.frame).toMatchObject({ name: 'Lab.Library.Pricing.WithTax', file: pricing.path, line: pricing.line('lib-tax') });
    const list = await client.call<Wait>('breakpoint_list', { sessionId: r.structured.sessionId });
    expect(list.structured.breakpoints?.[0]).toMatchObject({ status: 'verified' });
    const frames = await stack(r.structured.sessionId);
    expect(frames.slice(0, 3).map((f) => f.name)).toEqual(['Lab.Library.Pricing.WithTax', 'Lab.Program.UseLibrary', 'Lab.Program.Main']);
  });

  it('stops on entry at the first line of an async Main, then steps to the next line', async () => {
    const first = await launch('loop', { stopOnEntry: true });
    expect(first.stop?.reason).toBe('entry');
    expect(first.stop?.frame.name).toBe('Lab.Program.Main');
    expect(first.stop?.frame.line).toBeLessThanOrEqual(program.line('main-first'));
    let at = first.stop!;
    while (at.frame.line < program.line('main-first')) at = await step(first.sessionId, 'over');
    expect(at.frame).toMatchObject({ name: 'Lab.Program.Main', line: program.line('main-first') });
  });

  it('stops at a function breakpoint', async () => {
    const first = await launch('loop', { functionBreakpoints: ['Program.Add'] });
    expect(first.stop).toMatchObject({ reason: 'function breakpoint', frame: { name: 'Lab.Program.Add', line: program.line('add-body') - 1 } });
  });

  it('stops at an unhandled exception on the throwing line, with its type and message', async () => {
    const first = await launch('throw', {});
    expect(first.stop).toMatchObject({
      reason: 'exception',
      exception: { type: 'System.InvalidOperationException', message: 'invalid: the order was empty' },
      frame: { name: 'Lab.Thrower.Fail', line: thrower.line('throw') },
    });
  });

  it('stops at a first-chance exception chosen by a base type name', async () => {
    const first = await launch('caught', { exceptions: 'all', exceptionTypes: ['InvalidOperationException'] });
    expect(first.stop).toMatchObject({
      reason: 'exception',
      exception: { type: 'System.ObjectDisposedException' },
      frame: { name: 'Lab.Thrower.CatchSome', line: thrower.line('throw-disposed') },
    });
    const end = await client.call<Wait>('execution_continue', { sessionId: first.sessionId, timeoutMs: 10_000 });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
  });

  it('says why a line without code cannot bind', async () => {
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['loop'], stopOnEntry: true, waitForStop: true });
    const set = await client.call<{ breakpoint: { status: string; message?: string } }>('breakpoint_set', {
      sessionId: r.structured.sessionId,
      file: program.path,
      line: 5000,
    });
    expect(set.structured.breakpoint).toMatchObject({ status: 'unverified', message: expect.stringMatching(/no code at or after line 5000/) });
  });

  it('attaches to a running program, hits a breakpoint in its loop, and detaches leaving it running', async () => {
    const release = join(mkdtempSync(join(tmpdir(), 'dbb-spin-')), 'release');
    const child = spawn(dotnet!, [lab, 'spin', release], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    const attach = await client.call<Wait>('session_attach', { language: 'dotnet', pid: child.pid });
    expect(attach.isError, attach.text).toBe(false);
    const { sessionId } = attach.structured;
    await client.call('breakpoint_set', { sessionId, file: thrower.path, line: thrower.line('spin') });
    const hit = await client.call<Wait>('breakpoint_wait', { sessionId, timeoutMs: 20_000 });
    expect(hit.structured.stop?.frame).toMatchObject({ name: 'Lab.Spinner.Spin', line: thrower.line('spin') });
    const stop = await client.call('session_stop', { sessionId, detach: true });
    expect(stop.isError, stop.text).toBe(false);
    writeFileSync(release, 'go');
    expect(await exit).toBe(0);
  });

  it('pauses a running program and steps from external code back into the user code', async () => {
    const release = join(mkdtempSync(join(tmpdir(), 'dbb-spin-')), 'release');
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['spin', release] });
    const sessionId = r.structured.sessionId;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pause = await client.call<Wait>('execution_pause', { sessionId });
    expect(pause.structured.status, pause.text).toBe('stopped');
    expect(pause.structured.stop?.reason).toBe('pause');
    const frames = await stack(sessionId);
    expect(frames.map((f) => f.name)).toContain('Lab.Spinner.Spin');
    const back = await step(sessionId, 'over');
    expect(back.frame.name).toBe('Lab.Spinner.Spin');
    writeFileSync(release, 'go');
  });

  it('stops at the only breakpoint of a program that ends at once, 20 times out of 20', async () => {
    const source = fixtureSource('hello', 'Program.cs');
    let hits = 0;
    for (let i = 0; i < 20; i++) {
      const r = await client.call<Wait>('session_launch', {
        program: hello,
        breakpoints: [{ file: source.path, line: source.line('hello') }],
        waitForStop: true,
        timeoutMs: 30_000,
      });
      if (r.structured.stop?.frame.line === source.line('hello')) hits++;
      await client.call('session_stop', { sessionId: r.structured.sessionId });
    }
    expect(hits).toBe(20);
    // Twenty launches: ~25 s on a quiet CI machine, several times that on a loaded one.
  }, 180_000);

  it('answers a launch that times out on time, with its program ended', async () => {
    const release = join(mkdtempSync(join(tmpdir(), 'dbb-spin-')), 'release');
    const started = Date.now();
    // 10 ms: a launch with the host readied answers in ~30 ms on a quiet machine (100 ms let it finish).
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['spin', release], timeoutMs: 10 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^TIMEOUT: /);
    expect(Date.now() - started).toBeLessThan(2_500);
    // A program whose start was under way at the answer is ended too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const programs = descendants(client.pid!).filter((pid) => commandLine(pid).includes(release));
    expect(await waitGone(programs, 2_000)).toEqual([]);
  });

  it('says exited and leaves no process when the debuggee is killed while stopped', async () => {
    const first = await launch('loop', { breakpoints: [{ file: program.path, line: program.line('loop-body') }] });
    const pid = first.pid ?? (await client.call<{ pid?: number }>('session_state', { sessionId: first.sessionId })).structured.pid!;
    const before = descendants(client.pid!);
    process.kill(pid, 'SIGKILL');
    let state = 'stopped';
    for (let i = 0; i < 100 && state === 'stopped'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = (await client.call<{ state: string }>('session_state', { sessionId: first.sessionId })).structured.state;
    }
    expect(state).toBe('exited');
    const leftovers = before.filter((p) => p === pid);
    expect(await waitGone(leftovers, 5_000)).toEqual([]);
  });
});
