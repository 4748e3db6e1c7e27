/**
 * Tokens of a C# expression: identifiers (`@keyword` too), keywords, debugger pseudo-variables
 * (`$exception`), literals with their C# values, interpolated strings (their holes parsed later),
 * and punctuation. `>` is always a token of its own: the parser joins `> >` into a shift, so that
 * `List<List<int>>` closes two type argument lists (as the C# parser does).
 */
import type { CsValue } from './csValue.js';
import { scanNumber } from './numberLiteral.js';
import { scanCharLiteral, scanInterpolatedString, scanString, type InterpolatedPart } from './stringLiterals.js';
import { CSharpSyntaxError } from './syntaxError.js';

export type TokenKind = 'identifier' | 'keyword' | 'pseudoVariable' | 'literal' | 'interpolatedString' | 'punctuation' | 'end';

export interface Token {
  kind: TokenKind;
  /** Identifier (without `@`), keyword, pseudo-variable or punctuation; a literal's source text. */
  text: string;
  start: number;
  end: number;
  value?: CsValue;
  /** An integer literal's suffix ('' / 'u' / 'l' / 'ul'), for `-2147483648` and `-9223372036854775808`. */
  integerSuffix?: string;
  parts?: InterpolatedPart[];
  /** `@name`: an identifier even when the name is a keyword. */
  verbatim?: boolean;
}

export const KEYWORDS = new Set(
  (
    'abstract as base bool break byte case catch char checked class const continue decimal default delegate do ' +
    'double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface ' +
    'internal is lock long namespace new null object operator out override params private protected public readonly ' +
    'ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ' +
    'ulong unchecked unsafe ushort using virtual void volatile while'
  ).split(' '),
);

/** Longest first, so `>>=`-style prefixes never split wrongly. `>>` is deliberately absent. */
const PUNCTUATION = [
  '??=', '<<=', '...',
  '?.', '??', '::', '++', '--', '&&', '||', '->', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '=>', '..',
  '(', ')', '[', ']', '{', '}', '.', ',', ':', ';', '?', '+', '-', '*', '/', '%', '&', '|', '^', '!', '~', '=', '<', '>',
];

const IDENTIFIER_START = /[\p{L}\p{Nl}_]/u;
const IDENTIFIER_PART = /[\p{L}\p{Nl}\p{Nd}\p{Pc}\p{Mn}\p{Mc}\p{Cf}_]/u;

const isIdentifierStart = (c: string | undefined) => c !== undefined && IDENTIFIER_START.test(c);
const isIdentifierPart = (c: string | undefined) => c !== undefined && IDENTIFIER_PART.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** The tokens of text[start, end), ending with an `end` token at `end`. */
export function tokenize(text: string, start = 0, end = text.length): Token[] {
  const tokens: Token[] = [];
  let i = start;
  while (i < end) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const token = scanToken(text, i, end);
    tokens.push(token);
    i = token.end;
  }
  tokens.push({ kind: 'end', text: '', start: end, end });
  return tokens;
}

function scanToken(text: string, i: number, end: number): Token {
  const c = text[i]!;
  const next = text[i + 1];
  if (c === '/' && (next === '/' || next === '*')) throw new CSharpSyntaxError('comments are not supported in expressions', i, i + 2);
  if (isDigit(c) || (c === '.' && isDigit(next))) return scanNumber(text, i, end);
  if (c === "'") return scanCharLiteral(text, i, end);
  if (c === '"') return scanString(text, i, end, false);
  if (c === '@' && next === '"') return scanString(text, i, end, true);
  if ((c === '$' && (next === '"' || next === '@' || next === '$')) || (c === '@' && next === '$')) return scanInterpolatedString(text, i, end);
  if (c === '$' && isIdentifierStart(next)) {
    const stop = identifierEnd(text, i + 1, end);
    return { kind: 'pseudoVariable', text: text.slice(i, stop), start: i, end: stop };
  }
  if (c === '@' && isIdentifierStart(next)) {
    const stop = identifierEnd(text, i + 1, end);
    return { kind: 'identifier', text: text.slice(i + 1, stop), start: i, end: stop, verbatim: true };
  }
  if (isIdentifierStart(c)) {
    const stop = identifierEnd(text, i, end);
    const word = text.slice(i, stop);
    return { kind: KEYWORDS.has(word) ? 'keyword' : 'identifier', text: word, start: i, end: stop };
  }
  if (c === '?' && next === '.' && isDigit(text[i + 2])) return punctuation('?', i); // `c?.5:1` is a conditional
  for (const p of PUNCTUATION) {
    if (text.startsWith(p, i) && i + p.length <= end) return punctuation(p, i);
  }
  if (c === '\\') throw new CSharpSyntaxError('unicode escapes in identifiers are not supported', i, i + 1);
  throw new CSharpSyntaxError(`unexpected character '${c}'`, i, i + 1);
}

const punctuation = (p: string, i: number): Token => ({ kind: 'punctuation', text: p, start: i, end: i + p.length });

function identifierEnd(text: string, i: number, end: number): number {
  while (i < end && isIdentifierPart(text[i])) i++;
  return i;
}
