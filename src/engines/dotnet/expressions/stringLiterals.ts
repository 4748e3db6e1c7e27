/**
 * C# character, string and interpolated string literals (ECMA-334 §6.4.5.5–6, §12.8.3): the simple
 * escapes (\' \" \\ \0 \a \b \e \f \n \r \t \v), \uXXXX, \UXXXXXXXX and \x with 1–4 hex digits;
 * verbatim @"…" with "" for a quote; $"…{expr,alignment:format}…" with {{ and }} for braces, its
 * holes located here (nesting, strings and characters inside them skipped) and parsed later.
 */
import type { Token } from './lexer.js';
import { CSharpSyntaxError } from './syntaxError.js';

export interface InterpolatedTextPart {
  kind: 'text';
  text: string;
  start: number;
  end: number;
}

/** A hole `{…}` (start at `{`, end past `}`) and where its expression and alignment sit. */
export interface InterpolatedHolePart {
  kind: 'hole';
  start: number;
  end: number;
  expression: { start: number; end: number };
  alignment?: { start: number; end: number };
  format?: string;
}

export type InterpolatedPart = InterpolatedTextPart | InterpolatedHolePart;

const SIMPLE_ESCAPES: Record<string, string> = {
  "'": "'",
  '"': '"',
  '\\': '\\',
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

const isNewline = (c: string | undefined) => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029' || c === '\u0085';

/** One escape sequence at text[i] === '\\': its characters and where it ends. */
function scanEscape(text: string, i: number, end: number): { chars: string; end: number } {
  const c = text[i + 1];
  if (c !== undefined && c in SIMPLE_ESCAPES) return { chars: SIMPLE_ESCAPES[c]!, end: i + 2 };
  if (c === 'x') {
    let j = i + 2;
    while (j < end && j < i + 6 && /[0-9a-fA-F]/.test(text[j]!)) j++;
    if (j === i + 2) throw new CSharpSyntaxError("'\\x' needs 1 to 4 hexadecimal digits", i, j);
    return { chars: String.fromCharCode(parseInt(text.slice(i + 2, j), 16)), end: j };
  }
  if (c === 'u' || c === 'U') {
    const count = c === 'u' ? 4 : 8;
    const hex = text.slice(i + 2, Math.min(i + 2 + count, end));
    if (hex.length !== count || !/^[0-9a-fA-F]+$/.test(hex)) {
      throw new CSharpSyntaxError(`'\\${c}' needs exactly ${count} hexadecimal digits`, i, i + 2 + hex.length);
    }
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) throw new CSharpSyntaxError(`'\\U${hex}' is not a Unicode character`, i, i + 10);
    return { chars: String.fromCodePoint(code), end: i + 2 + count };
  }
  throw new CSharpSyntaxError(`unrecognized escape sequence '\\${c ?? ''}'`, i, Math.min(i + 2, end));
}

export function scanCharLiteral(text: string, start: number, end: number): Token {
  let i = start + 1;
  let chars = '';
  while (i < end && text[i] !== "'" && !isNewline(text[i])) {
    if (text[i] === '\\') {
      const escape = scanEscape(text, i, end);
      chars += escape.chars;
      i = escape.end;
    } else {
      chars += text[i++];
    }
  }
  if (text[i] !== "'" || i >= end) throw new CSharpSyntaxError('unterminated character literal', start, i);
  const stop = i + 1;
  if (chars.length === 0) throw new CSharpSyntaxError('empty character literal', start, stop);
  if (chars.length > 1) throw new CSharpSyntaxError('too many characters in character literal', start, stop);
  return { kind: 'literal', text: text.slice(start, stop), start, end: stop, value: { type: 'char', value: BigInt(chars.charCodeAt(0)), constant: true } };
}

/** A regular "…" or verbatim @"…" string. */
export function scanString(text: string, start: number, end: number, verbatim: boolean): Token {
  const open = start + (verbatim ? 2 : 1);
  if (!verbatim && text.startsWith('"""', start)) throw new CSharpSyntaxError('raw string literals (""") are not supported', start, start + 3);
  const { value, end: close } = scanStringBody(text, open, end, verbatim, start);
  const stop = close + 1;
  if (/[uU]8/.test(text.slice(stop, stop + 2))) throw new CSharpSyntaxError('UTF-8 string literals (u8) are not supported', start, stop + 2);
  return { kind: 'literal', text: text.slice(start, stop), start, end: stop, value: { type: 'string', value, constant: true } };
}

/** The characters up to the closing quote (its index returned as `end`). */
function scanStringBody(text: string, i: number, end: number, verbatim: boolean, start: number): { value: string; end: number } {
  let value = '';
  for (;;) {
    const c = text[i];
    if (i >= end || (!verbatim && isNewline(c))) throw new CSharpSyntaxError('unterminated string literal', start, i);
    if (c === '"') {
      if (verbatim && text[i + 1] === '"' && i + 1 < end) {
        value += '"';
        i += 2;
        continue;
      }
      return { value, end: i };
    }
    if (c === '\\' && !verbatim) {
      const escape = scanEscape(text, i, end);
      value += escape.chars;
      i = escape.end;
      continue;
    }
    value += c;
    i++;
  }
}

