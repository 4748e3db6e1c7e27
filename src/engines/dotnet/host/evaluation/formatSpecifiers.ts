/** An interpolation hole's alignment and format (`{total,10:F2}`), as .NET applies the common ones. */
import { formatValue, type CsValue } from '../../expressions/numeric.js';

export function pad(text: string, alignment?: number): string {
  if (!alignment) return text;
  return alignment > 0 ? text.padStart(alignment) : text.padEnd(-alignment);
}

/** The standard numeric formats interpolation holes use most (F, N, D, X, P); others print plainly. */
export function applyFormat(value: CsValue, format: string): string {
  const m = /^([FfNnDdXxPp])(\d*)$/.exec(format);
  if (!m || (typeof value.value !== 'bigint' && typeof value.value !== 'number')) return formatValue(value);
  const n = Number(value.value);
  const digits = m[2] ? Number(m[2]) : undefined;
  switch (m[1]!.toUpperCase()) {
    case 'F':
      return n.toFixed(digits ?? 2);
    case 'N':
      return n.toLocaleString('en-US', { minimumFractionDigits: digits ?? 2, maximumFractionDigits: digits ?? 2 });
    case 'D':
      return String(value.value).padStart(digits ?? 0, '0');
    case 'X': {
      const hex = BigInt.asUintN(64, BigInt(value.value as bigint)).toString(16);
      return (m[1] === 'X' ? hex.toUpperCase() : hex).padStart(digits ?? 0, '0');
    }
    default:
      return `${(n * 100).toFixed(digits ?? 2)} %`;
  }
}
