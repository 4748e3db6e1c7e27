/**
 * .NET breakpoint conditions decided on the debugger thread (src/engines/dotnet/host/hitFilter.ts,
 * native/src/debugger/hit_filter.cpp), through the real MCP server: after the first hit the host
 * hands the compiled condition to the native side, which continues the false hits itself. Each
 * condition here is false for a while and then true, so a filter that computed differently from
 * C# (unsigned wrap-around, int overflow, double and char promotion, string equality, null, `&&`
 * over `||`, fields, auto-properties, lengths, `this`) would stop at another iteration or not at all.
 * Variables the compiler moved into classes (an async method's or iterator's hoisted locals, a
 * lambda's captured ones, `this` of a state machine) are decided there too: session_diagnostics
 * counts the filters and the conditions the host still evaluated.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';

const run = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);

interface Wait {
  sessionId: string;
  status: string;
  stop?: { reason: string; frame: { name: string; line: number }; hitBreakpointIds: number[] };
}

/** The Mix loop's locals at iteration i, as C# computes them (Values.cs). */
function mix(i: number) {
  return {
    i,
    u: BigInt.asUintN(32, BigInt(i) * 3000000000n),
    half: i / 2,
    letter: String.fromCharCode(97 + (i % 26)),
    word: i % 5 === 0 ? null : `w${i % 4}`,
    even: i % 2 === 0,
    order: { Id: i * 10, Customer: i % 3 === 0 ? 'ACME' : `Bolt${i}` },
    point: { X: i, Y: -i },
    /** Tally.Add(i): its field `count` before the line runs. */
    count: (i * (i - 1)) / 2,
  };
}

type Locals = ReturnType<typeof mix>;

const firstWhere = (holds: (l: Locals) => boolean) => {
  for (let i = 0; i < 200; i++) if (holds(mix(i))) return i;
  throw new Error('never true');
};

