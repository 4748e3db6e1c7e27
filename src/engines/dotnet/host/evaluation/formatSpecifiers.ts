/** An interpolation hole's alignment (`{total,10}`); its format is applied by the program's string.Format. */
export function pad(text: string, alignment?: number): string {
  if (!alignment) return text;
  return alignment > 0 ? text.padStart(alignment) : text.padEnd(-alignment);
}
