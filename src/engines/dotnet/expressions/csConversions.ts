/**
 * C#'s conversions between the predefined value types (ECMA-334 §10.2.3 implicit numeric, §10.3.2
 * explicit numeric) with the values .NET 10 on x64 computes in an unchecked context:
 * - integers wrap (two's complement);
 * - float/double → int, uint, long, ulong saturate (NaN → 0), and → sbyte, byte, short, ushort,
 *   char go through a saturated int first, then wrap: (byte)300.0 = 44, (byte)1e10 = 255
 *   (.NET 9 made these conversions saturating; older runtimes gave 0x80000000 for out-of-range int);
 * - anything → decimal and decimal → integers throw OverflowException when out of range;
 * - integers → float/double round to nearest, ties to even.
 */
import {
  decimalFromBigInt,
  decimalFromBinary,
  decimalToDouble,
  decimalTruncate,
  pow10,
} from './csDecimal.js';
import {
  compileError,
  type CsType,
  type CsValue,
  integralRange,
  type IntegralType,
  isIntegralType,
  isNumericType,
  type NumericType,
  typeDisplayName,
  valueOverflow,
  wrapIntegral,
} from './csValue.js';

const IMPLICIT_NUMERIC: Record<NumericType, readonly NumericType[]> = {
  sbyte: ['short', 'int', 'long', 'float', 'double', 'decimal'],
  byte: ['short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal'],
  short: ['int', 'long', 'float', 'double', 'decimal'],
  ushort: ['int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal'],
  int: ['long', 'float', 'double', 'decimal'],
  uint: ['long', 'ulong', 'float', 'double', 'decimal'],
  long: ['float', 'double', 'decimal'],
  ulong: ['float', 'double', 'decimal'],
  char: ['ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal'],
  float: ['double'],
  double: [],
  decimal: [],
};

/** An implicit numeric conversion (or identity) exists from one type to the other. */
export const hasImplicitNumericConversion = (from: NumericType, to: NumericType) =>
  from === to || IMPLICIT_NUMERIC[from].includes(to);

const CONSTANT_INT_TARGETS: readonly CsType[] = ['sbyte', 'byte', 'short', 'ushort', 'uint', 'ulong'];

/**
 * Whether a value converts implicitly to a type: identity, the implicit numeric conversions, null
 * to string, and the constant conversions (an int constant in range to sbyte … ulong, a
 * non-negative long constant to ulong).
 */
export function isImplicitlyConvertible(v: CsValue, to: CsType): boolean {
  if (v.type === to) return true;
  if (v.type === 'null') return to === 'string';
  if (!isNumericType(v.type) || !isNumericType(to)) return false;
  if (hasImplicitNumericConversion(v.type, to)) return true;
  if (!v.constant) return false;
  if (v.type === 'int' && CONSTANT_INT_TARGETS.includes(to) && isIntegralType(to)) return inRange(v.value as bigint, to);
  return v.type === 'long' && to === 'ulong' && (v.value as bigint) >= 0n;
}

const inRange = (n: bigint, t: IntegralType) => {
  const { min, max } = integralRange(t);
  return n >= min && n <= max;
};

/** An implicit conversion, or the compile error C# gives when there is none. */
export function convertImplicit(v: CsValue, to: CsType): CsValue {
  if (isImplicitlyConvertible(v, to)) return convertExplicit(v, to);
  const from = typeDisplayName(v.type);
  if (isNumericType(v.type) && isNumericType(to)) {
    throw compileError('CS0266', `Cannot implicitly convert type '${from}' to '${to}'. An explicit conversion exists (are you missing a cast?)`);
  }
  if (v.type === 'null' && isNumericType(to)) throw nullToValueType(to);
  throw compileError('CS0029', `Cannot implicitly convert type '${from}' to '${typeDisplayName(to)}'`);
}

const nullToValueType = (to: CsType) =>
  compileError('CS0037', `Cannot convert null to '${to}' because it is a non-nullable value type`);

/** A cast `(T)value` in an unchecked context. */
export function convertExplicit(v: CsValue, to: CsType): CsValue {
  if (v.type === to) return v;
  if (v.type === 'null') {
    if (to === 'string') return v;
    throw nullToValueType(to);
  }
  if (!isNumericType(v.type) || !isNumericType(to)) {
    throw compileError('CS0030', `Cannot convert type '${typeDisplayName(v.type)}' to '${typeDisplayName(to)}'`);
  }
  const converted = convertNumeric(v, to);
  return v.constant ? { ...converted, constant: true } : converted;
}

