/**
 * The logical call stack of .NET async methods through the real MCP server: below the physical frames
 * of a method the thread pool resumed come the methods awaiting it, by name and the line of their
 * `await`, marked [async], followed through a pooled ValueTask, Task.WhenAll, Task.WhenAny,
 * ContinueWith and ConfigureAwait(false); their values are their hoisted locals; an exception's stop
 * shows the chain to its catch.
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
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Frame {
  index: number;
  name: string;
  file?: string;
  line: number;
  async?: boolean;
}
interface Entry {
  index: number;
  name: string;
  file?: string;
  line: number;
  external?: number;
  times?: number;
  async?: boolean;
  catches?: { file?: string; line: number; filter?: boolean };
}
interface Stop {
  reason: string;
  frame: { name: string; file?: string; line: number };
  exception?: { type?: string; kind?: string; frames?: Entry[]; thrownAt?: { file?: string; line: number } };
}
interface Wait {
  sessionId: string;
  status: string;
  stop?: Stop;
}
interface Variables {
  variables: { name: string; value: string }[];
}

describe.runIf(run)('.NET async: the logical call stack', () => {
  let client: McpTestClient;
  let shipping: string;
  const rates = fixtureSource('shipping', 'RateCard.cs');
  const quotes = fixtureSource('shipping', 'QuoteService.cs');
  const relay = fixtureSource('shipping', 'Relay.cs');
  const program = fixtureSource('shipping', 'Program.cs');
  const scale = fixtureSource('shipping', 'Scale.cs');
  const courier = fixtureSource('shipping', 'Courier.cs');
  const desk = fixtureSource('shipping', 'DispatchDesk.cs');

  beforeAll(async () => {
    shipping = buildFixture('shipping');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-async-stack-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => stopActiveSessions(client));

  async function launch(args: string[], options: Record<string, unknown>): Promise<Wait> {
    const r = await client.call<Wait>('session_launch', { program: shipping, args, waitForStop: true, timeoutMs: 60_000, ...options });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.status, r.text).toBe('stopped');
    return r.structured;
  }

  async function stack(sessionId: string, query: Record<string, unknown> = {}): Promise<{ text: string; frames: Frame[]; totalFrames?: number }> {
    const r = await client.call<{ frames: Frame[]; totalFrames?: number }>('inspect_stack', { sessionId, ...query });
    expect(r.isError, r.text).toBe(false);
    return { text: r.text, ...r.structured };
  }

  async function locals(sessionId: string, frameIndex: number): Promise<Record<string, string>> {
    const r = await client.call<Variables>('inspect_variables', { sessionId, frameIndex });
    expect(r.isError, r.text).toBe(false);
    return Object.fromEntries(r.structured.variables.map((v) => [v.name, v.value]));
  }

  describe('awaiting callers below the resumed method', () => {
    it('follows a pooled ValueTask, Task.WhenAll and ConfigureAwait(false) up to Main, each at the line of its await', async () => {
      const { sessionId } = await launch(['quotes'], { breakpoints: [{ file: rates.path, line: rates.line('price'), condition: 'kilometres == 1450' }] });
      const { text, frames } = await stack(sessionId, { count: 40 });
      expect(frames[0]).toMatchObject({ name: 'Shipping.RateCard.PriceAsync', line: rates.line('price') });
      expect(frames[0]!.async).toBeUndefined();
      const logical = frames.filter((f) => f.async && f.file);
      expect(logical.map((f) => [f.name, f.line])).toEqual([
        ['Shipping.QuoteService.QuoteAsync', quotes.line('price-await')],
        ['Shipping.QuoteService.QuoteAllAsync', quotes.line('when-all')],
        ['Shipping.Program.Main', program.line('main-await')],
      ]);
      expect(text).toMatch(/Shipping\.QuoteService\.QuoteAsync \(QuoteService\.cs:\d+\) \[async\]/);
    });

    it('follows a ContinueWith and Task.WhenAny up to the method awaiting the first label', async () => {
      // The first quote to reach its price: no quote has completed, so no label and no WhenAny either.
      const { sessionId } = await launch(['fastest'], { breakpoints: [{ file: rates.path, line: rates.line('price') }] });
      const { frames } = await stack(sessionId, { count: 40 });
      expect(frames.filter((f) => f.async && f.file).map((f) => [f.name, f.line])).toEqual([
        ['Shipping.QuoteService.QuoteAsync', quotes.line('price-await')],
        ['Shipping.QuoteService.FastestAsync', quotes.line('when-any')],
        ['Shipping.Program.Main', program.line('fastest-await')],
      ]);
    });

    it('reads an awaiting frame\'s hoisted locals and arguments under their source names, and evaluates in it', async () => {
      const { sessionId } = await launch(['quotes'], { breakpoints: [{ file: rates.path, line: rates.line('price'), condition: 'kilometres == 1450' }] });
      const { frames } = await stack(sessionId, { count: 40 });
      const quote = frames.find((f) => f.name === 'Shipping.QuoteService.QuoteAsync')!;
      expect(await locals(sessionId, quote.index)).toMatchObject({ city: '"Porto"', kilometres: '1450' });
      const all = frames.find((f) => f.name === 'Shipping.QuoteService.QuoteAllAsync')!;
      expect((await locals(sessionId, all.index)).pending).toBe('Count = 3');
      const evaluated = await client.call<{ value: string }>('inspect_evaluate', { sessionId, expression: 'city.Length + kilometres', frameIndex: quote.index });
      expect(evaluated.structured.value, evaluated.text).toBe('1455');
    });

    it('folds twenty awaiting calls of one method into one entry, and pages through them', async () => {
      const { sessionId } = await launch(['relay'], { breakpoints: [{ file: relay.path, line: relay.line('last-depot') }] });
      const first = await stack(sessionId);
      expect(first.text).toMatch(/Shipping\.Relay\.ForwardAsync \(Relay\.cs:\d+\) ×\d+ \[async\]/);
      expect(first.text).toMatch(/… \d+ more frames/);
      const all = await stack(sessionId, { start: 0, count: 40 });
      const depots = all.frames.filter((f) => f.async && f.name === 'Shipping.Relay.ForwardAsync');
      expect(depots).toHaveLength(20);
      expect(depots.every((f) => f.line === relay.line('forward'))).toBe(true);
      expect(all.frames.at(-1)).toMatchObject({ name: 'Shipping.Program.Main', line: program.line('relay-await'), async: true });
      expect(await locals(sessionId, depots[0]!.index)).toMatchObject({ depots: '1' });
      expect(await locals(sessionId, depots[19]!.index)).toMatchObject({ depots: '20' });
    });
  });

  describe('through a hand-written IValueTaskSource and a TaskCompletionSource', () => {
    const logical = (frames: Frame[]) => frames.filter((f) => f.async && f.file).map((f) => [f.name, f.line]);

    it('stopped in the work a custom IValueTaskSource hands on, shows the methods awaiting the source', async () => {
      const { sessionId } = await launch(['dispatch'], { breakpoints: [{ file: scale.path, line: scale.line('settled') }] });
      const { text, frames } = await stack(sessionId, { count: 40 });
      expect(frames[0]).toMatchObject({ name: 'Shipping.ParcelScale.SettleAsync', line: scale.line('settled') });
      expect(logical(frames), text).toEqual([
        ['Shipping.DispatchDesk.ShipAsync', desk.line('weigh-await')],
        ['Shipping.Program.Main', program.line('dispatch-await')],
      ]);
      expect(text).toMatch(/Shipping\.DispatchDesk\.ShipAsync \(DispatchDesk\.cs:\d+\) \[async\]/);
    });

    it('stopped in the work a ContinueWith hands to a TaskCompletionSource, shows the methods awaiting its task', async () => {
      const { sessionId } = await launch(['dispatch'], { breakpoints: [{ file: courier.path, line: courier.line('strokes') }] });
      const { text, frames } = await stack(sessionId, { count: 40 });
      expect(frames[0]).toMatchObject({ name: 'Shipping.Courier.CaptureStrokesAsync', line: courier.line('strokes') });
      expect(logical(frames), text).toEqual([
        ['Shipping.Courier.SignAsync', courier.line('pad-await')],
        ['Shipping.Program.Main', program.line('dispatch-await')],
      ]);
    });

    it('stopped in the method that completes a TaskCompletionSource, shows who awaits the completer', async () => {
      const { sessionId } = await launch(['dispatch'], { breakpoints: [{ file: courier.path, line: courier.line('after-sign') }] });
      const { text, frames } = await stack(sessionId, { count: 40 });
      expect(frames[0]).toMatchObject({ name: 'Shipping.Courier.SignAsync', line: courier.line('after-sign') });
      expect(logical(frames), text).toEqual([['Shipping.Program.Main', program.line('dispatch-await')]]);
    });

    it('stopped in the awaiter a TaskCompletionSource resumed, shows its awaiting callers and the completer below it', async () => {
      const { sessionId } = await launch(['dispatch'], { breakpoints: [{ file: courier.path, line: courier.line('signed') }] });
      const { text, frames } = await stack(sessionId, { count: 40 });
      expect(frames[0]).toMatchObject({ name: 'Shipping.Courier.DeliverAsync', line: courier.line('signed') });
      // The signature was set on the completer's thread: the awaiter resumed inside its SetResult (and
      // the completer inside the pad's callback).
      expect(frames.filter((f) => f.file && !f.async).map((f) => [f.name, f.line])).toEqual([
        ['Shipping.Courier.DeliverAsync', courier.line('signed')],
        ['Shipping.Courier.SignAsync', courier.line('sign')],
        ['Shipping.Courier.ReadPadAsync.<lambda>', courier.line('pad-set')],
      ]);
      expect(logical(frames), text).toEqual([
        ['Shipping.DispatchDesk.ShipAsync', desk.line('deliver-await')],
        ['Shipping.Program.Main', program.line('dispatch-await')],
      ]);
      expect(await locals(sessionId, frames.find((f) => f.name === 'Shipping.DispatchDesk.ShipAsync')!.index)).toMatchObject({ parcel: '"atlas"' });
    });
  });

  describe('exceptions that cross awaits', () => {
    it.each([
      {
        mode: 'refused',
        what: 'caught in an awaiting caller: the chain from the throw ends at the awaiting method that catches it, with its catch',
        chain: () => [
          ['Shipping.QuoteService.QuoteAsync', quotes.line('distance-await'), undefined],
          ['Shipping.QuoteService.TryQuoteAsync', quotes.line('try-await'), { file: quotes.path, line: quotes.line('catch-clause') }],
        ],
        text: () => `Shipping.QuoteService.TryQuoteAsync (QuoteService.cs:${quotes.line('try-await')}) [async] catches it at QuoteService.cs:${quotes.line('catch-clause')}`,
      },
      {
        mode: 'lost',
        what: 'unhandled in every awaiting caller: the chain from the throw runs to Main and no caller catches it',
        chain: () => [
          ['Shipping.QuoteService.QuoteAsync', quotes.line('distance-await'), undefined],
          ['Shipping.Program.Main', program.line('lost-await'), undefined],
        ],
        text: () => undefined,
      },
    ])('a throw $what', async ({ mode, chain, text }) => {
      const r = await client.call<Wait>('session_launch', { program: shipping, args: [mode], waitForStop: true, timeoutMs: 60_000, exceptions: 'all' });
      const stop = r.structured.stop;
      expect(stop, r.text).toMatchObject({ reason: 'exception', frame: { name: 'Shipping.RateCard.DistanceAsync', line: rates.line('unknown-city') } });
      expect((stop!.exception!.frames ?? []).filter((e) => e.async).map((e) => [e.name, e.line, e.catches]), r.text).toEqual(chain());
      const marked = text();
      if (marked) expect(r.text).toContain(marked);
      else expect(r.text).not.toContain('catches it');
    });

    it('unhandled in the awaiting callers: the stop tells where it was thrown and the awaits it came through', async () => {
      const { stop } = await launch(['lost'], {});
      expect(stop).toMatchObject({ reason: 'exception', exception: { type: 'Shipping.UnknownCityException', kind: expect.stringMatching(/unhandled/i) } });
      expect((stop!.exception!.frames ?? []).some((e) => e.catches)).toBe(false);
      expect(stop!.exception!.thrownAt).toMatchObject({ file: rates.path, line: rates.line('unknown-city') });
      const path = (stop!.exception!.frames ?? []).filter((e) => e.file).map((e) => [e.name, e.line]);
      expect(path).toEqual([
        ['Shipping.RateCard.DistanceAsync', rates.line('unknown-city')],
        ['Shipping.QuoteService.QuoteAsync', quotes.line('distance-await')],
        ['Shipping.Program.Main', program.line('lost-await')],
      ]);
    });
  });
});
