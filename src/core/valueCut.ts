/**
 * Cutting a value's text to a budget so that the rest can be read exactly: for a string shown
 * quoted (Python, JavaScript and C# all quote and backslash-escape), how many characters of the
 * string itself the shown part covers, so a slice from there reads on without a gap or overlap.
 */

export interface ValueCut {
  /** Characters of the value's text shown. */
  shown: number;
  /** Length of the value's text, as the runtime gave it (it may have cut a long one itself). */
  textLength: number;
  /** For a quoted string: characters of the string the shown part covers (where reading goes on). */
  stringOffset?: number;
  /** For a quoted string the runtime gave whole: the string's length. */
  stringLength?: number;
}

export function cutValue(text: string, room: number): { text: string; cut?: ValueCut } {
  const quote = text[0];
  const quoted = quote === '"' || quote === "'";
  const close = quoted ? closingQuote(text, quote) : -1;
  // A quoted string that does not end at its closing quote was cut by the runtime already.
  const cutByRuntime = quoted && close !== text.length - 1;
  if (text.length <= room && !cutByRuntime) return { text };
  const shown = Math.max(0, Math.min(room, text.length));
  const cut: ValueCut = { shown, textLength: text.length };
  if (quoted) {
    cut.stringOffset = unescapedLength(text.slice(1, Math.max(1, close < 0 ? shown : Math.min(shown, close))));
    if (!cutByRuntime) cut.stringLength = unescapedLength(text.slice(1, -1));
  }
  return { text: text.slice(0, shown), cut };
}

/** Index of the quote that closes the string opened at 0, or -1 when the text ends first. */
function closingQuote(text: string, quote: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/**
 * Characters of a string that its escaped text stands for: `\xNN` one, `\uNNNN` one, `\u{…}` one,
 * `\UNNNNNNNN` one, any other backslash pair one. An escape cut in the middle counts nothing.
 */
export function unescapedLength(escaped: string): number {
  let count = 0;
  for (let i = 0; i < escaped.length; ) {
    if (escaped[i] !== '\\') {
      // A character outside the BMP is one code point but two UTF-16 units; runtimes slice by unit.
      i++;
      count++;
      continue;
    }
    const width = escapeWidth(escaped, i);
    if (i + width > escaped.length) break;
    i += width;
    count++;
  }
  return count;
}

function escapeWidth(text: string, at: number): number {
  const kind = text[at + 1];
  if (kind === 'x') return 4;
  if (kind === 'u' && text[at + 2] === '{') {
    const close = text.indexOf('}', at);
    return close < 0 ? text.length - at + 1 : close - at + 1;
  }
  if (kind === 'u') return 6;
  if (kind === 'U') return 10;
  return 2;
}