const OVERFLOW_NAME: Record<IntegralType, string> = {
  sbyte: 'a signed byte',
  byte: 'an unsigned byte',
  short: 'an Int16',
  ushort: 'a UInt16',
  char: 'a character',
  int: 'an Int32',
  uint: 'a UInt32',
  long: 'an Int64',
  ulong: 'a UInt64',
};

function convertNumeric(v: CsValue, to: NumericType): CsValue {
  switch (v.type) {
    case 'float':
    case 'double': {
      const x = v.value;
      if (isIntegralType(to)) return { type: to, value: floatingToIntegral(x, to) };
      if (to === 'decimal') return { type: to, value: decimalFromBinary(x, v.type === 'float') };
      return { type: to, value: to === 'float' ? Math.fround(x) : x };
    }
    case 'decimal': {
      if (isIntegralType(to)) {
        const n = decimalTruncate(v.value);
        if (!inRange(n, to)) throw valueOverflow(OVERFLOW_NAME[to]);
        return { type: to, value: n };
      }
      const x = decimalToDouble(v.value);
      return { type: to as 'float' | 'double', value: to === 'float' ? Math.fround(x) : x };
    }
    default: {
      const n = v.value as bigint;
      if (isIntegralType(to)) return { type: to, value: wrapIntegral(to, n) };
      if (to === 'decimal') return { type: to, value: decimalFromBigInt(n) };
      return { type: to, value: to === 'float' ? bigintToSingle(n) : Number(n) };
    }
  }
}

const SATURATING: readonly IntegralType[] = ['int', 'uint', 'long', 'ulong'];

function floatingToIntegral(x: number, to: IntegralType): bigint {
  if (!SATURATING.includes(to)) return wrapIntegral(to, floatingToIntegral(x, 'int'));
  if (Number.isNaN(x)) return 0n;
  const { min, max } = integralRange(to);
  if (x === Infinity) return max;
  if (x === -Infinity) return min;
  const n = BigInt(Math.trunc(x));
  return n < min ? min : n > max ? max : n;
}

const bitLength = (n: bigint) => (n === 0n ? 0 : n.toString(2).length);

/** The float nearest to an integer (ties to even): exact, unlike Math.fround(Number(n)). */
export function bigintToSingle(n: bigint): number {
  const magnitude = n < 0n ? -n : n;
  if (magnitude < 1n << 53n) return Math.fround(Number(n));
  const shift = BigInt(bitLength(magnitude) - 24);
  let significand = magnitude >> shift;
  const rest = magnitude - (significand << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (significand & 1n) === 1n)) significand++;
  const value = Number(significand) * 2 ** Number(shift);
  return Math.fround(n < 0n ? -value : value);
}

/**
 * The float nearest to digits × 10^exponent (ties to even), as the C# compiler reads a float
 * literal: exact, where parsing as a double first could round twice. Infinity when too large.
 */
export function decimalToSingle(digits: bigint, exponent: number): number {
  const approx = Number(`${digits}e${exponent}`);
  if (approx === 0 || !Number.isFinite(approx)) return approx;
  const num = exponent >= 0 ? digits * pow10(exponent) : digits;
  const den = exponent >= 0 ? 1n : pow10(-exponent);
  const quotientAt = (e2: number) => (e2 >= 0 ? num / (den << BigInt(e2)) : (num << BigInt(-e2)) / den);
  let e2 = Math.max(bitLength(num) - bitLength(den) - 24, -149);
  while (quotientAt(e2) >= 1n << 24n) e2++;
  while (e2 > -149 && quotientAt(e2) < 1n << 23n) e2--;
  const scaledNum = e2 >= 0 ? num : num << BigInt(-e2);
  const scaledDen = e2 >= 0 ? den << BigInt(e2) : den;
  let significand = scaledNum / scaledDen;
  const twiceRest = (scaledNum % scaledDen) * 2n;
  if (twiceRest > scaledDen || (twiceRest === scaledDen && (significand & 1n) === 1n)) significand++;
  return Math.fround(Number(significand) * 2 ** e2);
}
