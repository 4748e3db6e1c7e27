/** The framework structs and enums as the .NET debugger shows them, from their raw fields. */
import { describe, expect, it } from 'vitest';
import { formatChar, formatDateTime, formatDecimal, formatEnum, formatGuid, formatTimeSpan, quoteString } from '../../src/engines/dotnet/host/values/formatValue.js';

describe('.NET value formatting', () => {
  it('writes decimals from flags, hi and lo (scale kept, sign, no -0)', () => {
    expect(formatDecimal(2 << 16, 0n, 1999n)).toBe('19.99');
    expect(formatDecimal((2 << 16) | 0x80000000, 0n, 150n)).toBe('-1.50');
    expect(formatDecimal(3 << 16, 0n, 5n)).toBe('0.005');
    expect(formatDecimal(0x80000000, 0n, 0n)).toBe('0');
    expect(formatDecimal(0, 1n, 0n)).toBe(String(1n << 64n));
  });

  it('writes DateTime from its ticks and kind, TimeSpan and Guid as .NET does', () => {
    // 2024-01-02T03:04:05Z is 638397614450000000 ticks; kind UTC is 1 in the top two bits.
    expect(formatDateTime(638397614450000000n | (1n << 62n))).toBe('2024-01-02T03:04:05.0000000 (UTC)');
    expect(formatDateTime(638397614451234567n)).toBe('2024-01-02T03:04:05.1234567');
    expect(formatTimeSpan(37_235_000_000n)).toBe('01:02:03.5000000');
    expect(formatTimeSpan(-864_000_000_000n - 10_000_000n)).toBe('-1.00:00:01');
    expect(formatGuid(0x01234567, 0x89ab, -12817, [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef])).toBe('01234567-89ab-cdef-0123-456789abcdef');
  });

  it('names enum values, flags joined with |, unknown values as numbers', () => {
    const access = [
      { name: 'None', value: 0n },
      { name: 'Read', value: 1n },
      { name: 'Write', value: 2n },
      { name: 'Execute', value: 4n },
    ];
    expect(formatEnum(3n, access, true)).toBe('Read | Write');
    expect(formatEnum(0n, access, true)).toBe('None');
    expect(formatEnum(8n, access, true)).toBe('8');
    expect(formatEnum(3n, access, false)).toBe('3');
  });

  it('quotes strings and chars with C# escapes', () => {
    expect(quoteString('say "hi"\n\ttab')).toBe('"say \\"hi\\"\\n\\ttab"');
    expect(quoteString('\u0001')).toBe('"\\u0001"');
    expect(formatChar(39)).toBe("'\\''");
    expect(formatChar(120)).toBe("'x'");
  });
});