/** $"…", $@"…" or @$"…" with its text and holes. */
export function scanInterpolatedString(text: string, start: number, end: number): Token {
  const prefix = text.slice(start, start + 3);
  const verbatim = prefix.startsWith('$@') || prefix.startsWith('@$');
  if (prefix.startsWith('$$') || text.startsWith('"""', start + 1)) {
    throw new CSharpSyntaxError('raw interpolated strings ($""" or $$) are not supported', start, start + 2);
  }
  let i = start + (verbatim ? 3 : 2);
  if (text[i - 1] !== '"') throw new CSharpSyntaxError(`expected '"' after '${text.slice(start, i - 1)}'`, start, i);
  const parts: InterpolatedPart[] = [];
  let textStart = i;
  let current = '';
  const flushText = (stop: number) => {
    if (current) parts.push({ kind: 'text', text: current, start: textStart, end: stop });
    current = '';
  };
  for (;;) {
    const c = text[i];
    if (i >= end || (!verbatim && isNewline(c))) throw new CSharpSyntaxError('unterminated interpolated string', start, i);
    if (c === '"' && verbatim && text[i + 1] === '"') {
      current += '"';
      i += 2;
    } else if (c === '"') {
      flushText(i);
      return { kind: 'interpolatedString', text: text.slice(start, i + 1), start, end: i + 1, parts };
    } else if ((c === '{' || c === '}') && text[i + 1] === c) {
      current += c;
      i += 2;
    } else if (c === '}') {
      throw new CSharpSyntaxError("a '}' in an interpolated string must be doubled ('}}')", i, i + 1);
    } else if (c === '{') {
      flushText(i);
      const hole = scanHole(text, i, end, start, verbatim);
      parts.push(hole);
      i = hole.end;
      textStart = i;
    } else if (c === '\\' && !verbatim) {
      const escape = scanEscape(text, i, end);
      current += escape.chars;
      i = escape.end;
    } else {
      current += c;
      i++;
    }
  }
}

/** A hole from its `{`: the expression runs to a `,` `:` or `}` outside any brackets; a format's escapes are the string's (`{span:hh\\:mm}`). */
function scanHole(text: string, open: number, end: number, stringStart: number, verbatim: boolean): InterpolatedHolePart {
  const unterminated = () => new CSharpSyntaxError('unterminated interpolated string', stringStart, end);
  let i = open + 1;
  let depth = 0;
  let alignmentStart: number | undefined;
  let expressionEnd: number | undefined;
  for (; i < end; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || (c === '@' && text[i + 1] === '"') || ((c === '$' || c === '@') && /["@$]/.test(text[i + 1] ?? ''))) {
      try {
        i = skipLiteral(text, i, end) - 1;
      } catch (e) {
        // Most often the string's own closing quote, the hole left open.
        if (e instanceof CSharpSyntaxError && e.reason.startsWith('unterminated')) throw unterminated();
        throw e;
      }
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
    } else if ((c === ')' || c === ']' || c === '}') && depth > 0) {
      depth--;
    } else if (depth === 0 && (c === '}' || c === ':' || (c === ',' && alignmentStart === undefined))) {
      if (c === ',') {
        expressionEnd = i;
        alignmentStart = i + 1;
        continue;
      }
      break;
    }
  }
  if (i >= end) throw unterminated();
  const expression = { start: open + 1, end: expressionEnd ?? i };
  const alignment = alignmentStart === undefined ? undefined : { start: alignmentStart, end: i };
  let format: string | undefined;
  if (text[i] === ':') {
    const close = text.indexOf('}', i + 1);
    if (close < 0 || close >= end) throw unterminated();
    format = verbatim ? text.slice(i + 1, close) : unescape(text, i + 1, close);
    if (format === '') throw new CSharpSyntaxError('empty format specifier after \':\'', i, close + 1);
    if (format.includes('{')) throw new CSharpSyntaxError("a format specifier cannot contain '{'", i, close + 1);
    i = close;
  }
  return { kind: 'hole', start: open, end: i + 1, expression, ...(alignment && { alignment }), ...(format !== undefined && { format }) };
}

function unescape(text: string, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; ) {
    if (text[i] !== '\\') {
      out += text[i++];
      continue;
    }
    const escape = scanEscape(text, i, end);
    out += escape.chars;
    i = escape.end;
  }
  return out;
}

/** Past a string, character or interpolated string literal that starts at i. */
function skipLiteral(text: string, i: number, end: number): number {
  const c = text[i];
  if (c === "'") return scanCharLiteral(text, i, end).end;
  if (c === '"') return scanString(text, i, end, false).end;
  if (c === '@' && text[i + 1] === '"') return scanString(text, i, end, true).end;
  return scanInterpolatedString(text, i, end).end;
}
