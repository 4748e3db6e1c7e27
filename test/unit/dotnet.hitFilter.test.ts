import { describe, expect, it } from 'vitest';
import type { Expr } from '../../src/engines/dotnet/expressions/ast.js';
import { parseExpression } from '../../src/engines/dotnet/expressions/parser.js';
import { observeCondition, type ConditionReads } from '../../src/engines/dotnet/host/filterObservation.js';
import { compileHitFilter, fitsFilter } from '../../src/engines/dotnet/host/hitFilter.js';
import type { FilterOp } from '../../src/engines/dotnet/host/nativeSession.js';
import { ElementType, type NativeValue } from '../../src/engines/dotnet/host/values/nativeValue.js';

const primitive = (et: number, v = '1'): NativeValue => ({ h: 0, et, v });
const object = (token: number, et: number = ElementType.class): NativeValue => ({ h: 0, et, chain: [{ et, module: 1, token }] });
const ORDER = 0x02000007;
const SELF = 0x02000003;
/** An async method's state machine, holding a hoisted local. */
const STATE = 0x02000009;

/** One stopped frame: its plain locals and arguments, `this`, and the fields of the objects. */
const locals: Record<string, { kind: 'local' | 'argument'; index: number; value: NativeValue }> = {
  i: { kind: 'local', index: 1, value: primitive(ElementType.i4) },
  u: { kind: 'local', index: 2, value: primitive(ElementType.u4) },
  half: { kind: 'local', index: 3, value: primitive(ElementType.r8) },
  letter: { kind: 'local', index: 4, value: primitive(ElementType.char) },
  word: { kind: 'local', index: 5, value: { h: 0, et: ElementType.string, str: 'w1', len: 2 } },
  even: { kind: 'local', index: 6, value: primitive(ElementType.boolean, 'true') },
  order: { kind: 'local', index: 7, value: object(ORDER) },
  numbers: { kind: 'local', index: 8, value: { h: 0, et: ElementType.szarray, len: 3 } },
  nothing: { kind: 'local', index: 9, value: { h: 0, null: true } },
  big: { kind: 'argument', index: 1, value: primitive(ElementType.u8) },
  small: { kind: 'argument', index: 2, value: primitive(ElementType.u1) },
  this: { kind: 'argument', index: 0, value: object(SELF) },
  machine: { kind: 'argument', index: 3, value: object(STATE) },
};
const fields: Record<number, Record<string, { token: number; value: NativeValue }>> = {
  [SELF]: { count: { token: 0x04000001, value: primitive(ElementType.i4) } },
  [STATE]: { '<attempt>5__2': { token: 0x04000020, value: primitive(ElementType.i4) } },
  [ORDER]: { Id: { token: 0x04000010, value: primitive(ElementType.i4) }, Customer: { token: 0x04000011, value: { h: 0, et: ElementType.string, str: 'ACME', len: 4 } } },
};
const reads: ConditionReads = {
  locate: (name) => (['attempt', 'lost'].includes(name) ? 'captured' : locals[name] && { kind: locals[name]!.kind, index: locals[name]!.index }),
  captured: async (name) => (name === 'attempt' ? { place: { kind: 'argument', index: 3 }, fields: ['<attempt>5__2'] } : undefined),
  variable: async (place) => Object.values(locals).find((l) => l.kind === place.kind && l.index === place.index)!.value,
  field: async (value, name) => {
    const type = value.chain?.[0]?.token ?? 0;
    const field = fields[type]?.[name];
    return field && { field: { module: 1, type, field: field.token }, value: field.value };
  },
};

async function compile(text: string): Promise<FilterOp[] | undefined> {
  const expr: Expr = parseExpression(text);
  if (!fitsFilter(expr)) return undefined;
  const seen = await observeCondition(expr, reads);
  return seen && compileHitFilter(seen.expr, seen.observed);
}

