/**
 * .NET set value through the real MCP server, on an invoicing program written as application code is
 * (top-level async Main, records, a record struct, decimals, nullable ints, enums): every kind of
 * value a C# developer assigns while stopped — decimal, DateTime, TimeSpan, Guid, an enum by name and
 * by number, int? to a number and to null, a struct from another variable, an object from another
 * variable, an indexer or a LINQ query (compiled by Roslyn) — into locals, arguments, fields and the
 * hoisted locals of an async method.
 * The program prints what it then computes with, so each new value must really be in its memory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { ensureWorkerBuilt } from '../../src/engines/dotnet/worker/workerBuild.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Wait {
  sessionId: string;
  status: string;
  stop?: { reason: string; frame: { name: string; line: number } };
  exitCode?: number;
}

describe.runIf(run)('.NET set value on application code', () => {
  let client: McpTestClient;
  let billing: string;
  const ledger = fixtureSource('billing', 'Ledger.cs');

  beforeAll(async () => {
    billing = buildFixture('billing');
    // A value the evaluator does not run (a lambda) is compiled in the .NET worker: built once per machine.
    await ensureWorkerBuilt(dotnet!);
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-set-')) } });
  }, 600_000);
  afterAll(async () => {
    await client?.close();
  });
  async function stopInReview(): Promise<string> {
    const r = await client.call<Wait>('session_launch', {
      program: billing,
      args: ['review'],
      breakpoints: [{ file: ledger.path, line: ledger.line('review') }, { file: ledger.path, line: ledger.line('review-async') }],
      waitForStop: true,
      timeoutMs: 60_000,
    });
    expect(r.structured.status, r.text).toBe('stopped');
    return r.structured.sessionId;
  }

  async function set(sessionId: string, name: string, value: string): Promise<string> {
    const r = await client.call<{ value: string }>('inspect_set_variable', { sessionId, name, value });
    expect(r.isError, `${name} = ${value}: ${r.text}`).toBe(false);
    return r.structured.value;
  }

  async function output(sessionId: string): Promise<string> {
    return (await client.call<{ output: string }>('session_output', { sessionId })).structured.output;
  }

  // One stop for the whole block: each case assigns one variable of it, and the last one lets the
  // program run on and print what it computed with all of them.
  describe('in a plain method', () => {
    let sessionId: string;
    beforeAll(async () => {
      sessionId = await stopInReview();
    });
    afterAll(async () => {
      await client.call('session_stop', { sessionId });
    });

    // Read before any assignment below: rounds holds 3, discount holds null.
    it.each([
      ['(int)rounds', '3'],
      ['(long?)rounds', '3'],
      ['(double?)rounds / 2', '1.5'],
      ['(object)rounds', '3'],
      ['(Status?)2', 'Paid'],
      ['(long?)discount', 'null'],
      ['(int)discount', 'EVALUATION_FAILED: System.InvalidOperationException: Nullable object must have a value.'],
      ['(string)rounds', "EVALUATION_FAILED: CS0030 Cannot convert type 'int?' to 'string'"],
    ])('casts the nullable %s as C# does: %s', async (expression, expected) => {
      const r = await client.call<{ value: string }>('inspect_evaluate', { sessionId, expression });
      expect(r.isError ? r.text.split('\n')[0] : r.structured.value).toBe(expected);
    });

    it.each([
      ['an object from an indexer', 'item', 'invoices[2]', 'Invoice { Id = 3,'],
      ['an object from another variable', 'current', 'invoices[6]', 'Invoice { Id = 7,'],
      ['a decimal local from an int', 'net', '1000', '1000'],
      ['a decimal argument from a decimal literal', 'rate', '0.25m', '0.25'],
      ['a DateTime from a call', 'due', 'DateTime.Parse("2026-03-01")', '2026-03-01T00:00:00.0000000'],
      ['a TimeSpan from a call', 'grace', 'TimeSpan.FromHours(36)', '1.12:00:00'],
      ["a Guid from another object's property", 'reference', 'invoices[4].Reference', '00000005-0000-0000-0000-000000000000'],
      ['an enum by name', 'status', 'Status.Paid', 'Paid'],
      ['an int? to a number', 'discount', '15', '15'],
      ['an int? to null', 'rounds', 'null', 'null'],
      ['a record struct from another variable', 'total', 'deposit', '50.00 USD'],
      // The answer reads the struct again, not the copy its fields were listed from (which answered "USD").
      ["a struct local's field", 'total.Currency', '"CHF"', '"CHF"'],
      ['a decimal field', 'this.fee', '3.75m', '3.75'],
      ['an object field', 'this.last', 'item', 'Invoice { Id = 3,'],
      ['an auto-property holding a DateTime', 'this.Closed', 'due', '2026-03-01T00:00:00.0000000'],
      ['a struct field holding a string', 'this.balance', 'deposit', '50.00 USD'],
    ])('assigns %s', async (_label, name, value, shown) => {
      expect(await set(sessionId, name, value)).toContain(shown);
    });

    it('assigns an object from a LINQ query, compiled as an evaluation is', async () => {
      const args = { sessionId, name: 'current', value: 'invoices.Single(i => i.Id == 7)' };
      let r = await client.call<{ value: string }>('inspect_set_variable', args);
      // A server's first compile loads Roslyn in the worker: on a loaded machine that can outlast the wait; ask again, as a user would.
      if (r.isError && r.text.startsWith('TIMEOUT')) r = await client.call<{ value: string }>('inspect_set_variable', args);
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.value).toContain('Invoice { Id = 7,');
    });

    it.each([
      ['a string into an object variable', 'current', '"INV-7"', "Cannot implicitly convert type 'string' to 'Billing.Domain.Invoice'"],
      ['a TimeSpan into a decimal', 'net', 'grace', "Cannot implicitly convert type 'System.TimeSpan' to 'decimal'"],
      ['a double into a decimal', 'net', '1.5', "Cannot implicitly convert type 'double' to 'decimal'"],
      ['a string into an int?', 'discount', '"x"', "Cannot implicitly convert type 'string' to 'int'"],
      ['a list into an object variable', 'item', 'invoices', "Cannot implicitly convert type 'System.Collections.Generic.List<Billing.Domain.Invoice>' to 'Billing.Domain.Invoice'"],
      ['a Money into a DateTime', 'due', 'total', "Cannot implicitly convert type 'Billing.Domain.Money' to 'System.DateTime'"],
    ])('refuses %s, naming both types, and keeps the value', async (_label, name, value, message) => {
      const before = (await client.call<{ value: string }>('inspect_evaluate', { sessionId, expression: name })).structured.value;
      const r = await client.call('inspect_set_variable', { sessionId, name, value });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`INVALID_ARGUMENT: ${message}`);
      expect((await client.call<{ value: string }>('inspect_evaluate', { sessionId, expression: name })).structured.value).toBe(before);
    });

    it('runs on with every new value', async () => {
      const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(next.structured.stop?.frame.line, next.text).toBe(ledger.line('review-async'));
      expect(await output(sessionId)).toContain(
        'current=7 item=3 net=1000 rate=0.25 due=2026-03-01 grace=1.12:00:00 reference=00000005-0000-0000-0000-000000000000 ' +
          'status=Paid discount=15 rounds=none total=50.00 CHF fee=3.75 last=3 closed=2026-03-01 balance=50.00 USD',
      );
    });
  });

  it('sets the hoisted locals of an async method, and the method goes on with them', async () => {
    const sessionId = await stopInReview();
    const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
    expect(next.structured.stop?.frame.line, next.text).toBe(ledger.line('review-async'));
    expect(await set(sessionId, 'net', '99.5m')).toBe('99.5');
    expect(await set(sessionId, 'due', 'due.AddYears(1)')).toContain('2027-01-07');
    expect(await set(sessionId, 'status', '3')).toBe('Refunded');
    expect(await set(sessionId, 'discount', '7')).toBe('7');
    expect(await set(sessionId, 'invoice', 'last')).toContain('Id = 1,');
    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
    expect(end.structured.exitCode, end.text).toBe(0);
    expect(await output(sessionId)).toContain('later net=99.5 due=2027-01-07 status=Refunded discount=7 invoice=1');
  });
});
