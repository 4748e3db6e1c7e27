/**
 * C# answers by declared types on the pricing fixture (an async method of a class with a primary
 * constructor, records, an explicit interface implementation, a `new`-hidden property): overloads,
 * extension methods, generic inference and `params` are chosen by the type a local, field, property,
 * array element, call or cast is declared with, not by the object it holds; members are those of the
 * declared type; casts are checked as the compiler and the runtime check them; in generic methods a
 * value typed by a type parameter is the frame's type argument, bound by its constraint;
 * primary-constructor parameters are named as the source names them, in the hand-written evaluator
 * and the compiled one.
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
import { evaluate as evaluateIn, launchTo, topFrame, type Wait } from '../support/dotnetEvaluation.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

describe.runIf(run)('.NET evaluation by declared types and primary-constructor parameters (pricing fixture)', () => {
  let client: McpTestClient;
  let pricing: string;
  const catalog = fixtureSource('pricing', 'Catalog.cs');
  const evaluate = (sessionId: string, expression: string) => evaluateIn(client, sessionId, expression);

  beforeAll(async () => {
    pricing = buildFixture('pricing');
    await ensureWorkerBuilt(dotnet!);
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-pricing-')) } });
  }, 600_000);
  afterAll(async () => {
    await stopActiveSessions(client);
    await client?.close();
  });

  describe('at a stop in an async method', () => {
    let sessionId: string;

    beforeAll(async () => {
      sessionId = (await launchTo(client, pricing, catalog.path, catalog.line('run'))).sessionId;
    }, 180_000);

    // A message names the type searched as C# does, by its type arguments: never List<T> nor List`1.
    it.each([
      ['names.Frobnicate()', "'System.Collections.Generic.IEnumerable<string>' has no method Frobnicate"],
      ['names.Nope', "'System.Collections.Generic.IEnumerable<string>' has no member named 'Nope'"],
      ['((IList<string>)bag).Nope', "'System.Collections.Generic.IList<string>' has no member named 'Nope'"],
      ['new Dictionary<string, List<Quote>>().Frob()', "'System.Collections.Generic.Dictionary<string, System.Collections.Generic.List<Pricing.Quote>>' has no method Frob"],
      ['((List<string>)bag).Add(1, 2)', 'no overload of System.Collections.Generic.List<string>.Add takes (int, int)'],
      ['new List<int>("x")', 'no constructor of System.Collections.Generic.List<int> takes (string)'],
      ['(string)new List<int>()', "CS0030 Cannot convert type 'System.Collections.Generic.List<int>' to 'string'"],
      ['row.Nope', "'object[]' has no member named 'Nope'"],
      ['quote.Sku.Nope', "'string' has no member named 'Nope'"],
    ])('%s names its type as C# does', async (expression, message) => {
      expect((await evaluate(sessionId, expression)).text).toContain(`EVALUATION_FAILED: ${message}`);
    });

    // [expression, what C# answers]: each would be another overload or member by the object's own type.
    it.each([
      ['Describer.Describe(local)', '"object"'],
      ['Describer.Describe(cast)', '"object"'],
      ['Describer.Describe(boxed)', '"object"'],
      ['Describer.Describe(Current)', '"object"'],
      ['Describer.Describe(Lookup())', '"object"'],
      ['Describer.Describe(row[0])', '"object"'],
      ['Describer.Describe(special)', '"item"'],
      ['Describer.Describe(item)', '"item"'],
      ['Describer.Describe((Item)item)', '"item"'],
      ['Describer.Describe((object)special)', '"object"'],
      ['Describer.Describe(quote.Sku)', '"string"'],
      ['Describer.Join("-", bag)', '"object"'],
      ['Describer.Join("-", names)', '"generic String"'],
      ['string.Join("-", bag)', '"System.Collections.Generic.List`1[System.String]"'],
      ['string.Concat(names)', '"abbccc"'],
      ['Describer.Count(packed)', '"params 1"'],
      ['Describer.Count(row)', '"params 2"'],
      ['local.Tag()', '"object tag"'],
      ['quote.Sku.Tag()', '"string tag"'],
      ['label.Name', '"label pen"'],
      ['special.Name', '"item ink"'],
      ['((ILabel)special).Name', '"label ink"'],
      ['((Special)special).Name', '"special ink"'],
      ['local is string', 'true'],
    ])('%s = %s', async (expression, expected) => {
      const r = await evaluate(sessionId, expression);
      expect(r.isError, r.text).toBe(false);
      expect(r.value).toBe(expected);
    });

    it('the stop is where it was after them', async () => {
      expect(await topFrame(client, sessionId)).toMatchObject({ line: catalog.line('run') });
    });

    // [cast or constant arithmetic, what C# answers or the error it gives]: refused as the compiler refuses, thrown as the runtime throws, computed when legal.
    it.each([
      ['(decimal)quote', '2.5'],
      ['(DayOfWeek)2', 'Tuesday'],
      ['(string)quote', /^EVALUATION_FAILED: CS0030 Cannot convert type 'Pricing\.Quote' to 'string'/],
      ['(int)"a"', /^EVALUATION_FAILED: CS0030 Cannot convert type 'string' to 'int'/],
      ['(int)long.MaxValue', /^EVALUATION_FAILED: CS0221 Constant value '9223372036854775807' cannot be converted to a 'int'/],
      ['(IDisposable)"x"', /^EVALUATION_FAILED: CS0030 Cannot convert type 'string' to 'System\.IDisposable'/],
      ['3 as string', /^EVALUATION_FAILED: CS0039 Cannot convert type 'int' to 'string' via a reference conversion/],
      ['label as int', /^EVALUATION_FAILED: CS0077 The as operator must be used with a reference type or nullable type/],
      ['(Special)label', /^EVALUATION_FAILED: System\.InvalidCastException: Unable to cast object of type 'Pricing\.Item' to type 'Pricing\.Special'\./],
      ['(long)row[1]', /^EVALUATION_FAILED: System\.InvalidCastException: Unable to cast object of type 'System\.Int32' to type 'System\.Int64'\./],
      ['(long)(object)3', /^EVALUATION_FAILED: System\.InvalidCastException: Unable to cast object of type 'System\.Int32' to type 'System\.Int64'\./],
      ['int.MaxValue + 1', /^EVALUATION_FAILED: CS0220 The operation overflows at compile time in checked mode/],
      ['(int)(decimal)quote / 0', /^EVALUATION_FAILED: System\.DivideByZeroException: Attempted to divide by zero\./],
    ])('cast or constant %s: %s, and the stop is intact', async (expression, expected) => {
      const r = await evaluate(sessionId, expression);
      if (typeof expected === 'string') expect({ value: r.value, error: r.isError ? r.text : undefined }).toEqual({ value: expected, error: undefined });
      else expect(r.text).toMatch(expected);
      expect(await topFrame(client, sessionId)).toMatchObject({ line: catalog.line('run') });
    });

    // Primary-constructor parameters the class's members use: the hand-written evaluator, then the compiled one (lambdas).
    it.each([
      ['title', '"spring"'],
      ['title.Length', '6'],
      ['title == "spring"', 'true'],
      ['log.GetType().Name', '"ConsoleLog"'],
      ["title.Where(c => c == 'p').Count()", '1'],
      ['new[] { title, local as string }.Select(s => s!.Length).Sum()', '11'],
    ])('primary-constructor parameter: %s = %s', async (expression, expected) => {
      const r = await evaluate(sessionId, expression);
      expect(r.isError, r.text).toBe(false);
      expect(r.value).toBe(expected);
    });

    it('lists the primary-constructor parameters among the frame\'s variables under their own names', async () => {
      const r = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { sessionId, count: 100 });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.variables.find((v) => v.name === 'title')?.value).toBe('"spring"');
      expect(r.text).not.toContain('<title>P');
    });
  });

  describe('in a generic method of a generic class, a generic async method, then a static generic method', () => {
    const shelf = fixtureSource('pricing', 'Shelf.cs');
    let sessionId: string;

    beforeAll(async () => {
      sessionId = (await launchTo(client, pricing, shelf.path, shelf.line('front'))).sessionId;
    }, 180_000);

    // A value typed by a type parameter is the frame's type argument (Shelf<Item>.Front<string>); its constraint (T : ILabel) binds members and overloads first, as C# does.
    it.each([
      ['first.Name', '"label ink"'],
      ['first.Sku', '"ink"'],
      ['Describer.Describe(first)', '"object"'],
      ['Describer.Join("-", all)', '"generic Item"'],
      ['(string)first', /^EVALUATION_FAILED: CS0030 Cannot convert type 'Pricing\.Item' to 'string'/],
      // A delegate argument invoked by its name, as the method's own code does (was: 'Shelf<Item>' has no method key).
      ['key(first)', '"ink"'],
    ])('%s: %s, and the stop is intact', async (expression, expected) => {
      const r = await evaluate(sessionId, expression);
      if (typeof expected === 'string') expect({ value: r.value, error: r.isError ? r.text : undefined }).toEqual({ value: expected, error: undefined });
      else expect(r.text).toMatch(expected);
      expect(await topFrame(client, sessionId)).toEqual({ name: 'Pricing.Shelf<Pricing.Item>.Front<string>', line: shelf.line('front') });
    });

    it("reads a generic async method's hoisted locals by its class's type argument (Shelf<Item>.CountAsync)", async () => {
      await client.call('breakpoint_set', { sessionId, file: shelf.path, line: shelf.line('counted') });
      const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
      expect(next.structured.stop?.frame, next.text).toMatchObject({ name: 'Pricing.Shelf<Pricing.Item>.CountAsync', line: shelf.line('counted') });
      expect((await evaluate(sessionId, 'last.Name')).value).toBe('"label ink"');
      expect((await evaluate(sessionId, 'Describer.Describe(last)')).value).toBe('"object"');
      // T is the class's type argument in this instantiation (was refused: the compiled evaluation did not know T).
      expect((await evaluate(sessionId, 'typeof(T).Name')).value).toBe('"Item"');
      expect(await topFrame(client, sessionId)).toEqual({ name: 'Pricing.Shelf<Pricing.Item>.CountAsync', line: shelf.line('counted') });
    }, 120_000);

    it("reads a static generic method's values by its type argument (Pick<decimal>)", async () => {
      await client.call('breakpoint_remove', { sessionId, all: true });
      await client.call('breakpoint_set', { sessionId, file: shelf.path, line: shelf.line('pick') });
      const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
      expect(next.structured.stop?.frame, next.text).toMatchObject({ name: 'Pricing.Picking.Pick<decimal>', line: shelf.line('pick') });
      expect((await evaluate(sessionId, 'choices.Count + (int)chosen')).value).toBe('4');
      expect((await evaluate(sessionId, 'Describer.Describe(chosen)')).value).toBe('"object"');
      expect((await evaluate(sessionId, 'typeof(T) == typeof(decimal)')).value).toBe('true');
      // T inside a type the expression writes (was: 'T' could not be found in the program's loaded modules).
      expect((await evaluate(sessionId, 'new List<T> { chosen }.Count')).value).toBe('1');
      expect((await evaluate(sessionId, 'typeof(T[]) == typeof(decimal[])')).value).toBe('true');
      expect(await topFrame(client, sessionId)).toEqual({ name: 'Pricing.Picking.Pick<decimal>', line: shelf.line('pick') });
    }, 120_000);

    it('binds T to a type argument that is itself an array (Pick<int[]>): typeof(T), typeof(List<T>), typeof(T[])', async () => {
      const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
      expect(next.structured.stop?.frame, next.text).toMatchObject({ name: 'Pricing.Picking.Pick<int[]>', line: shelf.line('pick') });
      // Was CS0246 'T' could not be found: an alias named only a type definition.
      for (const [expression, expected] of [
        ['typeof(T) == typeof(int[])', 'true'],
        ['typeof(List<T>) == typeof(List<int[]>)', 'true'],
        ['typeof(T[]).Name', '"Int32[][]"'],
        ['new List<T> { chosen }[0].Length', '2'],
      ]) {
        const r = await evaluate(sessionId, expression!);
        expect({ value: r.value, error: r.isError ? r.text : undefined }, expression).toEqual({ value: expected, error: undefined });
      }
    }, 120_000);

    describe('in a generic async method constrained on two interfaces (Ranking.TopAsync<decimal>), generic calls as a C# user writes them', () => {
      const ranking = fixtureSource('pricing', 'Ranking.cs');
      const frame = { name: 'Pricing.Ranking.TopAsync<decimal>', line: ranking.line('top') };
      const method = "'Pricing\\.Ranking\\.Largest<T>\\(System\\.Collections\\.Generic\\.IEnumerable<T>\\)'";
      const refused = (code: string, text: string) => new RegExp(`^EVALUATION_FAILED: ${code} ${text}`);

      it('stops there', async () => {
        await client.call('breakpoint_remove', { sessionId, all: true });
        await client.call('breakpoint_set', { sessionId, file: ranking.path, line: ranking.line('top') });
        const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
        expect(next.structured.stop?.frame, next.text).toMatchObject(frame);
      }, 120_000);

      // T is inferred from the arguments and every constraint checked: what C# compiles runs, what it refuses is refused with its error, naming T.
      it.each([
        ['Ranking.Largest(prices)', '2.5'],
        ['Ranking.Largest(new[] { "pen", "ink" })', '"pen"'],
        ['top.CompareTo(prices[0])', '1'],
        ['Ranking.Same(top, 2.5m)', 'true'],
        ['Ranking.Skus(new List<Item> { new Item("pen"), new Special("ink") })', '"ink,pen"'],
        ['Ranking.Keep("x")', '"kept x"'],
        ['Ranking.Pack(7)', '"packed 7"'],
        ['Ranking.Fresh<ConsoleLog>()', '"fresh Pricing.ConsoleLog"'],
        ['Ranking.Shown(7)', '"value 7"'],
        ['Ranking.Shown("pen")', '"object pen"'],
        ['Ranking.Largest(new[] { 1.5m, 4m, 2.5m })', '4'],
        ['Ranking.Largest(Enumerable.Repeat(top, 2))', '2.5'],
        ['new long?[] { 5, null }[0]', '5'],
        ['typeof(T).FullName', '"System.Decimal"'],
        ['Comparer<decimal>.Default.Compare(top, 1m)', '1'],
        ['$"{top,8:F3}|{prices[0]:0.00}|{DateTime.MinValue:yyyy-MM-dd}"', '"   2.500|1.50|0001-01-01"'],
        ['Ranking.Largest(new List<object> { 1 })', refused('CS0311', `The type 'object' cannot be used as type parameter 'T' in the generic type or method ${method}\\. There is no implicit reference conversion from 'object' to 'System\\.IComparable<object>'\\.`)],
        ['Ranking.Largest(new[] { new Quote("pen", 1m) })', refused('CS0311', `The type 'Pricing\\.Quote' cannot be used as type parameter 'T' .* from 'Pricing\\.Quote' to 'System\\.IComparable<Pricing\\.Quote>'`)],
        ['Ranking.Largest(new[] { DayOfWeek.Monday })', refused('CS0315', `The type 'System\\.DayOfWeek' cannot be used as type parameter 'T' .* no boxing conversion from 'System\\.DayOfWeek' to 'System\\.IComparable<System\\.DayOfWeek>'`)],
        ['Ranking.Largest(5)', refused('CS0411', `The type arguments for method ${method} cannot be inferred from the usage\\.`)],
        ['Ranking.Skus(new List<ConsoleLog>())', refused('CS0311', "The type 'Pricing\\.ConsoleLog' cannot be used as type parameter 'TLabel' .* to 'Pricing\\.Item'")],
        ['Ranking.Keep(7)', refused('CS0452', "The type 'int' must be a reference type in order to use it as parameter 'TItem'")],
        ['Ranking.Pack("x")', refused('CS0453', "The type 'string' must be a non-nullable value type in order to use it as parameter 'TItem'")],
        ['Ranking.Fresh<Quote>()', refused('CS0310', "'Pricing\\.Quote' must be a non-abstract type with a public parameterless constructor in order to use it as parameter 'TItem'")],
        ['new Shelf<Quote>("A1")', refused('CS0311', "The type 'Pricing\\.Quote' cannot be used as type parameter 'T' in the generic type or method 'Pricing\\.Shelf<T>'\\. There is no implicit reference conversion from 'Pricing\\.Quote' to 'Pricing\\.ILabel'\\.")],
        ['Math.Round(top)', /^EVALUATION_FAILED: no overload of System\.Math\.Round takes \(T\)/],
        ['Math.Max(top, 3m)', /^EVALUATION_FAILED: no overload of System\.Math\.Max takes \(T, decimal\)/],
      ])('%s: %s, and the stop is intact', async (expression, expected) => {
        const r = await evaluate(sessionId, expression);
        if (typeof expected === 'string') expect({ value: r.value, error: r.isError ? r.text : undefined }).toEqual({ value: expected, error: undefined });
        else expect(r.text).toMatch(expected);
        expect(await topFrame(client, sessionId)).toEqual(frame);
      });

      it('shows a cast to a nullable by its nullable type, in an answer and a watch', async () => {
        const r = await evaluate(sessionId, '(long?)prices.Count');
        expect({ value: r.value, type: r.type }).toEqual({ value: '3', type: 'long?' });
        expect((await evaluate(sessionId, '(int?)null')).type).toBe('int?');
        const added = await client.call<{ values?: { expression: string; value?: string; type?: string }[] }>('watch_add', { sessionId, expressions: ['(decimal?)top'] });
        expect(added.structured.values?.[0], added.text).toMatchObject({ value: '2.5', type: 'decimal?' });
        await client.call('watch_remove', { sessionId, all: true });
      });

      // Code that waits on what never comes while the other threads are held (a sleep, a timer, the awaited method itself) is aborted past the timeout: the stop, its frame and later evaluations are intact.
      it.each(['Task.Delay(100).Wait()', 'Ranking.TopAsync(prices, CancellationToken.None).Result'])(
        '%s is aborted and the stop is intact',
        async (expression) => {
          const r = await evaluate(sessionId, expression);
          expect(r.text).toMatch(/^EVALUATION_FAILED: .*aborted/);
          expect(await topFrame(client, sessionId)).toEqual(frame);
          expect((await evaluate(sessionId, 'prices.Count')).value).toBe('3');
        },
        120_000,
      );
    });

    it("calls an interface's default method from inside it, `this` being the interface (was: 'Pricing.Item' has no method Badge)", async () => {
      const labels = fixtureSource('pricing', 'Labels.cs');
      await client.call('breakpoint_remove', { sessionId, all: true });
      await client.call('breakpoint_set', { sessionId, file: labels.path, line: labels.line('badge') });
      const next = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
      expect(next.structured.stop?.frame, next.text).toMatchObject({ name: 'Pricing.ILabel.Badge', line: labels.line('badge') });
      await client.call('breakpoint_remove', { sessionId, all: true });
      expect((await evaluate(sessionId, 'Name')).value).toBe('"label pen"');
      expect((await evaluate(sessionId, 'Badge()')).value).toBe('"[label pen]"');
      expect((await evaluate(sessionId, 'this.Badge().Length')).value).toBe('11');
    }, 120_000);
  });

  it('decides a condition, writes a logpoint and probes with primary-constructor parameters in a plain method', async () => {
    const r = await client.call<{ status: string; hits: { values: { expression: string; value?: string; error?: string }[] }[] }>('debug_probe', {
      program: pricing,
      breakpoints: [{ file: catalog.path, line: catalog.line('headline'), condition: 'title == "spring" && width == 3' }],
      expressions: ['title', 'title.Length + width', 'title.Count(c => c == \'s\')', 'text.Trim() == title'],
      timeoutMs: 120_000,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.hits.map((h) => h.values.map((v) => v.value ?? v.error))).toEqual([['"spring"', '9', '1', 'true']]);
    const logged = await client.call<Wait>('session_launch', {
      program: pricing,
      breakpoints: [{ file: catalog.path, line: catalog.line('headline'), logMessage: 'headline of {title} ({title.Length}, {string.Concat(title.Select(c => char.ToUpper(c)))})' }],
      waitForStop: true,
      timeoutMs: 120_000,
    });
    expect(logged.structured.status, logged.text).toBe('exited');
    const output = (await client.call<{ output: string }>('session_output', { sessionId: logged.structured.sessionId })).structured.output;
    expect(output).toContain('headline of spring (6, SPRING)');
  }, 240_000);
});
