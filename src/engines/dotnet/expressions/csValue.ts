/**
 * C# constant values as the expression evaluator computes with them, independent of the debugger:
 * integral types (char included) as bigint, float and double as number, decimal exact on bigint.
 * `constant` marks a compile-time constant (a literal, or an operation on constants): C# lets a
 * non-negative int constant convert implicitly to uint or ulong, so `u + 1` stays uint.
 */
import type { CsDecimal } from './csDecimal.js';

const INTEGRAL_TYPES = ['sbyte', 'byte', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'char'] as const;
export type IntegralType = (typeof INTEGRAL_TYPES)[number];
export type FloatingType = 'float' | 'double';
export type NumericType = IntegralType | FloatingType | 'decimal';
/** The types a constant can have; `null` is the type of the null literal. */
export type CsType = NumericType | 'bool' | 'string' | 'null';

export type CsValue =
  | { type: IntegralType; value: bigint; constant?: boolean }
  | { type: FloatingType; value: number; constant?: boolean }
  | { type: 'decimal'; value: CsDecimal; constant?: boolean }
  | { type: 'bool'; value: boolean; constant?: boolean }
  | { type: 'string'; value: string; constant?: boolean }
  | { type: 'null'; value: null; constant?: boolean };

export type IntegralValue = Extract<CsValue, { type: IntegralType }>;
export type FloatingValue = Extract<CsValue, { type: FloatingType }>;

const WIDTH: Record<IntegralType, { bits: number; signed: boolean }> = {
  sbyte: { bits: 8, signed: true },
  byte: { bits: 8, signed: false },
  short: { bits: 16, signed: true },
  ushort: { bits: 16, signed: false },
  char: { bits: 16, signed: false },
  int: { bits: 32, signed: true },
  uint: { bits: 32, signed: false },
  long: { bits: 64, signed: true },
  ulong: { bits: 64, signed: false },
};

export const isIntegralType = (t: CsType): t is IntegralType => t in WIDTH;
export const isNumericType = (t: CsType): t is NumericType => isIntegralType(t) || t === 'float' || t === 'double' || t === 'decimal';
export const isSignedIntegral = (t: IntegralType) => WIDTH[t].signed;
export const integralBits = (t: IntegralType) => WIDTH[t].bits;

export function integralRange(t: IntegralType): { min: bigint; max: bigint } {
  const { bits, signed } = WIDTH[t];
  return signed ? { min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n } : { min: 0n, max: (1n << BigInt(bits)) - 1n };
}

/** Two's-complement wrapping into the type's range: C#'s unchecked integer semantics. */
export function wrapIntegral(t: IntegralType, value: bigint): bigint {
  const { bits, signed } = WIDTH[t];
  return signed ? BigInt.asIntN(bits, value) : BigInt.asUintN(bits, value);
}

/** A value of an integral type from a debuggee's raw number, wrapped into the type's range. */
export function integralValue(type: IntegralType, value: bigint | number): IntegralValue {
  return { type, value: wrapIntegral(type, typeof value === 'number' ? BigInt(Math.trunc(value)) : value) };
}

/** A float or double value (a float rounded to single precision). */
export function floatingValue(type: FloatingType, value: number): FloatingValue {
  return { type, value: type === 'float' ? Math.fround(value) : value };
}


export const boolValue = (value: boolean): CsValue => ({ type: 'bool', value });
export const stringValue = (value: string): CsValue => ({ type: 'string', value });
export const nullValue = (): CsValue => ({ type: 'null', value: null });

/** `sizeof(T)` for the predefined types that have one. */
export const SIZEOF: Partial<Record<CsType, number>> = {
  sbyte: 1,
  byte: 1,
  bool: 1,
  short: 2,
  ushort: 2,
  char: 2,
  int: 4,
  uint: 4,
  float: 4,
  long: 8,
  ulong: 8,
  double: 8,
  decimal: 16,
};

/** `default(T)` for a predefined type: zero, false, or null for string. */
export function defaultValue(type: CsType): CsValue {
  if (isIntegralType(type)) return { type, value: 0n };
  if (type === 'float' || type === 'double') return { type, value: 0 };
  if (type === 'decimal') return { type, value: { mantissa: 0n, scale: 0 } };
  if (type === 'bool') return { type, value: false };
  return nullValue();
}

/** How C# names a type in its messages. */
export const typeDisplayName = (t: CsType) => (t === 'null' ? '<null>' : t);

export type CSharpErrorKind = 'compile' | 'runtime';

/**
 * A failed operation, as C# reports it: a compile-time error (`code` like `CS0019`, the message the
 * C# compiler writes) or an exception the operation throws at run time (`code` the exception's type,
 * the message .NET gives it).
 */
export class CSharpOperationError extends Error {
  override readonly name = 'CSharpOperationError';
  constructor(
    readonly kind: CSharpErrorKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const compileError = (code: string, message: string) => new CSharpOperationError('compile', code, message);

export const divideByZero = () => new CSharpOperationError('runtime', 'System.DivideByZeroException', 'Attempted to divide by zero.');

export const arithmeticOverflow = () =>
  new CSharpOperationError('runtime', 'System.OverflowException', 'Arithmetic operation resulted in an overflow.');

/** .NET's OverflowException for a value out of a type's range; `typeName` as .NET words it ("a Decimal"). */
export const valueOverflow = (typeName: string) =>
  new CSharpOperationError('runtime', 'System.OverflowException', `Value was either too large or too small for ${typeName}.`);
