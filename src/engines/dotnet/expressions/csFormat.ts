/**
 * `ToString()` of the predefined types with the invariant culture, as .NET Core 3.0+ writes them:
 * double and float in their shortest round-trip digits, in exponent form (`1E+21`, `1E-05`) when
 * the decimal point would sit more than 17 (double) or 9 (float) places right of the first digit,
 * or more than 4 places left of it; NaN, Infinity, -Infinity (∞ in an ICU culture); -0 keeps its sign. Decimal keeps its
 * scale (1.50m → "1.50") and never shows -0; bool is True/False; null is the empty string.
 */
import { decimalToString } from './csDecimal.js';
import type { CsValue } from './csValue.js';

interface Digits {
  /** Significant digits, no trailing zeros. */
  digits: string;
  /** Decimal exponent of the first digit. */
  exponent: number;
}

/** The digits of JavaScript's shortest round-trip text (ties to even, as .NET). */
function jsDigits(text: string): Digits {
  const [mantissa = '', exponent = '0'] = text.split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  const all = whole + fraction;
  const leadingZeros = all.length - all.replace(/^0+/, '').length;
  return { digits: all.slice(leadingZeros).replace(/0+$/, '') || '0', exponent: whole.length - 1 - leadingZeros + Number(exponent) };
}

const view = new DataView(new ArrayBuffer(4));

/** The exact decimal significant digits of a float (at most 112), from its bits. */
function exactSingleDigits(x: number): string {
  view.setFloat32(0, x);
  const bits = view.getUint32(0);
  const biased = (bits >>> 23) & 0xff;
  const significand = BigInt(biased === 0 ? bits & 0x7fffff : (bits & 0x7fffff) | 0x800000);
  const e = (biased === 0 ? 1 : biased) - 150;
  const digits = e >= 0 ? significand << BigInt(e) : significand * 5n ** BigInt(-e);
  return digits.toString().replace(/0+$/, '');
}

/**
 * The fewest digits that read back as the same float, the nearest such; when the float lies
 * exactly halfway between two, the even one (.NET writes 1847.90625f as 1847.9062).
 */
function shortestSingle(x: number): Digits {
  const exact = exactSingleDigits(x);
  for (let precision = 1; precision < 9; precision++) {
    let candidate = jsDigits(x.toExponential(precision - 1)); // ties round up here
    if (exact.length === precision + 1 && exact.endsWith('5') && Number(exact[precision - 1]) % 2 === 0) {
      candidate = { digits: exact.slice(0, precision).replace(/0+$/, ''), exponent: candidate.exponent };
    }
    const text = `${candidate.digits[0]}.${candidate.digits.slice(1)}0e${candidate.exponent}`;
    if (Math.fround(Number(text)) === x) return candidate;
  }
  return jsDigits(x.toExponential(8));
}

/**
 * NumberFormatInfo.PositiveInfinitySymbol of the program's culture: the invariant culture's until
 * the program's is known (host/programCulture.ts); an ICU culture's is "∞".
 */
let infinity = 'Infinity';

export function useInfinitySymbol(symbol: string): void {
  infinity = symbol;
}

function formatBinary(x: number, single: boolean): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return infinity;
  if (x === -Infinity) return `-${infinity}`;
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  const { digits, exponent } = single ? shortestSingle(Math.abs(x)) : jsDigits(Math.abs(x).toString());
  const pointAfter = exponent + 1; // digits before the decimal point
  if (pointAfter > (single ? 9 : 17) || pointAfter < -3) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exponent).toString().padStart(2, '0');
    return `${sign}${digits[0]}${fraction}E${exponent < 0 ? '-' : '+'}${e}`;
  }
  if (pointAfter <= 0) return `${sign}0.${'0'.repeat(-pointAfter)}${digits}`;
  if (pointAfter >= digits.length) return sign + digits + '0'.repeat(pointAfter - digits.length);
  return `${sign}${digits.slice(0, pointAfter)}.${digits.slice(pointAfter)}`;
}

export const formatDouble = (x: number) => formatBinary(x, false);
export const formatSingle = (x: number) => formatBinary(x, true);

/** The value's `ToString()` with the invariant culture (what string concatenation uses). */
export function formatValue(v: CsValue): string {
  switch (v.type) {
    case 'double':
      return formatDouble(v.value);
    case 'float':
      return formatSingle(v.value);
    case 'decimal':
      return decimalToString(v.value);
    case 'bool':
      return v.value ? 'True' : 'False';
    case 'string':
      return v.value;
    case 'null':
      return '';
    case 'char':
      return String.fromCharCode(Number(v.value));
    default:
      return v.value.toString();
  }
}
