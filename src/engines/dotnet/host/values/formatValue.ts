/**
 * Values as C# writes them in a debugger: quoted and escaped strings and chars, and the framework
 * structs a debugger reads from their fields (decimal, DateTime, TimeSpan, Guid) and enums by name.
 * Numbers are written by expressions/csFormat.ts (.NET's own ToString()). Pure functions.
 */

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0', '\b': '\\b', '\f': '\\f', '\v': '\\v' };

export function quoteString(text: string, quote = '"'): string {
  let out = quote;
  for (const ch of text) {
    if (ch === quote || ESCAPES[ch]) out += ch === "'" ? "\\'" : (ESCAPES[ch] ?? ch);
    else if (ch < ' ') out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + quote;
}

export function formatChar(code: number): string {
  return quoteString(String.fromCharCode(code), "'");
}

/** System.Decimal from its fields: `_flags` (sign bit 31, scale bits 16-23), `_hi32`, `_lo64`. */
export function formatDecimal(flags: number, hi32: bigint, lo64: bigint): string {
  const scale = (flags >>> 16) & 0xff;
  const negative = (flags & 0x80000000) !== 0;
  const digits = ((hi32 << 64n) | lo64).toString().padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative && /[1-9]/.test(digits) ? `-${text}` : text;
}

const TICKS_PER_MS = 10_000n;
const EPOCH_TICKS = 621_355_968_000_000_000n; // 0001-01-01 to 1970-01-01
const KIND_NAMES = ['', ' (UTC)', ' (Local)'];

/** System.DateTime from `_dateData`: 62 bits of ticks, 2 bits of kind; round-trip layout. */
export function formatDateTime(dateData: bigint): string {
  const ticks = dateData & 0x3fffffffffffffffn;
  const kind = Number(dateData >> 62n);
  const ms = (ticks - EPOCH_TICKS) / TICKS_PER_MS;
  const fraction = (ticks % 10_000_000n).toString().padStart(7, '0');
  const iso = new Date(Number(ms)).toISOString().slice(0, 19);
  return `${iso}.${fraction}${KIND_NAMES[kind === 3 ? 2 : kind] ?? ''}`;
}

/** System.TimeSpan from `_ticks`: `[-][d.]hh:mm:ss[.fffffff]` like its ToString(). */
export function formatTimeSpan(ticks: bigint): string {
  const negative = ticks < 0n;
  let rest = negative ? -ticks : ticks;
  const fraction = rest % 10_000_000n;
  rest /= 10_000_000n;
  const seconds = rest % 60n;
  rest /= 60n;
  const minutes = rest % 60n;
  rest /= 60n;
  const hours = rest % 24n;
  const days = rest / 24n;
  const two = (n: bigint) => n.toString().padStart(2, '0');
  return `${negative ? '-' : ''}${days > 0n ? `${days}.` : ''}${two(hours)}:${two(minutes)}:${two(seconds)}${fraction > 0n ? `.${fraction.toString().padStart(7, '0')}` : ''}`;
}

/** System.Guid from `_a` (int), `_b`, `_c` (short), `_d`…`_k` (bytes). */
export function formatGuid(a: number, b: number, c: number, rest: number[]): string {
  const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(width, '0').slice(-width);
  const bytes = rest.map((x) => hex(x, 2)).join('');
  return `${hex(a, 8)}-${hex(b & 0xffff, 4)}-${hex(c & 0xffff, 4)}-${bytes.slice(0, 4)}-${bytes.slice(4)}`;
}

/** An enum value by name; [Flags] values as `Read | Write`; unnamed values as the number. */
export function formatEnum(value: bigint, constants: { name: string; value: bigint }[], flags: boolean): string {
  const exact = constants.find((c) => c.value === value);
  if (exact) return exact.name;
  if (flags && value !== 0n) {
    const parts: string[] = [];
    let rest = value;
    for (const c of [...constants].sort((x, y) => (y.value > x.value ? 1 : y.value < x.value ? -1 : 0))) {
      if (c.value !== 0n && (rest & c.value) === c.value) {
        parts.unshift(c.name);
        rest &= ~c.value;
      }
    }
    if (rest === 0n && parts.length > 0) return parts.join(' | ');
  }
  return value.toString();
}