describe('hit filters: C# conditions compiled for the debugger thread', () => {
  it('compiles a comparison of a local with a constant', async () => {
    expect(await compile('i == 9999')).toEqual([
      { op: 'var', kind: 'local', index: 1, et: ElementType.i4 },
      { op: 'convert', type: 'i32' },
      { op: 'const', type: 'i32', v: '9999' },
      { op: 'convert', type: 'i32' },
      { op: 'compare', operator: '==' },
    ]);
  });

  it('types operators as C# does: promotion, constants that fit, mixed integer and floating', async () => {
    const types = async (text: string) => (await compile(text))?.flatMap((op) => ('type' in op && op.op !== 'const' && op.op !== 'field' ? [`${op.op}:${op.type}`] : []));
    // uint + a non-negative int constant stays uint (it wraps at 2^32); uint + int variable is long.
    expect(await types('u + 1 > 5')).toEqual(['convert:u32', 'convert:u32', 'binary:u32', 'convert:u32', 'convert:u32']);
    expect(await types('u + i > 5')).toEqual(['convert:i64', 'convert:i64', 'binary:i64', 'convert:i64', 'convert:i64']);
    // byte and char compute as int; int and double as double.
    expect(await types('small * letter == 0')).toEqual(['convert:i32', 'convert:i32', 'binary:i32', 'convert:i32', 'convert:i32']);
    expect(await types('i < half')).toEqual(['convert:f64', 'convert:f64']);
    expect(await types('-u < 0')).toEqual(['convert:i64', 'negate:i64', 'convert:i64', 'convert:i64']);
  });

  it('folds constants and keeps && || ! on bools, strings and null by value', async () => {
    expect((await compile('i > 2 * 1000 + 1'))?.find((op) => op.op === 'const')).toEqual({ op: 'const', type: 'i32', v: '2001' });
    expect((await compile('!even && (word == "w3" || word == null)'))?.map((op) => op.op)).toEqual(['var', 'not', 'var', 'const', 'compare', 'var', 'const', 'compare', 'or', 'and']);
    expect((await compile('even ^ i > 3'))?.at(-1)).toEqual({ op: 'compare', operator: '!=' });
    expect((await compile('half > -0.0'))?.find((op) => op.op === 'const')).toEqual({ op: 'const', type: 'f64', v: '-0' });
    expect(await compile('1 == 2')).toEqual([{ op: 'const', type: 'bool', v: false }]);
    expect(await compile('u > 3500000000u && even')).toBeDefined();
    expect(await compile('i * 1000000000 < 0 && i > 10')).toBeDefined();
  });

  it('leaves to the evaluator what a filter cannot compute exactly', async () => {
    for (const text of [
      'order.Total > 2', // not a field: a property getter (a func-eval)
      'order.Id.Length == 2', // no such member of an int
      'nothing.Id == 2', // a null on the way: its type is not known
      'lost == 2', // a variable the compiler moved into a class that the frame no longer holds
      'order == null', // reference equality of objects
      'word.ToUpper() == "W"', // a call
      'Math.Max(i, 2) == 2', // a call
      'i > 2 ? even : !even', // ?:
      '(long)i == 2', // a cast
      'i == null', // a lifted comparison
      'i << 2 == 8', // a shift
      'even & i > 2', // non-short-circuit bool operators
      'i + 0.5m > 1', // decimal
      'big == -1', // no operator for ulong and a negative int
      'i', // not a bool
      'other == 1', // not a plain local or argument
      'i / 0 == 1', // C# rejects it
    ]) {
      expect(await compile(text), text).toBeUndefined();
    }
  });

  it('reads fields (auto-properties too) of locals and of this, and string and array lengths', async () => {
    expect(await compile('order.Id == 7 && order.Customer.Length > 3')).toEqual([
      { op: 'var', kind: 'local', index: 7, et: ElementType.class },
      { op: 'field', module: 1, type: ORDER, field: 0x04000010, guardModule: 1, guardType: ORDER, et: ElementType.i4 },
      { op: 'convert', type: 'i32' },
      { op: 'const', type: 'i32', v: '7' },
      { op: 'convert', type: 'i32' },
      { op: 'compare', operator: '==' },
      { op: 'var', kind: 'local', index: 7, et: ElementType.class },
      { op: 'field', module: 1, type: ORDER, field: 0x04000011, guardModule: 1, guardType: ORDER, et: ElementType.string },
      { op: 'length' },
      { op: 'convert', type: 'i32' },
      { op: 'const', type: 'i32', v: '3' },
      { op: 'convert', type: 'i32' },
      { op: 'compare', operator: '>' },
      { op: 'and' },
    ]);
    // A name that is no local is a member of `this`, as C# looks it up.
    const implicit = await compile('count > 2');
    expect(implicit?.slice(0, 2)).toEqual([
      { op: 'var', kind: 'argument', index: 0, et: ElementType.class },
      { op: 'field', module: 1, type: SELF, field: 0x04000001, guardModule: 1, guardType: SELF, et: ElementType.i4 },
    ]);
    expect(await compile('this.count > 2')).toEqual(implicit);
    expect((await compile('numbers.Length == 3 && word.Length == 2'))?.filter((op) => op.op === 'length')).toHaveLength(2);
  });

  it('reads a hoisted local through the fields of the state machine that holds it', async () => {
    expect((await compile('attempt == 3'))?.slice(0, 2)).toEqual([
      { op: 'var', kind: 'argument', index: 3, et: ElementType.class },
      { op: 'field', module: 1, type: STATE, field: 0x04000020, guardModule: 1, guardType: STATE, et: ElementType.i4 },
    ]);
  });
});
