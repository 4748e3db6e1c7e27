/**
 * The compiled evaluation (Roslyn) where a C# developer meets it beyond inspect_evaluate, on the
 * ledger fixture: assignments and ++/-- that write the frame's variables and `this`'s fields (the
 * program sees them when it runs on), evaluations without side effects refused alike by the
 * hand-written evaluator and the compiled one, watches and probes of lambdas and LINQ, a lambda
 * condition on a breakpoint hit a thousand times, and frames whose variables C# cannot name (an async
 * state machine's, a closure's, an anonymous type's, an iterator's), members of anonymous-type
 * variables (nested ones, one holding an internal record), and variables whose types C# cannot spell
 * (a list, a dictionary, a tuple and an array of anonymous objects, a struct closure's counter).
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
import { evaluate as evaluateIn, launchTo as launchToIn, topFrame, type Wait } from '../support/dotnetEvaluation.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface WatchValue {
  expression: string;
  value?: string;
  error?: boolean;
}

describe.runIf(run)('.NET compiled evaluation on the ledger: writes, side effects, watches, probes, a hot condition', () => {
  let client: McpTestClient;
  let ledger: string;
  const book = fixtureSource('ledger', 'Book.cs');

  beforeAll(async () => {
    ledger = buildFixture('ledger');
    await ensureWorkerBuilt(dotnet!);
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-ledger-')) } });
  }, 600_000);
  afterAll(async () => {
    await stopActiveSessions(client);
    await client?.close();
  });

  const launchTo = (marker: string) => launchToIn(client, ledger, book.path, book.line(marker));
  const evaluate = (sessionId: string, expression: string) => evaluateIn(client, sessionId, expression);
  const evaluateNse = async (sessionId: string, expression: string) => {
    const r = await client.call<{ value?: string }>('inspect_evaluate', { sessionId, expression, sideEffects: false });
    return r.isError ? r.text.split('\n')[0] : r.structured.value;
  };
  /** The first compile of a server loads Roslyn: on a loaded machine it can outlast the wait, and a user asks again. */
  const warm = async (sessionId: string) => {
    const first = await evaluate(sessionId, 'new[] { 1 }.Select(x => x).First()');
    if (first.isError && first.text.startsWith('TIMEOUT')) await evaluate(sessionId, 'new[] { 1 }.Select(x => x).First()');
  };

  describe('assignments and ++/-- in a method of a class', () => {
    let sessionId: string;

    beforeAll(async () => {
      sessionId = (await launchTo('adjust')).sessionId;
      await warm(sessionId);
    }, 180_000);

    // [expression, its value, the variable read back, its value then]: as the Immediate window answers.
    it.each([
      ['count = 40', '40', 'count', '40'],
      ['count++', '40', 'count', '41'],
      ['++count', '42', 'count', '42'],
      ['count += 8', '50', 'count', '50'],
      ['count--', '50', 'count', '49'],
      ['label += "ed"', '"adjusted"', 'label', '"adjusted"'],
      ['ratio *= 2', '3', 'ratio', '3'],
      ['when = when.AddDays(1)', '11/28/2026', 'when.Day', '28'],
      ['posted = 7', '7', 'posted', '7'],
      ['this.posted += 1', '8', 'Posted', '8'],
      ['delta = new[] { 1, 2, 3 }.Where(x => x > 1).Sum()', '5', 'delta', '5'],
    ])('%s answers %s, and %s is %s after it', async (expression, value, readBack, after) => {
      const r = await evaluate(sessionId, expression);
      expect({ value: r.value, error: r.isError ? r.text : undefined }).toEqual({ value, error: undefined });
      expect((await evaluate(sessionId, readBack)).value).toBe(after);
      expect(await topFrame(client, sessionId)).toEqual({ name: expect.stringContaining('Adjust'), line: book.line('adjust') });
    }, 60_000);

    it('aborts an assignment that never ends: the variable keeps its value, the stop is intact', async () => {
      const r = await evaluate(sessionId, 'count = new[] { 1 }.Count(x => { while (true) { } })');
      expect(r.text).toMatch(/^EVALUATION_FAILED: .*did not finish in time and was aborted/);
      expect((await evaluate(sessionId, 'count')).value).toBe('49');
      expect(await topFrame(client, sessionId)).toEqual({ name: expect.stringContaining('Adjust'), line: book.line('adjust') });
    }, 60_000);

    it('runs on with the values written: the program computes with them', async () => {
      await client.call('breakpoint_remove', { sessionId, all: true });
      const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(end.structured.exitCode, end.text).toBe(0);
      const output = (await client.call<{ output: string }>('session_output', { sessionId })).structured.output;
      // count 49 + delta 5, label, ratio, the day after, posted as written.
      expect(output).toContain('adjusted 54 3 2026-11-28 8');
      expect(output).toContain('adjusted 54\n');
    }, 60_000);
  });

  describe('without side effects, the hand-written evaluator and the compiled one refuse alike', () => {
    let sessionId: string;

    beforeAll(async () => {
      sessionId = (await launchTo('adjust')).sessionId;
      await warm(sessionId);
    }, 180_000);
    afterAll(async () => {
      await client.call('session_stop', { sessionId });
    });

    // [what the hand-written evaluator runs, what only Roslyn compiles, the reason both give]
    it.each([
      ['count = 1', 'count = new[] { 1 }.Sum(x => x)', 'it assigns count'],
      ['count++', 'new[] { count++ }.Sum(x => x)', 'it assigns count'],
      ['posted += 2', 'posted += new[] { 2 }.Sum(x => x)', 'it assigns posted'],
      ['Adjust(1)', 'new[] { 1 }.Select(x => Adjust(x)).First()', 'it calls Book.Adjust(int)'],
      ['totals.Clear()', 'new[] { 1 }.Select(x => { totals.Clear(); return x; }).First()', 'it calls Dictionary.Clear()'],
      ['new Entry(1, "cash", 2m).Id', 'new[] { 1 }.Select(x => new Entry(x, "cash", 2m)).First().Id', 'it runs the constructor of Entry'],
    ])('%s and %s: %s', async (interpreted, compiled, reason) => {
      const expected = `EVALUATION_FAILED: the expression may change the program (${reason}); side effects are off for conditions, logpoints and watches`;
      expect(await evaluateNse(sessionId, interpreted)).toBe(expected);
      expect(await evaluateNse(sessionId, compiled)).toBe(expected);
      // Nothing ran: the values are as the program left them.
      expect((await evaluate(sessionId, 'count + posted')).value).toBe('2000');
    }, 60_000);

    it.each([
      ['label.ToUpper()', '"ADJUST"'],
      ['Math.Max(count, 3)', '1000'],
      ['totals.ContainsKey("main")', 'true'],
      ['Posted', '1000'],
      ['new List<int> { count }.Count', '1'],
      ['totals.Where(t => t.Value > 0).Select(t => t.Key).First()', '"main"'],
    ])('reads without side effects: %s = %s', async (expression, value) => {
      expect(await evaluateNse(sessionId, expression)).toBe(value);
    }, 60_000);

    it('refuses an assignment in a watch (watches never change the program) and in a condition', async () => {
      const added = await client.call<{ values?: WatchValue[] }>('watch_add', { sessionId, expressions: ['count++', 'count * 2'] });
      expect(added.structured.values?.map((w) => [w.expression, w.value, w.error ?? false])).toEqual([
        ['count++', expect.stringContaining('it assigns count'), true],
        ['count * 2', '2000', false],
      ]);
      await client.call('watch_remove', { sessionId, all: true });
      const condition = await client.call('breakpoint_set', { sessionId, file: book.path, line: book.line('adjust'), condition: 'posted++ > 0' });
      expect(condition.text).toMatch(/INVALID_ARGUMENT.*may change the program \(it assigns posted\)/s);
      expect((await evaluate(sessionId, 'count')).value).toBe('1000');
    }, 60_000);
  });

  describe('watches and probes of lambdas and LINQ', () => {
    it('updates a lambda watch and a query watch at each stop, old → new', async () => {
      const { sessionId } = await launchTo('post');
      await warm(sessionId);
      const watches = ['entries.Take(entry.Id).Sum(e => e.Amount)', '(from e in entries where e.Id <= entry.Id && e.Account == "cash" select e).Count()', 'entry.Id'];
      await client.call('watch_add', { sessionId, expressions: watches });
      const seen: (string | undefined)[][] = [];
      for (let stop = 0; stop < 3; stop++) {
        const list = await client.call<{ values?: WatchValue[] }>('watch_list', { sessionId });
        expect(list.isError, list.text).toBe(false);
        seen.push(list.structured.values!.map((w) => w.value));
        const next = await client.call<Wait & { stop?: { watches?: WatchValue[] } }>('execution_continue', { sessionId, timeoutMs: 30_000 });
        expect(next.structured.status, next.text).toBe('stopped');
        expect(next.text).toMatch(/→/);
      }
      expect(seen).toEqual([
        ['2.5', '0', '1'],
        ['7.5', '0', '2'],
        ['15.0', '1', '3'],
      ]);
      await client.call('session_stop', { sessionId });
    }, 180_000);

    it('probes an iterator with LINQ, a query and a call at each hit', async () => {
      const r = await client.call<{ status: string; hits: { values: { expression: string; value?: string; error?: string }[] }[] }>('debug_probe', {
        program: ledger,
        breakpoints: [{ file: book.path, line: book.line('report') }],
        expressions: ['entries.Select(e => e.Id).Sum()', '(from e in entries where e.Account == "bank" select e.Amount).Sum()', 'index', 'Describe(entry)'],
        timeoutMs: 120_000,
      });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.status).toBe('exited');
      expect(r.structured.hits.map((h) => h.values.map((v) => v.value ?? v.error))).toEqual([
        ['6', '7.5', '1', '"small"'],
        ['6', '7.5', '2', '"small"'],
        ['6', '7.5', '3', '"large"'],
      ]);
    }, 180_000);
  });

  it('writes a logpoint whose holes are a lambda and a query at each hit, and refuses a call of the program in one', async () => {
    const r = await client.call<Wait>('session_launch', {
      program: ledger,
      breakpoints: [
        { file: book.path, line: book.line('report'), logMessage: 'row {index}: {entries.Where(e => e.Account == "bank").Sum(e => e.Amount)} {(from e in entries select e.Id).Max()} {entry.Account.ToUpper()} {Describe(entry)}' },
      ],
      waitForStop: true,
      timeoutMs: 120_000,
    });
    expect(r.structured.status, r.text).toBe('exited');
    const output = (await client.call<{ output: string }>('session_output', { sessionId: r.structured.sessionId })).structured.output;
    const rows = output.split('\n').filter((l) => l.startsWith('row '));
    expect(rows.map((l) => l.replace(/ <the expression may change the program .*>$/, ' <refused>'))).toEqual(['row 1: 7.5 3 BANK <refused>', 'row 2: 7.5 3 BANK <refused>', 'row 3: 7.5 3 CASH <refused>']);
    expect(rows[0]).toContain('it calls Book.Describe(Ledger.Entry)');
  }, 180_000);

  describe('a frame whose variables C# cannot name (an async state machine, a closure, an anonymous type)', () => {
    let sessionId: string;

    beforeAll(async () => {
      sessionId = (await launchTo('summary')).sessionId;
      await warm(sessionId);
    }, 180_000);
    afterAll(async () => {
      await client.call('session_stop', { sessionId });
    });

    it.each([
      ['large.Count(e => e.Amount > threshold)', '100'],
      ['entries.Where(e => e.Amount > threshold).Select(e => e.Id).First()', '9'],
      ['summary.ToString()', '"{ Count = 1000, Large = 100 }"'],
      ['new { summary, balance }.balance', '11250.0'],
      ['totals.Sum(t => t.Value) + balance', '22500.0'],
      ['large.Select(e => e.Account).Distinct().Count()', '2'],
    ])('%s = %s', async (expression, value) => {
      const r = await evaluate(sessionId, expression);
      expect({ value: r.value, error: r.isError ? r.text : undefined }).toEqual({ value, error: undefined });
      expect(await topFrame(client, sessionId)).toEqual({ name: expect.stringContaining('PostAsync'), line: book.line('summary') });
    }, 60_000);

    // Members of anonymous-type variables (their class is internal to the program: mirrored in the compiled
    // assembly), in expressions only the compiled path evaluates.
    it.each([
      ['summary switch { { Large: > 50 } s => s.Count / s.Large, _ => 0 }', '10'],
      ['new[] { range }.Sum(r => r.Name.Length + r.First.Id)', '13'],
      ['range.First.Amount + large.Single(e => e.Id == range.Last.Id).Amount', '45.0'],
      ['Enumerable.Range(range.Ids.From, range.Ids.To - range.Ids.From + 1).Count(id => id % 10 == 9)', '100'],
      ['new[] { summary }.Select(s => s.Count).Single()', '1000'],
      ['large.Count(e => e.Id > range.First.Id && e.Amount == range.Last.Amount)', '99'],
      ['range is { First.Id: 9, Last.Account: "cash" }', 'true'],
      ['new[] { range.First }.Select(f => $"{f}").First()', '"{ Id = 9, Amount = 22.5 }"'],
      ['new[] { range.First }.First().Equals(range.First)', 'true'],
    ])('the anonymous-type variables: %s = %s', async (expression, value) => {
      const r = await evaluate(sessionId, expression);
      expect({ value: r.value, error: r.isError ? r.text : undefined }).toEqual({ value, error: undefined });
    }, 60_000);

    it('answers an anonymous-type member without side effects, and names the anonymous type in a compile error', async () => {
      expect(await evaluateNse(sessionId, 'new[] { range }.Max(r => r.Last.Id)')).toBe('999');
      expect((await evaluate(sessionId, 'new[] { summary }.Select(s => s.Totl)')).text.split('\n')[0]).toBe(
        "EVALUATION_FAILED: CS1061 '<anonymous type: int Count, int Large>' does not contain a definition for 'Totl' and no accessible extension method 'Totl' accepting a first argument of type '<anonymous type: int Count, int Large>' could be found (are you missing a using directive or an assembly reference?) (column 33)",
      );
      // The object itself, not its mirror: shown as the variable is.
      const first = await evaluate(sessionId, 'new[] { range }.Select(r => r.First).First()');
      expect(first.value).toBe((await evaluate(sessionId, 'range.First')).value);
    }, 60_000);

    it('lists the variable a lambda captured (its closure hoisted into the state machine) under its name', async () => {
      const r = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { sessionId, count: 100 });
      const names = r.structured.variables.map((v) => v.name);
      expect(names).toEqual(expect.arrayContaining(['this', 'entries', 'balance', 'threshold', 'large', 'summary', 'range']));
      expect(names.filter((n) => n.includes('<') || n.includes('__'))).toEqual([]);
    }, 60_000);

    it('writes a local the state machine holds and a captured one, and the program runs on with them', async () => {
      expect((await evaluate(sessionId, 'balance += large.Count(e => e.Amount > threshold)')).value).toBe('11350.0');
      expect((await evaluate(sessionId, 'threshold = 0m')).value).toBe('0');
      expect((await evaluate(sessionId, 'entries.Count(e => e.Amount > threshold)')).value).toBe('900');
      await client.call('breakpoint_remove', { sessionId, all: true });
      const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(end.structured.exitCode, end.text).toBe(0);
      const output = (await client.call<{ output: string }>('session_output', { sessionId })).structured.output;
      expect(output).toContain('main: { Count = 1000, Large = 100 } 11350.0');
      expect(output).toContain('balance 11350.0 posted 1000');
    }, 60_000);
  });

  describe('variables whose types C# cannot spell: generic types over anonymous ones, a tuple of one, a struct closure', () => {
    const statement = fixtureSource('ledger', 'Statement.cs');
    let sessionId: string;

    beforeAll(async () => {
      sessionId = (await launchToIn(client, ledger, statement.path, statement.line('statement'))).sessionId;
      await warm(sessionId);
    }, 180_000);
    afterAll(async () => {
      await client.call('session_stop', { sessionId });
    });

    // groups: List<anonymous>, top: (anonymous Best, int Rank), byAccount: Dictionary<string, anonymous>,
    // large: a local function's captured counter (a field of a struct the compiler generated).
    it.each([
      ['groups.Where(g => g.Total > 10).Count()', '2'],
      ['groups[0].Account', '"bank"'],
      ['groups.Sum(g => g.Count)', '12'],
      ['groups.OrderByDescending(g => g.Total).Select(g => g.Account).First()', '"bank"'],
      ['top.Best.Total + top.Rank', '71.0'],
      ['top.Best.Account == groups.MaxBy(g => g.Total).Account', 'true'],
      ['byAccount["cash"].Count', '4'],
      ['byAccount.Values.Sum(v => v.Total)', '120.0'],
      ['large + groups.Count', '7'],
      ['groups.Single(g => g.Account == "cash")', '{ Account = "cash", Total = 50.0, Count = 4 }'],
      ['groups[0]', '{ Account = "bank", Total = 70.0, Count = 8 }'],
    ])('%s = %s', async (expression, value) => {
      const r = await evaluate(sessionId, expression);
      expect({ value: r.value, error: r.isError ? r.text : undefined }).toEqual({ value, error: undefined });
    }, 60_000);

    it('writes the list itself, not a copy: the program runs on with the list assigned', async () => {
      expect((await evaluate(sessionId, 'groups = groups.Where(g => g.Account == "cash").ToList()')).value).toBe('Count = 1');
      expect((await evaluate(sessionId, 'groups.Count')).value).toBe('1');
      await client.call('breakpoint_remove', { sessionId, all: true });
      const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(end.structured.exitCode, end.text).toBe(0);
      const output = (await client.call<{ output: string }>('session_output', { sessionId })).structured.output;
      expect(output).toContain('november: cash 50.0; top bank; large 5 (2 accounts)');
    }, 60_000);
  });

  describe('state machines: an array of anonymous objects in an async method, an anonymous one in a static iterator', () => {
    const statement = fixtureSource('ledger', 'Statement.cs');

    it("evaluates LINQ over the async method's hoisted array of anonymous objects", async () => {
      const { sessionId } = await launchToIn(client, ledger, statement.path, statement.line('reconcile'));
      await warm(sessionId);
      expect((await evaluate(sessionId, 'pairs.Where(p => p.Signed < 0).Sum(p => p.Signed)')).value).toBe('-22.5');
      expect((await evaluate(sessionId, 'pairs.Select(p => p.Id).Max() + pairs[1].Id')).value).toBe('8');
      expect((await evaluate(sessionId, 'Title.Length + pairs.Length')).value).toBe('14');
      await client.call('session_stop', { sessionId });
    }, 180_000);

    it("evaluates the static iterator's anonymous variable, and says why it has no this", async () => {
      const { sessionId } = await launchToIn(client, ledger, statement.path, statement.line('lines'));
      await warm(sessionId);
      expect((await evaluate(sessionId, 'new[] { chunk }.Sum(c => c.Ids.Sum() + c.Number)')).value).toBe('4');
      expect((await evaluate(sessionId, 'this')).text.split('\n')[0]).toBe("EVALUATION_FAILED: 'this' is not available in a static method");
      expect((await evaluate(sessionId, 'new[] { 1 }.Select(x => this).First()')).text.split('\n')[0]).toBe(
        "EVALUATION_FAILED: CS0103 'this' is not available in a static method (column 25)",
      );
      await client.call('session_stop', { sessionId });
    }, 180_000);
  });

  it('stops a breakpoint hit 1,000 times at the exact hit where its lambda condition turns true', async () => {
    // True only at the last entry (id 1000): 333 cash entries before it, and an amount of 0.
    const condition = 'entries.Take(entry.Id).Count(e => e.Account == "cash") == 333 && entry.Amount == 0m';
    const started = Date.now();
    const r = await client.call<Wait>('session_launch', {
      program: ledger,
      breakpoints: [{ file: book.path, line: book.line('post'), condition }],
      waitForStop: true,
      timeoutMs: 170_000,
    });
    const elapsed = Date.now() - started;
    expect(r.structured.status, r.text).toBe('stopped');
    const sessionId = r.structured.sessionId;
    expect((await evaluate(sessionId, 'entry.Id')).value).toBe('1000');
    expect((await evaluate(sessionId, 'posted')).value).toBe('999');
    process.stderr.write(`compiled evaluation: a lambda condition over 1,000 hits took ${elapsed} ms to the stop (${(elapsed / 1000).toFixed(1)} ms a hit, the launch included)\n`);
    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
    expect(end.structured.exitCode, end.text).toBe(0);
  }, 200_000);
});
