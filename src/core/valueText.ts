/** Size caps for values shown to the agent: long values are cut with a note on how to see more. */
export const SUMMARY_VALUE_CHARS = 80;
export const VALUE_CHARS = 1000;

export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more chars)`;
}

/** A value on one line of a summary: its first line, capped; what was left out is said. */
export function summaryText(text: string, max = SUMMARY_VALUE_CHARS): string {
  const lines = text.split('\n');
  if (lines.length === 1) return capText(text, max);
  return `${capText(lines[0].trimEnd(), max)} … (${lines.length - 1} more lines)`;
}
