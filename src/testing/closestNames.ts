/** The names nearest to one that was not found: by edit distance, names that contain it first. */
export function closestNames(wanted: string, names: string[], count = 5): string[] {
  const w = wanted.toLowerCase();
  const wTail = lastSegment(w);
  const scored = [...new Set(names)].map((name) => {
    const n = name.toLowerCase();
    const tail = lastSegment(n);
    const contains = n.includes(w) || w.includes(tail) ? 0 : 1;
    return { name, contains, distance: Math.min(distance(w, n), distance(wTail, tail)) };
  });
  scored.sort((a, b) => a.contains - b.contains || a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, count).map((s) => s.name);
}

/** The test's own name in an id: after the last `::`, `.`, `>` or `/`. */
function lastSegment(id: string): string {
  return id.split(/::|[.>/]/).pop()!.trim();
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
