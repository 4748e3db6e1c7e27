/**
 * Paths that name a value the way the agent writes it: `order.items[2]`, `table["counts"]`,
 * `self.cache['k']`. A path is parsed into segments; each segment is matched against a child's
 * name in the forms runtimes use (`items`, `[2]`, `2`, `'counts'`, `"counts"`).
 */
export type PathSegment = { kind: 'name'; name: string } | { kind: 'index'; index: number } | { kind: 'key'; key: string };

export function parseVariablePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = 0;
  const s = path.trim();
  const fail = (why: string): never => {
    throw new Error(`cannot read path "${path}": ${why} at character ${i + 1}`);
  };
  while (i < s.length) {
    const ch = s[i];
    if (ch === '.') {
      if (segments.length === 0) fail('a path cannot start with "."');
      i++;
      continue;
    }
    if (ch === '[') {
      const close = findClosingBracket(s, i);
      if (close < 0) fail('unclosed "["');
      const inner = s.slice(i + 1, close).trim();
      if (/^-?\d+$/.test(inner)) segments.push({ kind: 'index', index: Number(inner) });
      else if (/^(['"]).*\1$/s.test(inner)) segments.push({ kind: 'key', key: inner.slice(1, -1) });
      else if (inner.length) segments.push({ kind: 'key', key: inner });
      else fail('empty "[]"');
      i = close + 1;
      continue;
    }
    const m = /^[^.[\]]+/.exec(s.slice(i));
    if (!m) fail(`unexpected "${ch}"`);
    segments.push({ kind: 'name', name: m![0].trim() });
    i += m![0].length;
  }
  if (segments.length === 0) throw new Error('empty path');
  return segments;
}

function findClosingBracket(s: string, open: number): number {
  let quote: string | undefined;
  for (let i = open + 1; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ']') return i;
  }
  return -1;
}

/** The child names a runtime may use for this segment, most likely first. */
export function candidateNames(segment: PathSegment): string[] {
  switch (segment.kind) {
    case 'name':
      return [segment.name];
    case 'index':
      return [`[${segment.index}]`, String(segment.index)];
    case 'key':
      return [`'${segment.key}'`, `"${segment.key}"`, `[${JSON.stringify(segment.key)}]`, segment.key, `[${segment.key}]`];
  }
}

/**
 * Whether a child's name is a member, index or key of its parent. Runtimes also list computed
 * children (debugpy's `len()`): those have no path below their parent, only an expression.
 */
export function isMemberName(childName: string): boolean {
  return /^\[.*\]$/.test(childName) || /^-?\d+$/.test(childName) || /^(['"]).*\1$/s.test(childName) || /^[A-Za-z_$][\w$]*$/.test(childName);
}

/** Renders segments back to a path, for the `path` of each child shown to the agent. */
export function joinPath(parent: string | undefined, childName: string): string {
  if (!parent) return childName;
  if (/^\[.*\]$/.test(childName)) return `${parent}${childName}`;
  if (/^-?\d+$/.test(childName)) return `${parent}[${childName}]`;
  if (/^(['"]).*\1$/s.test(childName)) return `${parent}[${childName}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(childName)) return `${parent}.${childName}`;
  return `${parent}[${JSON.stringify(childName)}]`;
}
