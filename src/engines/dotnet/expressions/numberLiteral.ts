/**
 * C# numeric literals and their values (ECMA-334 §6.4.5.3–4): decimal, hexadecimal `0x` and binary
 * `0b` integers with `_` between digits and the suffixes U, L, UL (any case and order); the type of
 * an unsuffixed integer is the first of int, uint, long, ulong that holds it. Reals with a fraction
 * and/or exponent and the suffixes F, D, M; a real is double without a suffix. Values are exact:
 * float literals round once to the nearest float, decimal literals half to even into Decimal range.
 */
import { decimalToSingle } from './csConversions.js';
import { parseDecimalDigits } from './csDecimal.js';
import type { CsValue, IntegralType } from './csValue.js';
import type { Token } from './lexer.js';
import { CSharpSyntaxError } from './syntaxError.js';

const isIdentifierChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{Nd}_]/u.test(c);

/** Digits of the given kind with `_` allowed between them (and, after 0x / 0b, before them). */
function scanDigits(text: string, i: number, end: number, digit: RegExp): number {
  while (i < end && (digit.test(text[i]!) || text[i] === '_')) i++;
  return i;
}

const INTEGER_TYPES: Record<string, IntegralType[]> = {
  '': ['int', 'uint', 'long', 'ulong'],
  u: ['uint', 'ulong'],
  l: ['long', 'ulong'],
  ul: ['ulong'],
};
const MAX: Record<string, bigint> = { int: 2n ** 31n - 1n, uint: 2n ** 32n - 1n, long: 2n ** 63n - 1n, ulong: 2n ** 64n - 1n };

export function scanNumber(text: string, start: number, end: number): Token {
  const prefix = text.slice(start, start + 2).toLowerCase();
  if (prefix === '0x' || prefix === '0b') {
    const digit = prefix === '0x' ? /[0-9a-fA-F]/ : /[01]/;
    const stop = scanDigits(text, start + 2, end, digit);
    const digits = text.slice(start + 2, stop);
    if (!/[0-9a-fA-F]/.test(digits)) throw new CSharpSyntaxError(`'${prefix}' needs ${prefix === '0x' ? 'hexadecimal' : 'binary'} digits after it`, start, stop);
    checkUnderscores(text, start, stop, digits.endsWith('_'));
    return integerToken(text, start, stop, BigInt(prefix + digits.replaceAll('_', '')), end);
  }
  let i = scanDigits(text, start, end, /[0-9]/);
  let real = false;
  if (text[i] === '.' && /[0-9]/.test(text[i + 1] ?? '')) {
    checkUnderscores(text, start, i, text[i - 1] === '_');
    i = scanDigits(text, i + 1, end, /[0-9]/);
    real = true;
  }
  if ((text[i] === 'e' || text[i] === 'E') && /[0-9]/.test(text[i + 1] === '+' || text[i + 1] === '-' ? (text[i + 2] ?? '') : (text[i + 1] ?? ''))) {
    checkUnderscores(text, start, i, text[i - 1] === '_');
    i = scanDigits(text, text[i + 1] === '+' || text[i + 1] === '-' ? i + 2 : i + 1, end, /[0-9]/);
    real = true;
  }
  checkUnderscores(text, start, i, text[i - 1] === '_');
  const body = text.slice(start, i).replaceAll('_', '');
  const suffix = (text[i] ?? '').toLowerCase();
  if (suffix === 'f' || suffix === 'd' || suffix === 'm') return realToken(text, start, i + 1, body, suffix, end);
  if (real) {
    if (suffix === 'u' || suffix === 'l') throw new CSharpSyntaxError(`the integer suffix '${text[i]}' cannot follow a real number`, i, i + 1);
    return realToken(text, start, i, body, 'd', end);
  }
  return integerToken(text, start, i, BigInt(body), end);
}

function checkUnderscores(text: string, start: number, stop: number, trailing: boolean) {
  if (trailing) throw new CSharpSyntaxError(`'_' must stand between digits in '${text.slice(start, stop)}'`, start, stop);
}

function integerToken(text: string, start: number, i: number, magnitude: bigint, end: number): Token {
  let suffix = '';
  const a = (text[i] ?? '').toLowerCase();
  const b = (text[i + 1] ?? '').toLowerCase();
  if ((a === 'u' && b === 'l') || (a === 'l' && b === 'u')) suffix = 'ul';
  else if (a === 'u' || a === 'l') suffix = a;
  const stop = i + suffix.length;
  rejectTrailingLetters(text, start, stop, end);
  const type = INTEGER_TYPES[suffix]!.find((t) => magnitude <= MAX[t]!);
  if (!type) throw new CSharpSyntaxError(`integral constant '${text.slice(start, stop)}' is too large`, start, stop);
  const value = { type, value: magnitude, constant: true } as CsValue;
  return { kind: 'literal', text: text.slice(start, stop), start, end: stop, value, integerSuffix: suffix };
}

function realToken(text: string, start: number, stop: number, body: string, suffix: string, end: number): Token {
  rejectTrailingLetters(text, start, stop, end);
  const source = text.slice(start, stop);
  const outOfRange = (type: string) => new CSharpSyntaxError(`floating-point constant '${source}' is outside the range of type '${type}'`, start, stop);
  let value: CsValue;
  if (suffix === 'm') {
    const d = parseDecimalDigits(body);
    if (!d) throw outOfRange('decimal');
    value = { type: 'decimal', value: d, constant: true };
  } else if (suffix === 'f') {
    const [digits, exponent] = splitReal(body);
    const x = decimalToSingle(digits, exponent);
    if (!Number.isFinite(x)) throw outOfRange('float');
    value = { type: 'float', value: x, constant: true };
  } else {
    const x = Number(body);
    if (!Number.isFinite(x)) throw outOfRange('double');
    value = { type: 'double', value: x, constant: true };
  }
  return { kind: 'literal', text: source, start, end: stop, value };
}

/** `12.5e-3` → digits 125, exponent -4. */
function splitReal(body: string): [bigint, number] {
  const [mantissa = '', exponent = '0'] = body.toLowerCase().split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  return [BigInt(whole + fraction || '0'), Number(exponent) - fraction.length];
}

function rejectTrailingLetters(text: string, start: number, stop: number, end: number) {
  if (stop < end && isIdentifierChar(text[stop])) {
    let i = stop;
    while (i < end && isIdentifierChar(text[i])) i++;
    throw new CSharpSyntaxError(`invalid numeric literal '${text.slice(start, i)}'`, start, i);
  }
}
