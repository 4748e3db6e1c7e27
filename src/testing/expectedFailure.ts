/**
 * Python tests marked to fail: `@pytest.mark.xfail` (pytest reports the test xfailed) and
 * unittest's `@expectedFailure` (an expected failure). Their failure is the outcome the test
 * expects, no place to stop at. A reading of the marks that reach the `def` a line is in: its
 * decorators, those of the classes around it and their `pytestmark`, and the module's `pytestmark`.
 */
const EXPECTS_FAILURE = /\b(xfail|expectedFailure)\b/;

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

export function markedToFail(lines: string[], line: number): boolean {
  const headers = enclosingHeaders(lines, line);
  const def = headers.findIndex((n) => /^(async\s+)?def\s/.test(lines[n - 1].trim()));
  if (def < 0) return false;
  // The classes the test is defined in, up to the module (a class inside a function holds no collected test).
  const classes = headers.slice(def + 1).filter((n) => /^class\s/.test(lines[n - 1].trim()));
  const marks = [
    ...decoratorsAbove(lines, headers[def]),
    ...classes.flatMap((n) => [...decoratorsAbove(lines, n), ...pytestmarkIn(lines, n + 1, bodyIndent(lines, n))]),
    ...pytestmarkIn(lines, 1, 0),
  ];
  return marks.some((text) => EXPECTS_FAILURE.test(text));
}

/** The line numbers of the block headers (def, class, if, …) whose body holds the line, innermost first. */
function enclosingHeaders(lines: string[], line: number): number[] {
  const found: number[] = [];
  let limit = indentOf(lines[line - 1] ?? '');
  for (let n = line - 1; n >= 1 && limit > 0; n--) {
    const text = lines[n - 1] ?? '';
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('#') || indentOf(text) >= limit) continue;
    found.push(n);
    limit = indentOf(text);
  }
  return found;
}

/** The decorator lines right above a `def` or `class` (with the lines a decorator's arguments run on). */
function decoratorsAbove(lines: string[], header: number): string[] {
  const indent = indentOf(lines[header - 1]);
  const found: string[] = [];
  for (let n = header - 1; n >= 1; n--) {
    const text = lines[n - 1] ?? '';
    const trimmed = text.trim();
    const inside = indentOf(text) > indent || /^[)\]}]/.test(trimmed);
    if (!trimmed || (!trimmed.startsWith('@') && !inside)) break;
    found.push(trimmed);
  }
  return found;
}

function bodyIndent(lines: string[], header: number): number {
  const first = lines.slice(header).find((l) => l.trim() && !l.trim().startsWith('#'));
  return first === undefined ? -1 : indentOf(first);
}

/** A block's `pytestmark = …` statement (its continuation lines too), read from `start` at the block's indentation. */
function pytestmarkIn(lines: string[], start: number, indent: number): string[] {
  const found: string[] = [];
  for (let n = start; n <= lines.length; n++) {
    const text = lines[n - 1];
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('#') || indentOf(text) > indent) continue;
    if (indentOf(text) < indent) break;
    if (!/^pytestmark\s*=/.test(trimmed)) continue;
    found.push(trimmed);
    for (let k = n + 1; k <= lines.length && (indentOf(lines[k - 1]) > indent || /^[)\]}]/.test(lines[k - 1].trim()) || !lines[k - 1].trim()); k++) found.push(lines[k - 1].trim());
  }
  return found;
}
