/**
 * Python tests marked to fail: `@pytest.mark.xfail` (pytest reports the test xfailed) and
 * unittest's `@expectedFailure` (an expected failure). Their failure is the outcome the test
 * expects, no place to stop at. A reading of the decorators above the `def` a line is in.
 */
const EXPECTS_FAILURE = /\b(xfail|expectedFailure)\b/;

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

export function markedToFail(lines: string[], line: number): boolean {
  const def = enclosingDef(lines, line);
  return def !== undefined && decoratorsAbove(lines, def).some((text) => EXPECTS_FAILURE.test(text));
}

/** The line number of the `def` whose body holds the line. */
function enclosingDef(lines: string[], line: number): number | undefined {
  let limit = indentOf(lines[line - 1] ?? '');
  for (let n = line - 1; n >= 1; n--) {
    const text = lines[n - 1] ?? '';
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('#') || indentOf(text) >= limit) continue;
    if (/^(async\s+)?def\s/.test(trimmed)) return n;
    limit = indentOf(text);
  }
  return undefined;
}

/** The decorator lines right above a `def` (with the lines a decorator's arguments run on). */
function decoratorsAbove(lines: string[], def: number): string[] {
  const indent = indentOf(lines[def - 1]);
  const found: string[] = [];
  for (let n = def - 1; n >= 1; n--) {
    const text = lines[n - 1] ?? '';
    const trimmed = text.trim();
    const inside = indentOf(text) > indent || /^[)\]}]/.test(trimmed);
    if (!trimmed || (!trimmed.startsWith('@') && !inside)) break;
    found.push(trimmed);
  }
  return found;
}
