/** Size caps for values shown to the agent: long values are cut with a note on how to see more. */
export const SUMMARY_VALUE_CHARS = 80;
export const VALUE_CHARS = 1000;

export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more chars)`;
}
