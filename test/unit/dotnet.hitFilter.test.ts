import { describe, expect, it } from 'vitest';
import { parseExpression } from '../../src/engines/dotnet/expressions/parser.js';
import { compileHitFilter, filterNames, type FilterVariable } from '../../src/engines/dotnet/host/hitFilter.js';
import { ElementType } from '../../src/engines/dotnet/host/values/nativeValue.js';

const frame = new Map<string, FilterVariable>([
  ['i', { kind: 'local', index: 1, et: ElementType.i4 }],
  ['u', { kind: 'local', index: 2, et: ElementType.u4 }],
  ['half', { kind: 'local', index: 3, et: ElementType.r8 }],
  ['letter', { kind: 'local', index: 4, et: ElementType.char }],
  ['word', { kind: 'local', index: 5, et: ElementType.string }],
  ['even', { kind: 'local', index: 6, et: ElementType.boolean }],
  ['big', { kind: 'argument', index: 0, et: ElementType.u8 }],
  ['small', { kind: 'argument', index: 1, et: ElementType.u1 }],
]);
const compile = (text: string) => compileHitFilter(parseExpression(text), frame);

describe('hit filters: C# conditions compiled for the debugger thread', () => {
  it('compiles a comparison of a local with a constant', () => {
    expect(compile('i == 9999')).toEqual([
      { op: 'var', kind: 'local', index: 1, et: ElementType.i4 },
      { op: 'convert', type: 'i32' },
      { op: 'const', type: 'i32', v: '9999' },
      { op: 'convert', type: 'i32' },
      { op: 'compare', operator: '==' },
    ]);
  });

  it('types operators as C# does: promotion, constants that fit, mixed integer and floating', () => {
    const types = (text: string) => compile(text)?.flatMap((op) => ('type' in op && op.op !== 'const' ? [`${op.op}:${op.type}`] : []));
    // uint + a non-negative int constant stays uint (it wraps at 2^32); uint + int variable is long.
    expect(types('u + 1 > 5')).toEqual(['convert:u32', 'convert:u32', 'binary:u32', 'convert:u32', 'convert:u32']);
    expect(types('u + i > 5')).toEqual(['convert:i64', 'convert:i64', 'binary:i64', 'convert:i64', 'convert:i64']);
    // byte and char compute as int; int and double as double.
    expect(types('small * letter == 0')).toEqual(['convert:i32', 'convert:i32', 'binary:i32', 'convert:i32', 'convert:i32']);
    expect(types('i < half')).toEqual(['convert:f64', 'convert:f64']);
    expect(types('-u < 0')).toEqual(['convert:i64', 'negate:i64', 'convert:i64', 'convert:i64']);
  });

  it('folds constants and keeps && || ! on bools, strings and null by value', () => {
    expect(compile('i > 2 * 1000 + 1')?.find((op) => op.op === 'const')).toEqual({ op: 'const', type: 'i32', v: '2001' });
    expect(compile('!even && (word == "w3" || word == null)')?.map((op) => op.op)).toEqual(['var', 'not', 'var', 'const', 'compare', 'var', 'const', 'compare', 'or', 'and']);
    expect(compile('even ^ i > 3')?.at(-1)).toEqual({ op: 'compare', operator: '!=' });
    expect(compile('half > -0.0')?.find((op) => op.op === 'const')).toEqual({ op: 'const', type: 'f64', v: '-0' });
    expect(compile('u > 3500000000u && even')).toBeDefined();
    expect(compile('i * 1000000000 < 0 && i > 10')).toBeDefined();
  });

  it('leaves to the evaluator what a filter cannot compute exactly', () => {
    for (const text of [
      'word.Length > 2', // a member (a func-eval)
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
      expect(compile(text), text).toBeUndefined();
    }
  });

  it('names only what a filter could read', () => {
    expect([...filterNames(parseExpression('i > 2 && word != null'))!]).toEqual(['i', 'word']);
    expect(filterNames(parseExpression('order.Total > 2'))).toBeUndefined();
    expect(filterNames(parseExpression('list[0] == 1'))).toBeUndefined();
  });
});
