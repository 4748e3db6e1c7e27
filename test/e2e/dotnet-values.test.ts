/**
 * .NET values and C# expressions through the real MCP server: every value kind as C# shows it,
 * children and paging, [DebuggerDisplay], evaluation (with func-eval, a throwing and a never-ending
 * getter), set value, conditions, hit counts, logpoints, `$exception` and debug_probe.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';

const run = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);

interface Variable {
  name: string;
  value: string;
  type?: string;
  path: string;
  hasChildren: boolean;
}
interface Wait {
  sessionId: string;
  status: string;
  stop?: { reason: string; frame: { name: string; line: number }; hitBreakpointIds: number[] };
  exitCode?: number;
}

describe.runIf(run)('.NET values and expressions through MCP', () => {
  let client: McpTestClient;
  let lab: string;
  const values = fixtureSource('lab', 'Values.cs');
  const thrower = fixtureSource('lab', 'Thrower.cs');

  beforeAll(async () => {
    lab = buildFixture('lab');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-values-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(async () => {
    const { structured } = await client.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
    for (const s of structured.sessions) {
      if (['running', 'stopped', 'initializing'].includes(s.state)) await client.call('session_stop', { sessionId: s.sessionId });
    }
  });

  async function stopAtValues(env?: Record<string, string>): Promise<string> {
    return (await launchToValues(env)).structured.sessionId;
  }

  async function launchToValues(env?: Record<string, string>) {
    const r = await client.call<Wait>('session_launch', {
      program: lab,
      args: ['values'],
      env,
      breakpoints: [{ file: values.path, line: values.line('values') }],
      waitForStop: true,
      timeoutMs: 30_000,
    });
    expect(r.structured.status, r.text).toBe('stopped');
    return r;
  }

  async function variables(sessionId: string, args: Record<string, unknown> = {}): Promise<Variable[]> {
    const r = await client.call<{ variables: Variable[] }>('inspect_variables', { sessionId, count: 100, ...args });
    expect(r.isError, r.text).toBe(false);
    return r.structured.variables;
  }

  async function evaluate(sessionId: string, expression: string): Promise<{ isError: boolean; text: string; value?: string; type?: string }> {
    const r = await client.call<{ value: string; type?: string }>('inspect_evaluate', { sessionId, expression });
    return { isError: r.isError, text: r.text, value: r.structured.value, type: r.structured.type };
  }

  /** Each expression answers this value of this type. */
  async function expectTyped(sessionId: string, cases: [string, string, string][]): Promise<void> {
    for (const [expression, value, type] of cases) expect(await evaluate(sessionId, expression), expression).toMatchObject({ value, type });
  }

  it('shows every kind of value as C# does', async () => {
    const stop = await launchToValues();
    const { sessionId } = stop.structured;
    const byName = new Map((await variables(sessionId)).map((v) => [v.name, `${v.value} (${v.type})`]));
    expect(Object.fromEntries(byName)).toMatchObject({
      flag: 'true (bool)',
      small: '200 (byte)',
      tiny: '-5 (sbyte)',
      unsignedNumber: '4000000000 (uint)',
      longValue: '-9000000000 (long)',
      huge: '18000000000000000000 (ulong)',
      single: '1.5 (float)',
      real: '0.1 (double)',
      money: '19.99 (decimal)',
      letter: "'x' (char)",
      text: '"say \\"hi\\"\\n" (string)',
      nothing: 'null (string)',
      when: '2024-01-02T03:04:05.0000000 (UTC) (System.DateTime)',
      span: '01:02:03.5000000 (System.TimeSpan)',
      id: '01234567-89ab-cdef-0123-456789abcdef (System.Guid)',
      color: 'Green (Lab.Color)',
      access: 'Read | Write (Lab.Access)',
      maybe: 'null (int?)',
      some: '5 (int?)',
      person: 'Person { Name = Ada, Age = 36 } (Lab.Person)',
      pair: '(2, "two") ((int count, string label))',
      order: 'Order #7 for ACME (2 lines) (Lab.Order)',
      temperature: '21.5 C (Lab.Temperature)',
      numbers: 'int[3] (int[])',
      grid: 'int[2, 2] (int[,])',
      list: 'Count = 3 (System.Collections.Generic.List<int>)',
      dictionary: 'Count = 2 (System.Collections.Generic.Dictionary<string, int>)',
      boxed: '42 (int)',
    });
    // A named tuple's type reads the same wherever a value is shown: the stop's locals, an evaluation, a watch.
    expect(stop.text).toContain('pair = (2, "two") ((int count, string label))');
    expect(await evaluate(sessionId, 'pair')).toMatchObject({ value: '(2, "two")', type: '(int count, string label)' });
    const watch = await client.call<{ values: { value?: string; type?: string }[] }>('watch_add', { sessionId, expressions: ['pair'] });
    expect(watch.structured.values[0], watch.text).toMatchObject({ value: '(2, "two")', type: '(int count, string label)' });
    await client.call('watch_remove', { sessionId, all: true });
    // a ?? b is of the type C# gives both operands (b is not run when a holds a value): some ?? 0L is a long.
    await expectTyped(sessionId, [
      ['some ?? 0L', '5', 'long'],
      ['maybe ?? 0L', '0', 'long'],
      ['some ?? 2.5', '5', 'double'],
      ['some ?? 0', '5', 'int'],
      ['maybe ?? some', '5', 'int?'],
      ['nothing ?? "x"', '"x"', 'string'],
      ['text ?? "x"', '"say \\"hi\\"\\n"', 'string'],
      ['some ?? Math.Max(1L, 2L)', '5', 'long'],
    ]);
  });

  it('shows a named tuple parameter, field, property and method result with its element names, as C# declares them', async () => {
    const r = await client.call<Wait>('session_launch', {
      program: lab,
      args: ['tuples'],
      breakpoints: [{ file: values.path, line: values.line('tuple-param') }],
      waitForStop: true,
      timeoutMs: 30_000,
    });
    const { sessionId } = r.structured;
    expect(r.text).toContain('entry = (4, "four") ((int count, string label))');
    const typeOf = async (path: string) => new Map((await variables(sessionId, path ? { path } : {})).map((v) => [v.name, v.type]));
    expect((await typeOf('')).get('entry')).toBe('(int count, string label)');
    expect(Object.fromEntries(await typeOf('this'))).toEqual({ Best: '(int count, string label)', Leader: '(string name, int score)' });
    expect((await variables(sessionId, { path: 'entry' })).map((v) => v.name)).toEqual(['count', 'label']);
    expect((await variables(sessionId, { path: 'this.Best' })).map((v) => v.name)).toEqual(['count', 'label']);
    await expectTyped(sessionId, [
      ['entry', '(4, "four")', '(int count, string label)'],
      ['this.Best', '(9, "nine")', '(int count, string label)'],
      ['other.Leader', '("ada", 3)', '(string name, int score)'],
      ['Range()', '(1, 5)', '(int low, int high)'],
      ['entry.label', '"four"', 'string'],
    ]);
  });

  // .NET 5+ writes infinity as its culture does: "Infinity" in the invariant culture (C), "∞" in an ICU one (en-US): what the program's own ToString writes.
  it.each([
    ['C.UTF-8', 'Infinity'],
    ['en_US.UTF-8', '∞'],
  ])('shows 1.0 / 0 with the program\'s own infinity symbol under LC_ALL=%s', async (lang, symbol) => {
    const sessionId = await stopAtValues({ LC_ALL: lang });
    expect((await evaluate(sessionId, 'System.Globalization.CultureInfo.CurrentCulture.NumberFormat.PositiveInfinitySymbol')).value).toBe(`"${symbol}"`);
    expect((await evaluate(sessionId, 'real / 0')).value).toBe(symbol);
    expect((await evaluate(sessionId, '-1.0 / 0 + " and"')).value).toBe(`"-${symbol} and"`);
  });

  it('lists children: fields and auto-properties, hidden members left out, collections by their items', async () => {
    const sessionId = await stopAtValues();
    const names = async (path: string) => (await variables(sessionId, { path })).map((v) => `${v.name}=${v.value}`);
    expect(await names('order')).toEqual(['Id=7', 'Customer="ACME"', 'Lines=Count = 2']);
    expect(await names('point')).toEqual(['X=3', 'Y=4']);
    expect(await names('pair')).toEqual(['count=2', 'label="two"']);
    expect(await names('grid')).toEqual(['[0, 0]=1', '[0, 1]=2', '[1, 0]=3', '[1, 1]=4']);
    expect(await names('dictionary')).toEqual(['["one"]=1', '["two"]=2']);
    expect(await names('set')).toEqual(['[0]="a"']);
    expect(await names('queue')).toEqual(['[0]=1', '[1]=2']);
    expect(await names('stack')).toEqual(['[0]=2', '[1]=1']);
    expect(await names('order.Lines')).toEqual(['[0]="bolt"', '[1]="nut"']);
    const page = await client.call<{ variables: Variable[]; more: boolean }>('inspect_variables', { sessionId, path: 'big', start: 999_998, count: 5 });
    expect(page.structured.variables.map((v) => v.value)).toEqual(['999998', '999999']);
    expect(page.structured.more).toBe(false);
    const long = await evaluate(sessionId, 'longText');
    expect(long.value).toMatch(/^"z{100,}"… \(100000 chars\)$/);
  });

  it('evaluates C# expressions: members, calls, indexers, operators, statics, enums, strings', async () => {
    const sessionId = await stopAtValues();
    const cases: [string, string, string][] = [
      ['number + 1', '43', 'int'],
      ['number * 2.5', '105', 'double'],
      ['money * 2', '39.98', 'decimal'],
      ['(long)number << 40', '46179488366592', 'long'],
      ['order.Lines.Count', '2', 'int'],
      ['order.Total', '5.0', 'decimal'],
      ['order.Describe("#", 5)', '"   #7"', 'string'],
      ['point.Length', '5', 'double'],
      ['grid[1, 0]', '3', 'int'],
      ['dictionary["two"]', '2', 'int'],
      ['list[2] + numbers[0]', '31', 'int'],
      ['color == Color.Green', 'true', 'bool'],
      ['(int)Color.Blue', '2', 'int'],
      ['maybe ?? -1', '-1', 'int'],
      ['maybe == null', 'true', 'bool'],
      // A lifted operator is of the nullable type, null or not; `??` gives the value it holds.
      ['some + 1', '6', 'int?'],
      ['maybe + 1', 'null', 'int?'],
      ['some * 2.5', '12.5', 'double?'],
      ['some > 3', 'true', 'bool'],
      ['some ?? 0', '5', 'int'],
      ['nothing?.Length', 'null', 'null'],
      ['Order.Created', '1', 'int'],
      ['Math.Max(3, 7)', '7', 'int'],
      ['int.MaxValue', '2147483647', 'int'],
      ['text.ToUpper().Length', '9', 'int'],
      ['$"{number} and {order.Customer}"', '"42 and ACME"', 'string'],
      ['boxed is int', 'true', 'bool'],
      ['temperature.ToString()', '"21.5 C"', 'string'],
      ['list.Sum()', '60', 'int'],
      ['order.Lines.First()', '"bolt"', 'string'],
      ['numbers.Max() + list.Count()', '6', 'int'],
      ['order.Lines.Count > 1 && order.Id == 7 ? "many" : "few"', '"many"', 'string'],
      // An enum operation is of the enum type (C# 12.11.5), not its underlying number.
      ['access | Access.Execute', 'Read | Write | Execute', 'Lab.Access'],
      ['access & ~Access.Read', 'Write', 'Lab.Access'],
      ['Access.Read | Access.Execute', 'Read | Execute', 'Lab.Access'],
      ['access + 2', 'Read | Execute', 'Lab.Access'],
      ['access - Access.Read', '2', 'int'],
      ['(access | Access.Execute).HasFlag(Access.Execute)', 'true', 'bool'],
      // A format's escapes are the string's: $"{span:hh\\:mm}" gives TimeSpan the format hh\:mm.
      ['$"{span:hh\\\\:mm}"', '"01:02"', 'string'],
      // typeof is a System.Type, not its name.
      ['typeof(Access).FullName', '"Lab.Access"', 'string'],
      ['typeof(Access) == access.GetType()', 'true', 'bool'],
      ['Access.Read.ToString()', '"Read"', 'string'],
      // default of a struct is its zeroed value, not null.
      ['default(Point).X', '0', 'int'],
      ['default(Color)', 'Red', 'Lab.Color'],
      ['text[0]', "'s'", 'char'],
      // A struct's own operators.
      ['(when - new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc)).TotalHours', '27.068055555555556', 'double'],
      ['span * 2', '02:04:07', 'System.TimeSpan'],
      ['when > DateTime.MinValue', 'true', 'bool'],
      // An object holding a box is an object to the compiled evaluation, not the box's int read from the reference.
      ['new[] { 1 }.Select(i => (int)boxed + 1).First()', '43', 'int'],
    ];
    for (const [expression, value, type] of cases) {
      const r = await evaluate(sessionId, expression);
      expect({ expression, value: r.value, type: r.type, error: r.isError ? r.text : undefined }).toEqual({ expression, value, type, error: undefined });
    }
  });

  it('answers EVALUATION_FAILED for a throwing getter and aborts one that never returns, and goes on', async () => {
    const sessionId = await stopAtValues();
    const boom = await evaluate(sessionId, 'tricky.Boom');
    expect(boom.isError).toBe(true);
    expect(boom.text).toMatch(/^EVALUATION_FAILED: .*System\.InvalidOperationException: getter failed/);
    const forever = await evaluate(sessionId, 'tricky.Forever');
    expect(forever.isError).toBe(true);
    expect(forever.text).toMatch(/^EVALUATION_FAILED: .*aborted/);
    const after = await evaluate(sessionId, 'number + 1');
    expect(after.value).toBe('43');
    await client.call('breakpoint_set', { sessionId, file: values.path, line: values.line('total') });
    const stopped = await evaluate(sessionId, 'order.Total');
    expect(stopped.text).toMatch(/^EVALUATION_FAILED: .*reached a breakpoint/);
    expect((await evaluate(sessionId, 'order.Id')).value).toBe('7');
    const bad = await evaluate(sessionId, 'nope + 1');
    expect(bad.text).toMatch(/^EVALUATION_FAILED: The name 'nope' does not exist/);
  }, 60_000);

  it('sets locals, fields, array elements and enums, and the program sees the new values', async () => {
    const sessionId = await stopAtValues();
    const set = async (name: string, value: string) => {
      const r = await client.call('inspect_set_variable', { sessionId, name, value });
      expect(r.isError, r.text).toBe(false);
    };
    await set('number', '99');
    await set('text', '"changed"');
    await set('order.Id', '8');
    await set('numbers[0]', '100');
    await set('color', 'Color.Blue');
    await set('nothing', '"now"');
    expect((await evaluate(sessionId, 'number')).value).toBe('99');
    const pair = await client.call<{ value: string; type?: string }>('inspect_set_variable', { sessionId, name: 'pair', value: '(3, "three")' });
    expect(pair.structured, pair.text).toMatchObject({ value: '(3, "three")', type: '(int count, string label)' });
    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 20_000 });
    expect(end.structured.exitCode).toBe(0);
    const output = await client.call<{ output: string }>('session_output', { sessionId });
    expect(output.structured.output).toContain('number=99 text=changed order=8 numbers0=100 color=Blue nothing=now');
  });

  // The debugger keeps the program's memory pages for the length of one stop: each of these reads
  // would see a stale page if a stop, a set or a func-eval did not forget them.
  it('reads memory afresh at every stop, after a set and after a func-eval in the same stop', async () => {
    const sessionId = await stopAtValues();
    expect((await evaluate(sessionId, 'order.Id')).value).toBe('7');
    expect((await client.call('inspect_set_variable', { sessionId, name: 'order.Id', value: '8' })).isError).toBe(false);
    expect((await evaluate(sessionId, 'order.Id')).value).toBe('8');
    expect((await evaluate(sessionId, 'temperature.Celsius')).value).toBe('21.5');
    expect((await evaluate(sessionId, 'temperature.Warm(1)')).value).toBe('22.5');
    expect((await evaluate(sessionId, 'temperature.Celsius')).value).toBe('22.5');
    await client.call('session_stop', { sessionId });

    const counting = await client.call<Wait>('session_launch', { program: lab, args: ['count', '4'], breakpoints: [{ file: values.path, line: values.line('count') }], waitForStop: true });
    const seen: string[] = [];
    for (let hit = 0; hit < 4; hit++) {
      const locals = new Map((await variables(counting.structured.sessionId)).map((v) => [v.name, v.value]));
      seen.push(`i=${locals.get('i')} total=${locals.get('total')} sum=${(await evaluate(counting.structured.sessionId, 'i + total')).value}`);
      await client.call('execution_continue', { sessionId: counting.structured.sessionId, timeoutMs: 20_000 });
    }
    expect(seen).toEqual(['i=0 total=0 sum=0', 'i=1 total=0 sum=1', 'i=2 total=1 sum=3', 'i=3 total=3 sum=6']);
  });

  it('stops where a condition holds, on the nth hit, and prints logpoints without stopping', async () => {
    const line = values.line('count');
    const conditional = await client.call<Wait>('session_launch', { program: lab, args: ['count', '50'], breakpoints: [{ file: values.path, line, condition: 'i == 42' }], waitForStop: true });
    expect((await evaluate(conditional.structured.sessionId, 'i')).value).toBe('42');
    await client.call('session_stop', { sessionId: conditional.structured.sessionId });

    const third = await client.call<Wait>('session_launch', { program: lab, args: ['count', '50'], breakpoints: [{ file: values.path, line, hitCondition: '3' }], waitForStop: true });
    expect((await evaluate(third.structured.sessionId, 'i')).value).toBe('2');
    await client.call('session_stop', { sessionId: third.structured.sessionId });

    const logged = await client.call<Wait>('session_launch', { program: lab, args: ['count', '4'], breakpoints: [{ file: values.path, line, logMessage: 'i={i} total={total}' }], waitForStop: true });
    expect(logged.structured.status).toBe('exited');
    const output = await client.call<{ output: string }>('session_output', { sessionId: logged.structured.sessionId });
    // A logpoint runs before its line: `total` is the value before `total += i % 7`. (Its lines and the
    // program's own output travel separately, so only their own order is certain.)
    const logs = output.structured.output.split('\n').filter((l) => l.startsWith('i='));
    expect(logs).toEqual(['i=0 total=0', 'i=1 total=0', 'i=2 total=1', 'i=3 total=3']);
  });

  it('refuses a condition that is not C#', async () => {
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['count', '3'], stopOnEntry: true, waitForStop: true });
    const set = await client.call('breakpoint_set', { sessionId: r.structured.sessionId, file: values.path, line: values.line('count'), condition: 'i ==' });
    expect(set.isError).toBe(true);
    expect(set.text).toMatch(/^INVALID_ARGUMENT: /);
  });

  it('reads $exception at an exception stop', async () => {
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['throw'], waitForStop: true });
    expect(r.structured.stop?.reason).toBe('exception');
    const message = await evaluate(r.structured.sessionId, '$exception.Message');
    expect(message.value).toBe('"invalid: the order was empty"');
    const local = await evaluate(r.structured.sessionId, 'detail.Length');
    expect(local.value).toBe(String('invalid: the order was empty'.length));
    void thrower;
  });

  it('shows captured and hoisted variables under their source names', async () => {
    const closure = await client.call<Wait>('session_launch', { program: lab, args: ['closure'], breakpoints: [{ file: values.path, line: values.line('closure') }], waitForStop: true });
    expect(closure.structured.stop?.frame.name).toBe('Lab.Values.Closure.<lambda>');
    const captured = Object.fromEntries((await variables(closure.structured.sessionId)).map((v) => [v.name, v.value]));
    expect(captured).toMatchObject({ x: '2', factor: '3', start: '1' });
    expect((await evaluate(closure.structured.sessionId, 'x * factor + start')).value).toBe('7');
    await client.call('session_stop', { sessionId: closure.structured.sessionId });

    const shapes = fixtureSource('lab', 'Shapes.cs');
    const hoisted = await client.call<Wait>('session_launch', { program: lab, args: ['async'], breakpoints: [{ file: shapes.path, line: shapes.line('async-return') }], waitForStop: true });
    const locals = Object.fromEntries((await variables(hoisted.structured.sessionId)).map((v) => [v.name, v.value]));
    expect(locals).toMatchObject({ text: '"abc"', length: '3' });
    expect(Object.keys(locals).filter((n) => n.includes('<') || n.includes('__'))).toEqual([]);
  });

  it('shows a [DebuggerTypeProxy] (generic ones too) instead of the raw fields, which stay under [Raw View]', async () => {
    const sessionId = await stopAtValues();
    expect((await variables(sessionId, { path: 'bag' })).map((v) => `${v.name}=${v.value}`)).toEqual(['Items=int[3]', '[Raw View]={Lab.Bag}']);
    expect((await variables(sessionId, { path: 'bag.Items' })).map((v) => v.value)).toEqual(['1', '2', '3']);
    // A generic proxy (typeof(ShelfProxy<>)) is made with the object's type arguments.
    expect((await variables(sessionId, { path: 'shelf' })).map((v) => `${v.name}=${v.value}`)).toEqual(['Things=string[2]', '[Raw View]={Lab.Shelf<string>}']);
    expect((await variables(sessionId, { path: 'shelf.Things' })).map((v) => v.value)).toEqual(['"cup"', '"jar"']);
  });

  it('gives $returnValue after a step out', async () => {
    const program = fixtureSource('lab', 'Program.cs');
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['loop'], breakpoints: [{ file: program.path, line: program.line('add-body') }], waitForStop: true });
    await client.call('execution_continue', { sessionId: r.structured.sessionId }); // the second call: Add(0, 1)
    const out = await client.call<Wait>('execution_step', { sessionId: r.structured.sessionId, kind: 'out' });
    expect(out.structured.stop?.frame.name).toBe('Lab.Program.Loop');
    expect((await evaluate(r.structured.sessionId, '$returnValue')).value).toBe('1');
  });

  it('reads locals after a pause in the runtime, and says when code cannot run there', async () => {
    const release = join(mkdtempSync(join(tmpdir(), 'dbb-spin-')), 'release');
    const r = await client.call<Wait>('session_launch', { program: lab, args: ['spin', release] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pause = await client.call<Wait>('execution_pause', { sessionId: r.structured.sessionId });
    expect(pause.structured.stop?.frame.name).toBe('Lab.Spinner.Spin');
    expect((await evaluate(r.structured.sessionId, 'release.Length')).value).toBe(String(release.length));
    const call = await evaluate(r.structured.sessionId, 'DateTime.Now.Year');
    expect(call.isError).toBe(true);
    expect(call.text).toMatch(/^EVALUATION_FAILED: .*cannot run for an evaluation/);
  });

  it('runs debug_probe on .NET: locals and expressions at each hit', async () => {
    const r = await client.call<{ hits: { values: { expression: string; value?: string }[] }[] }>('debug_probe', {
      program: lab,
      args: ['count', '3'],
      breakpoints: [{ file: values.path, line: values.line('count') }],
      expressions: ['i * 10'],
      maxHits: 3,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.hits.map((h) => h.values[0]?.value)).toEqual(['0', '10', '20']);
  });
});
