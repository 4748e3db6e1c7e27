/**
 * C#'s numeric semantics on constant values against what C# itself computed (dotnet.csharpFacts.ts):
 * operator resolution and promotion for every pair of types, arithmetic with overflow and division
 * by zero, shifts, casts, exact decimal arithmetic, string concatenation and ToString() formatting.
 */
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../src/engines/dotnet/expressions/ast.js';
import {
  binaryNumericPromotion,
  convertExplicit,
  convertImplicit,
  type CsType,
  type CsValue,
  CSharpOperationError,
  defaultValue,
  evaluateBinary,
  evaluateUnary,
  floatingValue,
  integralValue,
  SIZEOF,
  formatDouble,
  formatSingle,
  formatValue,
  isImplicitlyConvertible,
  unaryNumericPromotion,
  type ValueBinaryOperator,
} from '../../src/engines/dotnet/expressions/numeric.js';
import { parseExpression } from '../../src/engines/dotnet/expressions/parser.js';
import {
  BINARY,
  BINARY_OPERATORS,
  BITWISE,
  CAST_TARGETS,
  CASTS,
  CONCAT,
  CONSTANT_OPERANDS,
  CONSTANT_PROMOTIONS,
  DOUBLE_TEXT,
  FLOAT_TEXT,
  PROMOTION_TYPES,
  PROMOTIONS,
  SHIFTS,
  UNARY,
  UNARY_PROMOTIONS,
} from './dotnet.csharpFacts.js';

/** Folds a constant C# expression (literals, unary, binary, casts to predefined types). */
function fold(e: Expr): CsValue {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'unary':
      return evaluateUnary(e.operator, fold(e.operand));
    case 'binary':
      return evaluateBinary(e.operator as ValueBinaryOperator, fold(e.left), fold(e.right));
    case 'cast':
      if (e.type.kind !== 'predefinedType') throw new Error(`cannot fold a cast to ${e.type.kind}`);
      return convertExplicit(fold(e.operand), e.type.name as CsType);
    default:
      throw new Error(`cannot fold ${e.kind}`);
  }
}

const constant = (text: string) => fold(parseExpression(text));

/** The value of C# source text as a run-time (non-constant) value, like C#'s V(x). */
function variable(text: string): CsValue {
  const { constant: _, ...v } = constant(text);
  return v as CsValue;
}

/** What the C# program printed for an operation: type:ToString(), !Exception:message or !CSxxxx. */
function outcome(operation: () => CsValue): string {
  try {
    const v = operation();
    return v.type === 'null' ? 'null' : `${v.type}:${formatValue(v)}`;
  } catch (e) {
    if (!(e instanceof CSharpOperationError)) throw e;
    return e.kind === 'compile' ? `!${e.code}` : `!${e.code}:${e.message}`;
  }
}

/** Rows of [operands, ...results] against our results, as one comparison with a readable diff. */
function compare(rows: [string[], ...string[]][], compute: (operands: CsValue[], column: number) => CsValue) {
  const expected = rows.map(([operands, ...results]) => [operands.join(' | '), ...results]);
  const actual = rows.map(([operands, ...results]) => {
    const values = operands.map(variable);
    return [operands.join(' | '), ...results.map((_, column) => outcome(() => compute(values, column)))];
  });
  expect(actual).toEqual(expected);
}

describe('C# operators on values, as .NET 10 computes them', () => {
  it('arithmetic, division, remainder and comparison across types (incl. overflow, division by zero, NaN)', () => {
    compare(BINARY, ([a, b], i) => evaluateBinary(BINARY_OPERATORS[i]!, a!, b!));
  });

  it('decimal arithmetic is exact, keeps scales and rounds half to even only past 28 places or 96 bits', () => {
    const decimalRows = BINARY.filter(([operands]) => operands.some((o) => o.endsWith('m')));
    expect(decimalRows.length).toBeGreaterThan(40);
    compare(decimalRows, ([a, b], i) => evaluateBinary(BINARY_OPERATORS[i]!, a!, b!));
  });

  it('shifts mask the count (& 31, & 63); >> is arithmetic on signed types, >>> logical', () => {
    compare(SHIFTS, ([a, b], i) => evaluateBinary((['<<', '>>', '>>>'] as const)[i]!, a!, b!));
  });

  it('& | ^ on integers and on bools', () => {
    compare(BITWISE, ([a, b], i) => evaluateBinary((['&', '|', '^'] as const)[i]!, a!, b!));
  });

  it('unary + - ~ with their promotions (-uint is long, ~byte is int)', () => {
    compare(UNARY, ([a], i) => evaluateUnary((['+', '-', '~'] as const)[i]!, a!));
  });

  it('explicit conversions: wrapping, saturating float→int, decimal overflow, 15-digit double→decimal', () => {
    compare(CASTS, ([a], i) => convertExplicit(a!, CAST_TARGETS[i]!));
  });

  it('string concatenation formats any operand with ToString(); null is empty', () => {
    compare(CONCAT, ([a, b]) => evaluateBinary('+', a!, b!));
  });
});

