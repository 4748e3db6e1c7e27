/**
 * .NET source-level debugging on Windows x64 under Wine, on the lab fixture published for win-x64:
 * a conditional breakpoint, steps into / out / over, values, evaluation with func-eval (methods,
 * property getters, ToString, [DebuggerDisplay]), a value set and seen by the program, a first-chance
 * exception chosen by a base type, a library module that loads after Main started, and live edit
 * refused with its reason when no dotnet.exe builds its Roslyn worker (dotnet-windows-sdk.test.ts applies one).
 */
import { join } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { McpTestClient } from '../../src/demo/mcpClient.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';
import { bedAvailable, prepareBed, winPath } from './support/bed.mjs';
import { startWindowsServer, type WindowsServer } from './support/windowsServer.js';

const run = requireRuntime('the Windows test bed (apt-get install wine64 g++-mingw-w64-x86-64-posix; dotnet)', bedAvailable());

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
}
interface Wait {
  sessionId: string;
  status: 'stopped' | 'exited' | 'timeout';
  stop?: Stop;
  exitCode?: number;
}

describe.runIf(run)('.NET debugging on Windows x64 (Wine)', () => {
  let server: WindowsServer;
  let client: McpTestClient<Transport>;
  let lab: string;
  const program = fixtureSource('lab', 'Program.cs');
  const values = fixtureSource('lab', 'Values.cs');
  const thrower = fixtureSource('lab', 'Thrower.cs');
  const pricing = fixtureSource('lablib', 'Pricing.cs');

  beforeAll(async () => {
    const bed = prepareBed(['lab']);
    lab = winPath(join(bed.apps.lab!, 'lab.exe'));
    server = await startWindowsServer(bed.node);
    client = server.client;
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await client.stopActiveSessions();
  });

  async function launch(mode: string, extra: Record<string, unknown>): Promise<Wait> {
    const r = await client.call<Wait>('session_launch', { program: lab, args: [mode], waitForStop: true, timeoutMs: 90_000, ...extra });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.status, r.text).toBe('stopped');
    return r.structured;
  }

  async function step(sessionId: string, kind: 'over' | 'into' | 'out'): Promise<Stop> {
    const r = await client.call<Wait>('execution_step', { sessionId, kind, timeoutMs: 30_000 });
    expect(r.structured.status, r.text).toBe('stopped');
    return r.structured.stop!;
  }

  async function evaluate(sessionId: string, expression: string): Promise<string> {
    const r = await client.call<{ value: string }>('inspect_evaluate', { sessionId, expression });
    expect(r.isError, r.text).toBe(false);
    return r.structured.value;
  }

  it('a condition picks the third round; a value set there is what the program goes on with; steps into, out of and over a call', async () => {
    const loopBody = program.line('loop-body');
    const first = await launch('loop', { breakpoints: [{ file: winPath(program.path), line: loopBody, condition: 'i == 2' }] });
    expect(first.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'Lab.Program.Loop', file: winPath(program.path), line: loopBody } });
    const { sessionId } = first;
    expect(await evaluate(sessionId, 'i')).toBe('2');
    expect(await evaluate(sessionId, 'total')).toBe('1');
    // A call of the program's own method runs in the program (func-eval).
    expect(await evaluate(sessionId, 'Add(total, 10)')).toBe('11');
    const set = await client.call('inspect_set_variable', { sessionId, name: 'total', value: '100' });
    expect(set.isError, set.text).toBe(false);

    const into = await step(sessionId, 'into');
    expect(into.frame).toMatchObject({ name: 'Lab.Program.Add', line: program.line('add-body') - 1 });
    const out = await step(sessionId, 'out');
    expect(out.frame).toMatchObject({ name: 'Lab.Program.Loop', line: loopBody });
    const over = await step(sessionId, 'over');
    expect(over.frame.name).toBe('Lab.Program.Loop');
    expect(over.frame.line).toBeGreaterThan(loopBody);

    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
    const output = await client.call<{ output: string }>('session_output', { sessionId });
    expect(output.structured.output).toContain('total 105');
  });

  it('shows values as C# does and evaluates property getters, methods and ToString() by func-eval', async () => {
    const first = await launch('values', { breakpoints: [{ file: winPath(values.path), line: values.line('values') }] });
    const { sessionId } = first;
    const locals = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { sessionId });
    const byName = Object.fromEntries(locals.structured.variables.map((v) => [v.name, v.value]));
    expect(byName).toMatchObject({ number: '42', text: '"say \\"hi\\"\\n"', order: 'Order #7 for ACME (2 lines)', temperature: '21.5 C' });
    expect(await evaluate(sessionId, 'order.Total')).toBe('5.0');
    expect(await evaluate(sessionId, 'order.Describe("#", 5)')).toBe('"   #7"');
    expect(await evaluate(sessionId, 'temperature.ToString()')).toBe('"21.5 C"');
    expect(await evaluate(sessionId, 'numbers[1] + list[2]')).toBe('32');
    // Live edit builds its Roslyn worker with the .NET SDK, which this server has none of: the answer says so.
    const edit = await client.call('session_apply_changes', { sessionId });
    expect(edit.isError).toBe(true);
    expect(edit.text).toMatch(/^ENGINE_UNAVAILABLE: applying C# edits needs the \.NET SDK/);
  });

  it('stops at a first-chance exception chosen by a base type name, with its type and the throwing frame', async () => {
    const first = await launch('caught', { exceptions: 'all', exceptionTypes: ['InvalidOperationException'] });
    expect(first.stop).toMatchObject({
      reason: 'exception',
      exception: { type: 'System.ObjectDisposedException' },
      frame: { name: 'Lab.Thrower.CatchSome', file: winPath(thrower.path), line: thrower.line('throw-disposed') },
    });
    const end = await client.call<Wait>('execution_continue', { sessionId: first.sessionId, timeoutMs: 30_000 });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
  });

  it('binds a breakpoint in a class library that loads after Main started', async () => {
    const first = await launch('lib', { breakpoints: [{ file: winPath(pricing.path), line: pricing.line('lib-tax') }] });
    expect(first.stop).toMatchObject({ reason: 'breakpoint', frame: { file: winPath(pricing.path), line: pricing.line('lib-tax') } });
  });
});