describe.runIf(run)('.NET conditions decided on the debugger thread', () => {
  let client: McpTestClient;
  let lab: string;
  const values = fixtureSource('lab', 'Values.cs');
  const program = fixtureSource('lab', 'Program.cs');

  beforeAll(async () => {
    lab = buildFixture('lab');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-conditions-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });

  async function evaluate(sessionId: string, expression: string): Promise<string | undefined> {
    const r = await client.call<{ value: string }>('inspect_evaluate', { sessionId, expression });
    expect(r.isError, r.text).toBe(false);
    return r.structured.value;
  }

  it.each([
    ['uint wrap-around with a bool', 'u > 3500000000u && even', (l: Locals) => l.u > 3500000000n && l.even],
    ['int overflow', 'i * 1000000000 < 0 && i > 10', (l: Locals) => BigInt.asIntN(32, BigInt(l.i) * 1000000000n) < 0n && l.i > 10],
    ['double and char', 'half >= 7.5 && letter > \'p\'', (l: Locals) => l.half >= 7.5 && l.letter > 'p'],
    ['strings, null and precedence', '-i < -30 || word == null && i > 12', (l: Locals) => -l.i < -30 || (l.word === null && l.i > 12)],
    ['string equality', 'word == "w3" && i % 7 == 6', (l: Locals) => l.word === 'w3' && l.i % 7 === 6],
    ['an auto-property and a string length', 'order.Id > 150 && order.Customer.Length == 4', (l: Locals) => l.order.Id > 150 && l.order.Customer.length === 4],
    ['fields of a struct', 'point.Y < -40 && point.X % 4 == 1', (l: Locals) => l.point.Y < -40 && l.point.X % 4 === 1],
    ['a field of this and an argument', 'count > 100 && n % 2 == 1', (l: Locals) => l.count > 100 && l.i % 2 === 1, 'tally'],
  ])('stops where C# says it holds: %s', async (_label, condition, holds, marker = 'mix') => {
    const expected = firstWhere(holds);
    const r = await client.call<Wait>('session_launch', {
      program: lab,
      args: ['mix', '200'],
      breakpoints: [{ file: values.path, line: values.line(marker), condition }],
      waitForStop: true,
      timeoutMs: 60_000,
    });
    const counter = marker === 'tally' ? 'n' : 'i';
    expect(r.structured.status, r.text).toBe('stopped');
    expect(await evaluate(r.structured.sessionId, counter)).toBe(String(expected));
    // Once the filter decides, the next true hit still reaches the host and stops.
    const next = firstWhere((l) => l.i > expected && holds(l));
    const again = await client.call<Wait>('execution_continue', { sessionId: r.structured.sessionId, timeoutMs: 60_000 });
    expect(again.structured.status, again.text).toBe('stopped');
    expect(await evaluate(r.structured.sessionId, counter)).toBe(String(next));
    await client.call('session_stop', { sessionId: r.structured.sessionId });
  });

  describe('in code the compiler rewrites (billing fixture: top-level async Main, records, lambdas, an iterator)', () => {
    let billing: string;
    const programCs = fixtureSource('billing', 'Program.cs');
    const ledgerCs = fixtureSource('billing', 'Ledger.cs');
    beforeAll(() => {
      billing = buildFixture('billing');
    });

    interface Diagnostics {
      diagnostics: { engine: { details: { conditions: { filters: number; evaluatedInHost: number } } } };
    }

    it.each([
      ['a hoisted local of an async Main', ['sum', '2000'], programCs, 'sum-async', 'i == 1999', 'i', '1999'],
      ["this's members in an async method (the state machine's <>4__this)", ['settle', '300'], ledgerCs, 'settle', 'Processed == 120 && batchSize == 50', 'i', '119'],
      ["a lambda's captured variables (fields of its display class)", ['late', '300'], ledgerCs, 'late', 'seen == 60 && every == 3', 'invoice.Id', '60'],
      ['a variable a lambda captured, read in its own method (a closure local)', ['collect', '300'], ledgerCs, 'collect', 'paid == 40', 'invoice.Id', '121'],
      ["an iterator's hoisted locals", ['overdue', '300'], ledgerCs, 'overdue', 'seen == 77 && invoice.Id == 77', 'seen', '77'],
    ])('decides on the debugger thread: %s', async (_label, args, file, marker, condition, probe, expected) => {
      const r = await client.call<Wait>('session_launch', {
        program: billing,
        args,
        breakpoints: [{ file: file.path, line: file.line(marker), condition }],
        waitForStop: true,
        timeoutMs: 120_000,
      });
      expect(r.structured.status, r.text).toBe('stopped');
      const sessionId = r.structured.sessionId;
      expect(await evaluate(sessionId, probe)).toBe(expected);
      const d = await client.call<Diagnostics>('session_diagnostics', { sessionId });
      // The first hit is decided in the host, which then installs the filter; the one true hit returns.
      expect(d.structured.diagnostics.engine.details.conditions).toEqual({ filters: 1, evaluatedInHost: 2 });
      await client.call('session_stop', { sessionId });
    });
  });

  it('runs to the end past a condition that is never true', async () => {
    const r = await client.call<Wait & { exitCode?: number }>('session_launch', {
      program: lab,
      args: ['mix', '50'],
      breakpoints: [{ file: values.path, line: values.line('mix'), condition: '1 == 2' }],
      waitForStop: true,
      timeoutMs: 60_000,
    });
    expect(r.structured.status, r.text).toBe('exited');
    expect(r.structured.exitCode).toBe(0);
  });

  it('counts hits only where the condition holds, and logs only there', async () => {
    const line = values.line('mix');
    const counted = await client.call<Wait>('session_launch', {
      program: lab,
      args: ['mix', '200'],
      breakpoints: [{ file: values.path, line, condition: 'i % 3 == 2', hitCondition: '4' }],
      waitForStop: true,
      timeoutMs: 60_000,
    });
    expect(await evaluate(counted.structured.sessionId, 'i')).toBe('11');
    await client.call('session_stop', { sessionId: counted.structured.sessionId });

    const logged = await client.call<Wait>('session_launch', {
      program: lab,
      args: ['mix', '40'],
      breakpoints: [{ file: values.path, line, condition: 'i % 9 == 4', logMessage: 'i={i} word={word}' }],
      waitForStop: true,
      timeoutMs: 60_000,
    });
    expect(logged.structured.status).toBe('exited');
    const output = await client.call<{ output: string }>('session_output', { sessionId: logged.structured.sessionId });
    expect(output.structured.output.split('\n').filter((l) => l.startsWith('i='))).toEqual(['i=4 word=w0', 'i=13 word=w1', 'i=22 word=w2', 'i=31 word=w3']);
  });

  it('loses no hit of another thread while a logpoint runs code in the program', async () => {
    // Each hit runs a property getter (func-eval); the other thread's hit that arrives meanwhile is
    // reported once the evaluation ends, not dropped.
    const rounds = 25;
    const r = await client.call<Wait>('session_launch', {
      program: lab,
      args: ['pair', String(rounds)],
      breakpoints: [{ file: values.path, line: values.line('pair'), logMessage: 'order {order.Id} total {order.Total}' }],
      waitForStop: true,
      timeoutMs: 120_000,
    });
    expect(r.structured.status, r.text).toBe('exited');
    const output = await client.call<{ output: string }>('session_output', { sessionId: r.structured.sessionId, maxChars: 100_000 });
    const logged = output.structured.output.split('\n').filter((l) => l.startsWith('order '));
    const expected = [0, 1000].flatMap((first) => Array.from({ length: rounds }, (_, i) => `order ${first + i} total 2.5`));
    expect([...logged].sort()).toEqual([...expected].sort());
  });

  it('lets a breakpoint added beside a filtered one stop at the next hit', async () => {
    // A function breakpoint's condition is decided natively after its first hit (b == 0); a line
    // breakpoint then joins it on the same statement, with no condition: every hit must stop again.
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['loop'], stopOnEntry: true, waitForStop: true, timeoutMs: 60_000 });
    const conditional = await client.call('breakpoint_set', { sessionId: r.structured.sessionId, function: 'Add', condition: 'b == 2' });
    expect(conditional.isError, conditional.text).toBe(false);
    const first = await client.call<Wait>('execution_continue', { sessionId: r.structured.sessionId, timeoutMs: 60_000 });
    expect(first.structured.status, first.text).toBe('stopped');
    expect(await evaluate(r.structured.sessionId, 'b')).toBe('2');
    // Where the function breakpoint bound (Add's opening brace): the line breakpoint shares it.
    const line = first.structured.stop!.frame.line;
    expect(Math.abs(line - program.line('add-body'))).toBeLessThanOrEqual(1);
    const set = await client.call('breakpoint_set', { sessionId: r.structured.sessionId, file: program.path, line });
    expect(set.isError, set.text).toBe(false);
    const next = await client.call<Wait>('execution_continue', { sessionId: r.structured.sessionId, timeoutMs: 60_000 });
    expect(next.structured.status, next.text).toBe('stopped');
    expect(await evaluate(r.structured.sessionId, 'b')).toBe('3');
    await client.call('session_stop', { sessionId: r.structured.sessionId });
  });
});