const LETTER: Record<string, string> = { int: 'i', uint: 'I', long: 'l', ulong: 'L', float: 'f', double: 'd', decimal: 'm', bool: 'b', string: 's', null: 'n', char: 'c' };
const ERROR_LETTER: Record<string, string> = { CS0019: '.', CS0034: '?', CS0023: '!' };

function sample(type: CsType): CsValue {
  if (type === 'bool') return { type, value: true };
  if (type === 'string') return { type, value: 's' };
  if (type === 'float' || type === 'double') return { type, value: 1 };
  if (type === 'decimal') return { type, value: { mantissa: 1n, scale: 0 } };
  if (type === 'null') return { type, value: null };
  return { type, value: 1n };
}

function letter(operation: () => CsValue): string {
  try {
    return LETTER[operation().type]!;
  } catch (e) {
    if (e instanceof CSharpOperationError && ERROR_LETTER[e.code]) return ERROR_LETTER[e.code]!;
    throw e;
  }
}

describe('C# operator resolution and numeric promotion (ECMA-334 §12.4.7), as the C# compiler decides', () => {
  it('every binary operator on every pair of predefined types', () => {
    for (const [op, expected] of Object.entries(PROMOTIONS)) {
      const actual = PROMOTION_TYPES.map((a) => PROMOTION_TYPES.map((b) => letter(() => evaluateBinary(op as ValueBinaryOperator, sample(a), sample(b)))).join('')).join(' ');
      expect({ op, table: actual }).toEqual({ op, table: expected });
    }
  });

  it('every unary operator on every predefined type (-ulong is an error)', () => {
    for (const [op, expected] of Object.entries(UNARY_PROMOTIONS)) {
      const actual = PROMOTION_TYPES.map((a) => letter(() => evaluateUnary(op as '+' | '-' | '~' | '!', sample(a)))).join('');
      expect({ op, table: actual }).toEqual({ op, table: expected });
    }
  });

  it('a constant operand converts implicitly where it fits: uint + 1 is uint, ulong + -1 is ambiguous', () => {
    for (const [op, side, expected] of CONSTANT_PROMOTIONS) {
      const words = PROMOTION_TYPES.slice(0, 12).map((t) =>
        CONSTANT_OPERANDS.map((c) => {
          const [a, b] = side === 'left' ? [sample(t), constant(c)] : [constant(c), sample(t)];
          return letter(() => evaluateBinary(op as ValueBinaryOperator, a, b));
        }).join(''),
      );
      expect({ op, side, table: words.join(' ') }).toEqual({ op, side, table: expected });
    }
  });

  it('names the promoted type, and fails with C#\'s own messages', () => {
    expect(binaryNumericPromotion('byte', 'byte')).toBe('int');
    expect(binaryNumericPromotion('int', 'uint')).toBe('long');
    expect(binaryNumericPromotion('uint', 'long')).toBe('long');
    expect(binaryNumericPromotion('float', 'double')).toBe('double');
    expect(binaryNumericPromotion('char', 'ushort')).toBe('int');
    expect(unaryNumericPromotion('sbyte')).toBe('int');
    expect(unaryNumericPromotion('ulong')).toBe('ulong');
    expect(() => binaryNumericPromotion('ulong', 'int')).toThrow("Operator '+' is ambiguous on operands of type 'ulong' and 'int'");
    expect(() => binaryNumericPromotion('decimal', 'double')).toThrow("Operator '+' cannot be applied to operands of type 'decimal' and 'double'");
    expect(() => evaluateUnary('-', sample('ulong'))).toThrow("Operator '-' cannot be applied to operand of type 'ulong'");
    expect(() => evaluateBinary('<', sample('string'), sample('string'))).toThrow(CSharpOperationError);
  });
});

