/**
 * Expected and actual values as assertion libraries write them in their messages: node:assert,
 * chai (vitest), expect (jest), xUnit, NUnit, MSTest. pytest and unittest show a comparison, not
 * which side is which: their message is the whole answer.
 */
export interface AssertionValues {
  expected: string;
  actual: string;
}

const PATTERNS: { pattern: RegExp; expected: number; actual: number }[] = [
  // jest / expect: "Expected: 30\nReceived: 25"
  { pattern: /^\s*Expected:\s*(.+)\n\s*Received:\s*(.+)$/m, expected: 1, actual: 2 },
  // xUnit: "Expected: 30\nActual:   25"
  { pattern: /^\s*Expected:\s*(.+)\n\s*Actual:\s*(.+)$/m, expected: 1, actual: 2 },
  // NUnit: "Expected: 30\n  But was:  25"
  { pattern: /^\s*Expected:\s*(.+)\n\s*But was:\s*(.+)$/m, expected: 1, actual: 2 },
  // MSTest: "Expected:<30>. Actual:<25>."
  { pattern: /Expected:<(.*?)>\.?\s*Actual:<(.*?)>/s, expected: 1, actual: 2 },
  // chai (vitest): "expected 25 to be 30 // Object.is equality"; "expected [ 1 ] to deeply equal [ 2 ]"
  { pattern: /^expected (.+?) to (?:be|equal|deeply equal|strictly equal|eql|be close to) (.+?)(?: \/\/.*)?$/m, expected: 2, actual: 1 },
  // node:assert strictEqual: "Expected values to be strictly equal:\n\n25 !== 30\n"
  { pattern: /Expected values to be (?:strictly |loosely )?(?:deep-)?equal:\n\n(.+?) !==? (.+?)\n?$/m, expected: 2, actual: 1 },
];

export function assertionValues(message: string | undefined): AssertionValues | undefined {
  if (!message) return undefined;
  // A .NET message on Windows ends its lines with Environment.NewLine, \r\n.
  const text = message.replace(/\r\n/g, '\n');
  for (const { pattern, expected, actual } of PATTERNS) {
    const m = pattern.exec(text);
    if (m) return { expected: m[expected].trim(), actual: m[actual].trim() };
  }
  return undefined;
}
