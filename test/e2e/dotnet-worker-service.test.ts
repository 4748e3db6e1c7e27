/**
 * A worker service written as C# 12/13 code is (the orders fixture: the generic host from NuGet, a
 * BackgroundService, primary constructors, records with required/init members, collection
 * expressions, `with`, list and property patterns, a local function, lambdas, an iterator and an async
 * iterator, a generic method over a static abstract member, spans, Lazy<T>, IGrouping), stopped in
 * each kind of frame in the order the program reaches them: what the stop, inspect_variables,
 * inspect_evaluate, inspect_set_variable and watches answer is what C# in the program gives.
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
import { evaluate as evaluateIn, launchTo, type Wait } from '../support/dotnetEvaluation.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Variable {
  name: string;
  value: string;
  type?: string;
}

describe.runIf(run)('.NET worker service in modern C# through MCP (orders fixture)', () => {
  let client: McpTestClient;
  let sessionId: string;
  const book = fixtureSource('orders', 'OrderBook.cs');
  const worker = fixtureSource('orders', 'OrderWorker.cs');
  const domain = fixtureSource('orders', 'Domain.cs');

  beforeAll(async () => {
    const orders = buildFixture('orders');
    await ensureWorkerBuilt(dotnet!);
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-orders-')) } });
    sessionId = (await launchTo(client, orders, book.path, book.line('add'))).sessionId;
  }, 600_000);
  afterAll(async () => {
    await stopActiveSessions(client);
    await client?.close();
  });

  const evaluate = (expression: string) => evaluateIn(client, sessionId, expression);
  const variables = async (path?: string): Promise<Variable[]> => {
    const r = await client.call<{ variables: Variable[] }>('inspect_variables', { sessionId, count: 50, ...(path && { path }) });
    expect(r.isError, r.text).toBe(false);
    return r.structured.variables;
  };
  const listed = async (path?: string) => (await variables(path)).map((v) => `${v.name} = ${v.value}`);
  async function expectValues(cases: [string, string][]): Promise<void> {
    for (const [expression, expected] of cases) {
      const r = await evaluate(expression);
      expect({ value: r.value, error: r.isError ? r.text : undefined }, expression).toEqual({ value: expected, error: undefined });
    }
  }
  /** The next stop at `marker` alone. */
  async function runTo(file: { path: string; line: (marker: string) => number }, marker: string) {
    await client.call('breakpoint_remove', { sessionId, all: true });
    await client.call('breakpoint_set', { sessionId, file: file.path, line: file.line(marker) });
    const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
    expect(next.structured.stop?.frame.line, next.text).toBe(file.line(marker));
    return next;
  }

  it('in a primary-constructor class: its parameters, a computed `field` property by its getter, set and watch', async () => {
    // A property computed into its C# 14 `field` is read by its getter, as C# reads it (its field alone said null).
    expect(await listed('this')).toEqual(['byRegion = Count = 1', 'Summary = "1 regions"']);
    await expectValues([
      ['Gross(order)', '12.0'],
      ['pricing.Value.WithTax(100m)', '120.0'],
      ['byRegion.SelectMany(kv => kv.Value).Count()', '1'],
    ]);
    const set = await client.call<{ value: string }>('inspect_set_variable', { sessionId, name: 'order', value: 'order with { Total = 99m }' });
    expect(set.structured.value, set.text).toContain('Total = 99');
    await client.call('watch_add', { sessionId, expressions: ['order.Id'] });
    const next = await client.call<Wait & { stop?: { locals?: { name: string; value: string; previous?: string }[] } }>('execution_continue', { sessionId, timeoutMs: 60_000 });
    expect(next.text).toContain('watch: order.Id = 1 → 2');
    // A new call of Add from the worker's loop: nothing to compare with (the loop's id, in scope, tells the calls apart; it was
    // listed past the caller's first values among hoisted locals out of scope, and order read 'Order { Id = 1 … → Order { Id = 2 …').
    expect(next.structured.stop?.locals?.find((l) => l.name === 'order'), next.text).not.toHaveProperty('previous');
    await client.call('watch_remove', { sessionId, all: true });
  });

  it('in a generic method over a static abstract member: T.Parse and T.Kind run as C# binds T (Sku)', async () => {
    const stop = await runTo(domain, 'parse-all');
    expect(stop.structured.stop?.frame.name).toBe('Orders.Codes.ParseAll<Orders.Sku>');
    // Was: The name 'T' does not exist in the current context.
    await expectValues([
      ['T.Parse("QQQ-9")', 'Sku { Code = QQQ, Number = 9 }'],
      ['T.Kind', '"sku"'],
      ['parsed.Select(p => p.Number).Sum()', '23'],
      ['parsed[0] with { Number = 5 }', 'Sku { Code = ABC, Number = 5 }'],
      // A tuple inside a generic type keeps its element names (was CS1061 '(string, int)' has no 'text').
      ['seen[0].text', '"ABC-1"'],
      ['seen.Sum(s => s.length)', '11'],
    ]);
    // Tuples inside a generic type keep their names in the type, the items and their elements (was List<System.ValueTuple<string, int>>, Item1),
    // and the items are the list's own, so one can be set (they came through the list's debugger view, a copy).
    expect(stop.text).toContain('seen = Count = 2 (System.Collections.Generic.List<(string text, int length)>)');
    expect((await variables('seen')).map((v) => `${v.name} = ${v.value} (${v.type})`)).toEqual(['[0] = ("ABC-1", 5) ((string text, int length))', '[1] = ("XYZ-22", 6) ((string text, int length))']);
    expect(await listed('seen[0]')).toEqual(['text = "ABC-1"', 'length = 5']);
    const set = await client.call<{ value: string; type?: string }>('inspect_set_variable', { sessionId, path: 'seen[1]', value: '("Q", 1)' });
    expect(set.structured, set.text).toMatchObject({ value: '("Q", 1)', type: '(string text, int length)' });
    // A struct from shared generic code (the list's indexer) by its exact type (was System.ValueTuple<System.__Canon, int>).
    expect(await evaluate('seen[0]')).toMatchObject({ value: '("ABC-1", 5)', type: expect.not.stringContaining('__Canon') });
  });

  it('with spans: a ReadOnlySpan<char> and a Span<int> shown, indexed and sliced; an element of the debugger\'s copy is not set', async () => {
    const stop = await runTo(domain, 'checksum');
    expect(stop.text).toContain('code = "ORD-42" (System.ReadOnlySpan<char>)');
    expect((await listed('weights')).slice(0, 3)).toEqual(['[0] = 3', '[1] = 1', '[2] = 3']);
    await expectValues([
      ['code[0]', "'O'"],
      ['code.Slice(4).ToString()', '"42"'],
      ['weights[1] + sum', '861'],
    ]);
    // The items come from the span's [DebuggerTypeProxy] (an array it copies): was answered as set, the span unchanged.
    const copy = await client.call('inspect_set_variable', { sessionId, path: 'weights[0]', value: '9' });
    expect(copy.text).toMatch(/^INVALID_ARGUMENT: \[0\] is computed for the debugger/);
    const sum = await client.call<{ value: string }>('inspect_set_variable', { sessionId, name: 'sum', value: '7' });
    expect(sum.structured.value).toBe('7');
  });

  it('in a local function with a switch expression: its argument, patterns evaluated', async () => {
    const stop = await runTo(worker, 'describe');
    expect(stop.structured.stop?.frame.name).toBe('Orders.OrderWorker.ExecuteAsync.Describe');
    await expectValues([
      ['o.Id', '5'],
      ['o is { Tags: [var t, ..] } ? t : "none"', '"big"'],
      ['o switch { { Total: > 30m } => "large", _ => "plain" }', '"large"'],
    ]);
  });

  it('in a lambda: its parameter, its local and what it captured', async () => {
    const stop = await runTo(worker, 'lambda');
    expect(stop.structured.stop?.frame.name).toBe('Orders.OrderWorker.ExecuteAsync.<lambda>');
    expect((await variables()).map((v) => v.name)).toEqual(['this', 'book', 'lifetime', 'logger', 'o', 'gross']);
    await expectValues([['book.Gross(o) * 2', '24.0']]);
  });

  it('in an async iterator: only the variables in scope where it stopped', async () => {
    await runTo(book, 'stream');
    // Before the inner foreach: its order is not in scope (was listed as order = null).
    expect((await variables()).map((v) => v.name)).toEqual(['this', 'logger', 'pricing', 'cancellation', 'region', 'orders']);
    await expectValues([
      ['region', '"south"'],
      ['orders.Sum(o => o.Total)', '90'],
    ]);
  });

  it('in an iterator: the element it yields', async () => {
    await runTo(book, 'paid');
    await expectValues([
      ['order.Id', '2'],
      ['All.Count(o => o.Status == Status.Paid)', '2'],
    ]);
  });

  it('in the BackgroundService: its locals in scope, a grouping by key and items, the host\'s values as their [DebuggerDisplay] writes them', async () => {
    const stop = await runTo(worker, 'worker');
    const locals = (await variables()).map((v) => v.name);
    // The loops' id and order are out of scope here (were listed: id = 5, order = null).
    expect(locals).not.toContain('id');
    expect(locals).not.toContain('order');
    // `,nq` writes the string as it is (was Name = \"Orders.OrderWorker\").
    expect(stop.text).toContain('logger = Name = "Orders.OrderWorker", MinLevel = Warning (Microsoft.Extensions.Logging.Logger<Orders.OrderWorker>)');
    // The grouping's debugger view: its key, then its items in the Values' place (RootHidden; Values was null, its lazy field).
    expect(await listed('groups[0]')).toEqual([
      'Key = "south"',
      expect.stringMatching(/^\[0\] = Order \{ Id = 1,/),
      expect.stringMatching(/^\[1\] = Order \{ Id = 3,/),
      expect.stringMatching(/^\[2\] = Order \{ Id = 5,/),
      '[Raw View] = Key = "south"',
    ]);
    await expectValues([
      ['groups.Select(g => g.Key + ":" + g.Count()).First()', '"south:3"'],
      ['first is { Status: Status.New, Tags: [] }', 'true'],
      ['more is [1, .., 5]', 'true'],
      ['shipped.Note', '"sent"'],
      ['missing?.Length ?? -1', '-1'],
      ['book.All.Where(o => o.Total > 20m).Sum(o => o.Id)', '12'],
      // Calls C# binds that the interpreter refused: an optional parameter left out, a string as a ReadOnlySpan<char>,
      // a string's own extension (was: no overload … takes (…), and 'the overload depends on the declared type').
      ['System.Text.Json.JsonSerializer.Serialize(skus[0])', '"{\\"Code\\":\\"ABC\\",\\"Number\\":1}"'],
      ['Codes.Checksum("AB")', '261'],
      ['"abc".AsSpan().Length', '3'],
      // The method's local function, called by the method the compiler made of it (was: has no method Describe).
      ['Describe(first)', '"plain"'],
    ]);
    // An iterator's object is its own class, as C# (and Visual Studio) name it: was {Orders.OrderBook}.
    expect(await evaluate('book.Paid()')).toMatchObject({ type: expect.stringMatching(/^Orders\.OrderBook\.<Paid>d__\d+$/) });
    // C#'s own errors: a required member left out (was: no constructor … takes (int, string, decimal)); a collection
    // expression with nothing to be made as (was CS9174 Cannot initialize type 'object').
    expect((await evaluate('new Order(9, "z", 1m)')).text).toMatch(/^EVALUATION_FAILED: CS9035 Required member 'Order.Region' must be set/);
    expect((await evaluate('[.. ids, 9]')).text).toMatch(/^EVALUATION_FAILED: CS9176 There is no target type for the collection expression/);
    expect(await evaluate('book.StreamAsync()')).toMatchObject({ type: expect.stringMatching(/^Orders\.OrderBook\.<StreamAsync>d__\d+$/) });
    // A collection expression is typed by the variable it is set to, as in C# (was CS9176: no target type).
    const set = await client.call<{ value: string; type?: string }>('inspect_set_variable', { sessionId, name: 'more', value: '[7, 8]' });
    expect(set.structured, set.text).toMatchObject({ value: 'int[2]', type: 'int[]' });
    await expectValues([['more.Sum()', '15']]);
    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
    expect(end.structured.exitCode, end.text).toBe(0);
    const output = await client.call<{ output: string }>('session_output', { sessionId });
    expect(output.structured.output).toContain('done labels=plain,plain,large,plain,large big=2 streamed=15 paid=2 shipped=Shipped');
  });
});