describe('C# values', () => {
  it('constants stay constant through operators and casts; a variable operand makes a variable', () => {
    expect(constant('1 + 2')).toEqual({ type: 'int', value: 3n, constant: true });
    expect(constant('(byte)300')).toEqual({ type: 'byte', value: 44n, constant: true });
    expect(evaluateBinary('+', variable('5u'), constant('1'))).toEqual({ type: 'uint', value: 6n });
    expect(evaluateBinary('+', variable('5u'), variable('1'))).toEqual({ type: 'long', value: 6n });
  });

  it('constant arithmetic is checked as the compiler checks it; the same on a variable wraps or throws at run time', () => {
    const overflow = new CSharpOperationError('compile', 'CS0220', 'The operation overflows at compile time in checked mode');
    expect(() => evaluateBinary('+', constant('2147483647'), constant('1'))).toThrow(overflow);
    expect(() => evaluateBinary('*', constant('4294967295u'), constant('2u'))).toThrow(overflow);
    expect(() => evaluateBinary('-', constant('0ul'), constant('1ul'))).toThrow(overflow);
    expect(() => evaluateBinary('/', constant('-2147483648'), constant('-1'))).toThrow(overflow);
    expect(() => evaluateUnary('-', constant('-9223372036854775808'))).toThrow(overflow);
    expect(() => evaluateBinary('%', constant('7'), constant('0'))).toThrow('Division by constant zero');
    expect(evaluateBinary('<<', constant('2147483647'), constant('1'))).toEqual({ type: 'int', value: -2n, constant: true });
    expect(evaluateBinary('+', variable('2147483647'), constant('1'))).toEqual({ type: 'int', value: -2147483648n });
    expect(() => evaluateBinary('/', variable('1'), constant('0'))).toThrow('Attempted to divide by zero.');
  });

  it('builds values from raw numbers, and knows sizeof and default of the predefined types', () => {
    expect(integralValue('byte', 300)).toEqual({ type: 'byte', value: 44n });
    expect(integralValue('int', 0xffffffffn)).toEqual({ type: 'int', value: -1n });
    expect(integralValue('char', 65)).toEqual({ type: 'char', value: 65n });
    expect(floatingValue('float', 0.1)).toEqual({ type: 'float', value: Math.fround(0.1) });
    expect(floatingValue('double', 0.1)).toEqual({ type: 'double', value: 0.1 });
    expect([SIZEOF.bool, SIZEOF.char, SIZEOF.int, SIZEOF.double, SIZEOF.decimal, SIZEOF.string]).toEqual([1, 2, 4, 8, 16, undefined]);
    expect(['int', 'double', 'decimal', 'bool', 'string'].map((t) => outcome(() => defaultValue(t as CsType)))).toEqual(['int:0', 'double:0', 'decimal:0', 'bool:False', 'null']);
  });

  it('implicit conversions: numeric widening, constants in range, null to string, errors like CS0266', () => {
    expect(isImplicitlyConvertible(variable('1'), 'long')).toBe(true);
    expect(isImplicitlyConvertible(variable('1'), 'byte')).toBe(false);
    expect(isImplicitlyConvertible(constant('255'), 'byte')).toBe(true);
    expect(isImplicitlyConvertible(constant('256'), 'byte')).toBe(false);
    expect(isImplicitlyConvertible(constant('-1'), 'uint')).toBe(false);
    expect(isImplicitlyConvertible(constant('1L'), 'ulong')).toBe(true);
    expect(isImplicitlyConvertible(constant('1'), 'char')).toBe(false);
    expect(isImplicitlyConvertible(constant('null'), 'string')).toBe(true);
    expect(convertImplicit(constant('200'), 'byte')).toEqual({ type: 'byte', value: 200n, constant: true });
    expect(() => convertImplicit(variable('1L'), 'int')).toThrow("Cannot implicitly convert type 'long' to 'int'. An explicit conversion exists (are you missing a cast?)");
    expect(() => convertImplicit(variable('true'), 'int')).toThrow("Cannot implicitly convert type 'bool' to 'int'");
    expect(() => convertExplicit(variable('true'), 'int')).toThrow("Cannot convert type 'bool' to 'int'");
    expect(() => convertExplicit(constant('null'), 'int')).toThrow("Cannot convert null to 'int' because it is a non-nullable value type");
  });

  it('a null operand lifts the operator', () => {
    expect(outcome(() => evaluateBinary('+', constant('null'), variable('1')))).toBe('null');
    expect(outcome(() => evaluateBinary('==', constant('null'), variable('1')))).toBe('bool:False');
    expect(outcome(() => evaluateBinary('!=', variable('1'), constant('null')))).toBe('bool:True');
    expect(outcome(() => evaluateBinary('<', variable('1'), constant('null')))).toBe('bool:False');
    expect(outcome(() => evaluateBinary('&', variable('false'), constant('null')))).toBe('bool:False');
    expect(outcome(() => evaluateBinary('|', variable('true'), constant('null')))).toBe('bool:True');
    expect(outcome(() => evaluateBinary('&', variable('true'), constant('null')))).toBe('null');
    expect(outcome(() => evaluateBinary('==', constant('null'), constant('null')))).toBe('bool:True');
    expect(outcome(() => evaluateBinary('==', variable('"a"'), constant('null')))).toBe('bool:False');
    expect(outcome(() => evaluateBinary('+', constant('null'), constant('null')))).toBe('!CS0034');
  });

  it('decimal + - * are exact whenever the result fits (random operands against bigint arithmetic)', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    for (let i = 0; i < 300; i++) {
      const a = { mantissa: BigInt(random(2_000_000_000)) * BigInt(random(1_000_000)) - 10n ** 14n, scale: random(10) };
      const b = { mantissa: BigInt(random(2_000_000_000)) - 10n ** 9n, scale: random(10) };
      const exact = (x: typeof a, y: typeof a, f: (p: bigint, q: bigint) => bigint, scale: number) => ({ mantissa: f(x.mantissa, y.mantissa), scale });
      const scale = Math.max(a.scale, b.scale);
      const align = (x: typeof a) => x.mantissa * 10n ** BigInt(scale - x.scale);
      const sum = evaluateBinary('+', { type: 'decimal', value: a }, { type: 'decimal', value: b });
      expect(sum.value).toEqual({ mantissa: align(a) + align(b), scale });
      const product = evaluateBinary('*', { type: 'decimal', value: a }, { type: 'decimal', value: b });
      expect(product.value).toEqual(exact(a, b, (p, q) => p * q, a.scale + b.scale));
    }
  });

  it('formats doubles and floats as .NET does: shortest round trip, E notation past 17 (double) / 9 (float) digits', () => {
    const view = new DataView(new ArrayBuffer(8));
    const double = (hex: string) => (view.setBigUint64(0, BigInt(hex)), view.getFloat64(0));
    const single = (hex: string) => (view.setUint32(0, Number(hex)), view.getFloat32(0));
    expect(DOUBLE_TEXT.map(([bits]) => [bits, formatDouble(double(bits))])).toEqual(DOUBLE_TEXT);
    expect(FLOAT_TEXT.map(([bits]) => [bits, formatSingle(single(bits))])).toEqual(FLOAT_TEXT);
    const cases: [number, string][] = [[0.1, '0.1'], [1e16, '10000000000000000'], [1e17, '1E+17'], [0.0001, '0.0001'], [0.00001, '1E-05'], [5e-324, '5E-324'], [-0, '-0'], [NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'], [1.7976931348623157e308, '1.7976931348623157E+308']];
    expect(cases.map(([x]) => [x, formatDouble(x)])).toEqual(cases);
    const floats: [number, string][] = [[1e8, '100000000'], [1e9, '1E+09'], [123456789, '123456790'], [0.1, '0.1'], [3.4028234663852886e38, '3.4028235E+38'], [1.401298464324817e-45, '1E-45']];
    expect(floats.map(([x]) => [x, formatSingle(Math.fround(x))])).toEqual(floats);
  });
});
