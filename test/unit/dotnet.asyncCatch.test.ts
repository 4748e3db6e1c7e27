/**
 * Which awaiting async method catches an exception, read from the exception-handling clauses of its
 * MoveNext in the shipping fixture as `dotnet build` writes it: the user's try/catch around an await
 * catches an exception of its type or a derived one; the compiler's handler that stores the exception
 * in the method's task catches nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import type { ModuleSymbols } from '../../src/engines/dotnet/symbols/moduleSymbols.js';
import { loadModuleSymbols } from '../../src/engines/dotnet/symbols/symbolLoader.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';

const run = requireRuntime('dotnet', findDotnet() !== undefined);
const UNKNOWN_CITY = ['Shipping.UnknownCityException', 'System.Exception', 'System.Object'];
const TIMEOUT = ['System.TimeoutException', 'System.SystemException', 'System.Exception'];

describe.runIf(run)('.NET async: the awaiting method that catches an exception', () => {
  let symbols: ModuleSymbols;
  const quotes = fixtureSource('shipping', 'QuoteService.cs');

  beforeAll(() => {
    const loaded = loadModuleSymbols(buildFixture('shipping'));
    if (!loaded.symbols) throw new Error('fixture symbols did not load');
    symbols = loaded.symbols;
  });

  /** The MoveNext of `method`'s state machine, and the IL offset of each of its awaits. */
  function awaitsOf(method: string): { moveNext: number; offsets: number[] } {
    const meta = symbols.metadata;
    for (let rid = 1; rid <= meta.methodCount; rid++) {
      const m = meta.method(rid);
      if (m.name === 'MoveNext' && meta.type(m.declaringType).name.startsWith(`<${method}>`)) {
        return { moveNext: m.token, offsets: (symbols.asyncInfo(m.token)?.awaits ?? []).map((a) => a.yieldOffset) };
      }
    }
    throw new Error(`no state machine for ${method}`);
  }

  it.each([
    ['its own type', UNKNOWN_CITY.slice(0, 1)],
    ['its class and bases, as the runtime lists them', UNKNOWN_CITY],
  ])('a try/catch around the await catches %s: the catch clause is named', (_, types) => {
    const { moveNext, offsets } = awaitsOf('TryQuoteAsync');
    expect(offsets).toHaveLength(1);
    const caught = symbols.asyncCatch(moveNext, offsets[0]!, types);
    expect(caught).toMatchObject({ filter: false, location: { file: quotes.path, line: quotes.line('catch-clause') } });
  });

  it('an exception of another type passes the catch', () => {
    const { moveNext, offsets } = awaitsOf('TryQuoteAsync');
    expect(symbols.asyncCatch(moveNext, offsets[0]!, TIMEOUT)).toBeUndefined();
  });

  it.each(['QuoteAsync', 'QuoteAllAsync'])("%s has no try of its own: the compiler's handler catches nothing", (method) => {
    const { moveNext, offsets } = awaitsOf(method);
    expect(offsets.length).toBeGreaterThan(0);
    for (const offset of offsets) expect(symbols.asyncCatch(moveNext, offset, UNKNOWN_CITY)).toBeUndefined();
  });
});
