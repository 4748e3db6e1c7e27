/**
 * System.Decimal on bigint, matching .NET (checked against .NET 10): a signed mantissa below 2^96
 * and a scale of 0–28 decimal places, kept as the operation leaves it (1.50m + 2m = 3.50m). Results
 * that do not fit are rounded half to even at the smallest loss of places, as .NET's DecCalc does;
 * a result too large at scale 0 throws OverflowException. Conversions from and to double repeat
 * .NET's own algorithms (15 significant digits from a double, 7 from a float), not exact rounding.
 */
import { divideByZero, valueOverflow } from './csValue.js';

export interface CsDecimal {
  /** Signed; |mantissa| < 2^96. */
  mantissa: bigint;
  /** Decimal places, 0–28. */
  scale: number;
}

const DECIMAL_MAX_SCALE = 28;
const LIMIT = 1n << 96n;

const pow10Cache: bigint[] = [1n];
export function pow10(n: number): bigint {
  for (let i = pow10Cache.length; i <= n; i++) pow10Cache.push(pow10Cache[i - 1]! * 10n);
  return pow10Cache[n]!;
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const decimalOverflow = () => valueOverflow('a Decimal');

/** numerator / denominator (denominator > 0) rounded half to even. */
function divideRoundHalfEven(numerator: bigint, denominator: bigint): bigint {
  const q = numerator / denominator;
  const r2 = abs(numerator % denominator) * 2n;
  if (r2 < denominator || (r2 === denominator && (q & 1n) === 0n)) return q;
  return numerator < 0n ? q - 1n : q + 1n;
}

/**
 * An exact mantissa at any scale brought into Decimal's range: the fewest places dropped (rounding
 * half to even) that make the mantissa fit in 96 bits and the scale at most 28. A negative scale
 * is first multiplied out.
 */
function fitDecimal(mantissa: bigint, scale: number): CsDecimal {
  if (scale < 0) {
    mantissa *= pow10(-scale);
    scale = 0;
  }
  let drop = Math.max(0, scale - DECIMAL_MAX_SCALE);
  const magnitude = abs(mantissa);
  // Start near the answer from the digit count, then step one place at a time.
  const excessDigits = magnitude.toString().length - 29;
  if (excessDigits > drop) drop = excessDigits;
  for (;;) {
    if (drop > scale) throw decimalOverflow();
    const rounded = drop === 0 ? mantissa : divideRoundHalfEven(mantissa, pow10(drop));
    if (abs(rounded) < LIMIT) return { mantissa: rounded, scale: scale - drop };
    drop++;
  }
}

export const decimalFromBigInt = (n: bigint): CsDecimal => fitDecimal(n, 0);

export function decimalNegate(d: CsDecimal): CsDecimal {
  return { mantissa: -d.mantissa, scale: d.scale };
}

function aligned(a: CsDecimal, b: CsDecimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.mantissa * pow10(scale - a.scale), b.mantissa * pow10(scale - b.scale), scale];
}

export function decimalAdd(a: CsDecimal, b: CsDecimal): CsDecimal {
  const [x, y, scale] = aligned(a, b);
  return fitDecimal(x + y, scale);
}

export const decimalSubtract = (a: CsDecimal, b: CsDecimal) => decimalAdd(a, decimalNegate(b));

export function decimalCompare(a: CsDecimal, b: CsDecimal): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const fits32 = (n: bigint) => abs(n) < 1n << 32n;

export function decimalMultiply(a: CsDecimal, b: CsDecimal): CsDecimal {
  const product = a.mantissa * b.mantissa;
  const scale = a.scale + b.scale;
  if (fits32(a.mantissa) && fits32(b.mantissa)) {
    // .NET's 32×32-bit path: past 47 places the product is below half a unit, and it answers 0.
    if (scale <= DECIMAL_MAX_SCALE) return { mantissa: product, scale };
    if (scale > DECIMAL_MAX_SCALE + 19) return { mantissa: 0n, scale: 0 };
    return { mantissa: divideRoundHalfEven(product, pow10(scale - DECIMAL_MAX_SCALE)), scale: DECIMAL_MAX_SCALE };
  }
  if (product === 0n) return { mantissa: 0n, scale: 0 };
  return fitDecimal(product, scale);
}

/** Drops trailing zeros, never below scale 0 (what .NET does after an inexact division step). */
function stripZeros(mantissa: bigint, scale: number): CsDecimal {
  while (scale > 0 && mantissa % 10n === 0n) {
    mantissa /= 10n;
    scale--;
  }
  return { mantissa, scale };
}

/**
 * .NET's division: an exact quotient at the natural scale (dividend's minus divisor's, at least 0)
 * keeps that scale (4.0m / 2m = 2.0m); otherwise the quotient is carried to as many places as fit
 * (at most 28, mantissa below 2^96), rounded half to even, and its trailing zeros dropped.
 */
export function decimalDivide(a: CsDecimal, b: CsDecimal): CsDecimal {
  if (b.mantissa === 0n) throw divideByZero();
  const negative = a.mantissa < 0n !== b.mantissa < 0n;
  const num = abs(a.mantissa);
  const den = abs(b.mantissa);
  const natural = a.scale - b.scale;
  const sign = (m: bigint) => (negative ? -m : m);
  // The quotient at scale t is num · 10^(t − natural) / den.
  const scaled = (t: number) => (t >= natural ? num * pow10(t - natural) : num / pow10(natural - t));
  if (num % den === 0n) {
    if (natural >= 0) return { mantissa: sign(num / den), scale: natural };
    const whole = scaled(0) / den;
    if (whole >= LIMIT) throw decimalOverflow();
    return { mantissa: sign(whole), scale: 0 };
  }
  let places = DECIMAL_MAX_SCALE;
  while (scaled(places) / den >= LIMIT) {
    if (--places < 0) throw decimalOverflow();
  }
  let q = divideRoundHalfEven(scaled(places), den);
  if (q >= LIMIT) {
    if (--places < 0) throw decimalOverflow();
    q = divideRoundHalfEven(scaled(places), den);
  }
  return stripZeros(sign(q), places);
}

