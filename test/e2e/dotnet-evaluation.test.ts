/**
 * C# evaluation on code written the way real programs are (the storefront fixture: top-level
 * statements with await, implicit and global usings, `using` aliases and `using static`, records,
 * decimals, Newtonsoft.Json from NuGet), through the real MCP server: overloads chosen as C# chooses
 * them (generic and non-generic, params, extension methods, framework statics), names as the source
 * file imports them, object and array creation, and evaluations that throw, hit a breakpoint, time
 * out or start a thread — after each of which the program is still stopped where it was.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { evaluate as evaluateIn, launchTo as launchToIn, topFrame, type Frame, type Wait } from '../support/dotnetEvaluation.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const run = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);

const ORDER_JSON = '{"Id":7,"Customer":"ACME","Net":12.50,"Lines":["bolt","nut"]}';

describe.runIf(run)('.NET evaluation on real code through MCP', () => {
  let client: McpTestClient;
  let storefront: string;
  const checkout = fixtureSource('storefront', 'Checkout.cs');
  const program = fixtureSource('storefront', 'Program.cs');

  beforeAll(async () => {
    storefront = buildFixture('storefront');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-eval-')) } });
  }, 300_000);
  afterAll(async () => {
    await stopActiveSessions(client);
    await client?.close();
  });

  const launchTo = (file: string, line: number) => launchToIn(client, storefront, file, line);
  const evaluate = (sessionId: string, expression: string) => evaluateIn(client, sessionId, expression);
  const top = (sessionId: string) => topFrame(client, sessionId);

  describe('at a stop in an async method of a class', () => {
    let sessionId: string;
    let stop: Frame;

    beforeAll(async () => {
      const r = await launchTo(checkout.path, checkout.line('placed'));
      sessionId = r.sessionId;
      stop = r.stop!.frame;
      expect(stop).toEqual({ name: 'Storefront.Checkout.PlaceAsync', line: checkout.line('placed'), file: expect.any(String), column: expect.any(Number) });
      stop = { name: stop.name, line: stop.line };
    }, 120_000);

    // [expression, value, type]: each is a call a C# developer types, answered as C# would.
    it.each([
      ['string.Join("-", list)', '"a-bb-ccc"', 'string'],
      ['string.Concat(list)', '"abbccc"', 'string'],
      ['string.Format("{0}-{1}", n, name)', '"3-shop"', 'string'],
      ['string.Join("-", numbers)', '"3-1-2"', 'string'],
      ['string.Join<int>("+", numbers)', '"3+1+2"', 'string'],
      ['string.Join("+", 1, 2, 3)', '"1+2+3"', 'string'],
      ['string.Format("{0:yyyy}", due)', '"2026"', 'string'],
      ['Math.Max(n, 2L)', '3', 'long'],
      ['Abs(-n)', '3', 'int'],
      ['n.CompareTo(2)', '1', 'int'],
      ['net.ToString("F1")', '"12.5"', 'string'],
      ['JsonConvert.SerializeObject(order)', JSON.stringify(ORDER_JSON), 'string'],
      ['J.SerializeObject(n)', '"3"', 'string'],
      ['Enumerable.Count(list)', '3', 'int'],
      ['list.Count()', '3', 'int'],
      ['numbers.Max() + list.Count', '6', 'int'],
      ['order.WithTax(0.2m)', '15.00', 'decimal'],
      ['order.Label("id").Length', '107', 'int'],
      ['n.Label("n")', '"n:3"', 'string'],
      ['new DateTime(2026, 1, 1)', '2026-01-01T00:00:00.0000000', 'System.DateTime'],
      ['string.Join(",", new[] { "a", "b" })', '"a,b"', 'string'],
      ['new int[] { 4, 5 }.Sum()', '9', 'int'],
      ['new List<int> { 1, 2 }.Sum()', '3', 'int'],
      ['new Order(8).Id + order.Id', '15', 'int'],
      ['new Order(7).Net', '12.50', 'decimal'],
      // A hoisted tuple's element names are its field's [TupleElementNames].
      ['pair.name', '"x"', 'string'],
      ['pair.count + n', '6', 'int'],
      ['EndThread()', '1', 'int'],
    ])('%s = %s, and the stop is intact', async (expression, value, type) => {
      const r = await evaluate(sessionId, expression);
      expect({ value: r.value, type: r.type, error: r.isError ? r.text : undefined }).toEqual({ value, type, error: undefined });
      expect(await top(sessionId)).toEqual(stop);
    }, 60_000);

    it.each([
      ['Math.Max(n, "x")', /^EVALUATION_FAILED: no overload of System\.Math\.Max takes \(int, string\)/],
      ['Enumerable.Empty()', /^EVALUATION_FAILED: CS0411 The type arguments for method 'System\.Linq\.Enumerable\.Empty<TResult>\(\)' cannot be inferred from the usage\./],
      ['list.Frobnicate()', /^EVALUATION_FAILED: 'System\.Collections\.Generic\.List<string>' has no method Frobnicate/],
      ['Fail("out of stock")', /^EVALUATION_FAILED: Storefront\.Checkout\.Fail\(\) threw System\.InvalidOperationException: out of stock/],
      ['Spin()', /^EVALUATION_FAILED: Storefront\.Checkout\.Spin\(\): the evaluation did not finish in time and was aborted/],
    ])('%s fails clearly, and the stop is intact', async (expression, error) => {
      const r = await evaluate(sessionId, expression);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(error);
      expect(await top(sessionId)).toEqual(stop);
    }, 60_000);

    // On Linux no abort wakes a sleeping thread (the runtime only signals it): the answer comes at the timeout, the stop is shown at once, and the next evaluation runs once the sleep ends.
    it('answers a sleep past the timeout promptly, and the stop and the next evaluation are intact', async () => {
      const started = Date.now();
      const r = await evaluate(sessionId, 'Thread.Sleep(10000)');
      expect(r.text).toMatch(/^TIMEOUT: System\.Threading\.Thread\.Sleep\(\) did not finish in 5000 ms; it sleeps, waits or joins/);
      expect(Date.now() - started).toBeLessThan(5_000 + 3_000);
      expect(await top(sessionId)).toEqual(stop);
      expect((await evaluate(sessionId, 'n + list.Count')).value).toBe('6');
    }, 60_000);

    it('aborts an evaluation that reaches a breakpoint, keeps the stop, and the program runs on to its end', async () => {
      const set = await client.call('breakpoint_set', { sessionId, file: checkout.path, line: checkout.line('audit') });
      expect(set.isError, set.text).toBe(false);
      const r = await evaluate(sessionId, 'Audit(4)');
      expect(r.text).toMatch(/^EVALUATION_FAILED: .*reached a breakpoint/);
      expect(await top(sessionId)).toEqual(stop);
      expect((await evaluate(sessionId, 'n + list.Count')).value).toBe('6');
      await client.call('breakpoint_remove', { sessionId, all: true });
      const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
      expect(end.structured.exitCode, end.text).toBe(0);
      const output = await client.call<{ output: string }>('session_output', { sessionId });
      expect(output.structured.output).toContain(`shop: ${ORDER_JSON} 3 3 3 12.50`);
    }, 120_000);
  });

  it('names a lambda of the top-level statements in C# and sees the names its file imports', async () => {
    const r = await launchTo(program.path, program.line('lambda'));
    expect(r.stop?.frame.name).toBe('Program.<Main>$.<lambda>');
    const { sessionId } = r;
    expect((await evaluate(sessionId, 'JsonConvert.SerializeObject(id)')).value).toBe('"7"');
    expect((await evaluate(sessionId, 'receipt')).value).toBe('"1"');
    // Checkout.cs's alias is not this file's.
    expect((await evaluate(sessionId, 'J.SerializeObject(id)')).text).toMatch(/^EVALUATION_FAILED: The name 'J' does not exist/);
  }, 120_000);
});
