/**
 * V8's LiveEdit finds which functions of the old text are which of the new one through a diff of
 * the two texts: lines first, then tokens within each changed run of lines, but only for runs under
 * 800 characters (V8's CHUNK_LEN_LIMIT). A longer changed run is one change: a function in it has
 * no counterpart, so V8 accepts the edit and leaves every existing closure of it on the old code.
 * Code written on one line (tsx's output, minified bundles) meets this at every edit; such an edit
 * is refused rather than reported applied.
 */

/** V8's CHUNK_LEN_LIMIT (src/debug/liveedit.cc). */
export const V8_CHUNK_LEN_LIMIT = 800;

export interface CoarseChange {
  /** 1-based line of the old text. */
  line: number;
  length: number;
}

/** The first changed line of `before` that V8 cannot diff finely and that holds the start of a function. */
export function coarseChange(before: string, after: string, functionIn: (start: number, end: number) => boolean): CoarseChange | undefined {
  const kept = new Set(after.split('\n'));
  let start = 0;
  for (const [index, text] of before.split('\n').entries()) {
    const end = start + text.length;
    if (text.length >= V8_CHUNK_LEN_LIMIT && !kept.has(text) && functionIn(start, end)) return { line: index + 1, length: text.length };
    start = end + 1;
  }
  return undefined;
}