/**
 * .NET's remainder: the dividend itself when it is smaller than the divisor, else the exact
 * remainder at the larger of the two scales, with the dividend's sign.
 */
export function decimalRemainder(a: CsDecimal, b: CsDecimal): CsDecimal {
  if (b.mantissa === 0n) throw divideByZero();
  if (a.mantissa === 0n) return a;
  const [x, y, scale] = aligned(a, b);
  if (abs(x) < abs(y)) return a;
  return { mantissa: x % y, scale };
}

export function decimalToString(d: CsDecimal): string {
  const digits = abs(d.mantissa).toString().padStart(d.scale + 1, '0');
  const point = digits.length - d.scale;
  const text = d.scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return d.mantissa < 0n ? `-${text}` : text;
}

/** Truncation toward zero (a cast to an integral type). */
export const decimalTruncate = (d: CsDecimal): bigint => d.mantissa / pow10(d.scale);

/**
 * A decimal literal's digits (`123.4500`, with an optional exponent `e-3`) as the C# compiler
 * reads them: exact, then rounded half to even into range; undefined if too large for decimal.
 */
export function parseDecimalDigits(text: string): CsDecimal | undefined {
  const m = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal literal: ${text}`);
  const [, whole = '', fraction = '', exponentText] = m;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  let mantissa = BigInt(whole + fraction || '0');
  let scale = fraction.length - exponent;
  if (mantissa === 0n) return { mantissa: 0n, scale: Math.min(Math.max(scale, 0), DECIMAL_MAX_SCALE) };
  const magnitude = mantissa.toString().length - scale; // digits before the point
  if (magnitude > 29) return undefined;
  if (magnitude < -DECIMAL_MAX_SCALE - 1) return { mantissa: 0n, scale: DECIMAL_MAX_SCALE };
  if (scale > 80) {
    // Far more places than Decimal holds: cut to 81 places, a sticky last digit keeping the
    // final half-to-even rounding exact.
    mantissa = withStickyDigit(mantissa, scale - 80);
    scale = 81;
  }
  try {
    return fitDecimal(mantissa, scale);
  } catch {
    return undefined;
  }
}

/** Drops `places` digits but one, that one 1 when anything dropped was not zero. */
function withStickyDigit(mantissa: bigint, places: number): bigint {
  const divisor = pow10(places);
  const q = mantissa / divisor;
  return mantissa % divisor === 0n ? q * 10n : q * 10n + 1n;
}

const DOUBLE_POWERS_10 = Array.from({ length: 81 }, (_, i) => Number(`1e${i}`));

/** Math.Round: to nearest, ties to even. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

const bits = new DataView(new ArrayBuffer(8));
function biasedExponent(x: number, single: boolean): number {
  if (single) {
    bits.setFloat32(0, x);
    return (bits.getUint32(0) >>> 23) & 0xff;
  }
  bits.setFloat64(0, x);
  return (bits.getUint32(0) >>> 20) & 0x7ff;
}

/**
 * (decimal)double or (decimal)float the way .NET 10 computes it (DecCalc.VarDecFromR8/R4): the
 * value rounded to 15 (double) or 7 (float) significant digits in double arithmetic, trailing
 * zeros dropped within those digits.
 */
export function decimalFromBinary(input: number, single: boolean): CsDecimal {
  const digits = single ? 7 : 15;
  const exp = biasedExponent(input, single) - (single ? 126 : 1022);
  if (exp < -94) return { mantissa: 0n, scale: 0 };
  if (exp > 96) throw decimalOverflow();
  const negative = input < 0;
  let dbl = Math.abs(input);
  let power = digits - 1 - ((exp * 19728) >> 16);
  if (power >= 0) {
    power = Math.min(power, DECIMAL_MAX_SCALE);
    dbl *= DOUBLE_POWERS_10[power]!;
  } else if (power !== -1 || dbl >= DOUBLE_POWERS_10[digits]!) {
    dbl /= DOUBLE_POWERS_10[-power]!;
  } else {
    power = 0;
  }
  if (dbl < DOUBLE_POWERS_10[digits - 1]! && power < DECIMAL_MAX_SCALE) {
    dbl *= 10;
    power++;
  }
  let mant = BigInt(roundHalfEven(dbl));
  if (mant === 0n) return { mantissa: 0n, scale: 0 };
  if (power < 0) {
    mant *= pow10(-power);
    if (mant >= LIMIT) throw decimalOverflow();
    power = 0;
  } else {
    // Trailing zeros go only among the digits just made, never below scale 0.
    let removable = Math.min(power, digits - 1);
    while (removable > 0 && mant % 10n === 0n) {
      mant /= 10n;
      power--;
      removable--;
    }
  }
  return { mantissa: negative ? -mant : mant, scale: power };
}

/** (double)decimal as .NET computes it (DecCalc.VarR8FromDec): not always the nearest double. */
export function decimalToDouble(d: CsDecimal): number {
  const m = abs(d.mantissa);
  const low = Number(BigInt.asUintN(64, m));
  const high = Number(m >> 64n);
  const value = (low + high * 18446744073709551616) / DOUBLE_POWERS_10[d.scale]!;
  return d.mantissa < 0n ? -value : value;
}
