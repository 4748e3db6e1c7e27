/**
 * Whether a place in a source file sits where the user's own code catches an exception: inside a
 * `try` body (with a catch) of the same function, or — in Python — inside `with pytest.raises(…)`,
 * `self.assertRaises(…)`, `contextlib.suppress(…)`. A reading of the text, not a parse: strings,
 * comments and template literals are skipped; anything it cannot read counts as "not caught".
 */

export type SourceFlavour = 'python' | 'braces';

export function caughtAt(lines: string[], line: number, column: number, flavour: SourceFlavour): boolean {
  return flavour === 'python' ? pythonCaughtAt(lines, line) : braceCaughtAt(lines, line, column);
}

// ── Python: blocks by indentation ────────────────────────────────────────────────────────────

/** Context managers that swallow the exception the test expects. */
const PYTHON_CATCHERS = /\b(raises|assertRaises|assertRaisesRegex|assertWarns|assertWarnsRegex|suppress|warns|deprecated_call)\s*\(/;

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

function pythonCaughtAt(lines: string[], line: number): boolean {
  let limit = indentOf(lines[line - 1] ?? '');
  /** An except/else/finally header seen at this indentation: the matching `try:` above is no catcher. */
  let handlerAt: number | undefined;
  for (let n = line - 1; n >= 1; n--) {
    const text = lines[n - 1] ?? '';
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const indent = indentOf(text);
    if (indent > limit || (indent === limit && handlerAt !== indent)) continue;
    if (indent === limit && handlerAt === indent) {
      if (/^try\s*:/.test(trimmed)) handlerAt = undefined;
      continue;
    }
    limit = indent;
    if (/^(async\s+)?def\s|^class\s/.test(trimmed)) return false;
    if (/^(except\b|else\s*:|finally\s*:)/.test(trimmed)) {
      handlerAt = indent;
      continue;
    }
    if (/^try\s*:/.test(trimmed)) return hasExcept(lines, n, indent);
    if (/^(async\s+)?with\s/.test(trimmed) && PYTHON_CATCHERS.test(trimmed)) return true;
  }
  return false;
}

/** Whether the `try:` on line `tryLine` has an `except` clause (a `try` with only `finally` catches nothing). */
function hasExcept(lines: string[], tryLine: number, indent: number): boolean {
  for (let n = tryLine + 1; n <= lines.length; n++) {
    const text = lines[n - 1];
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('#') || indentOf(text) > indent) continue;
    if (indentOf(text) < indent) return false;
    if (/^except\b/.test(trimmed)) return true;
    if (!/^(else|finally)\s*:/.test(trimmed)) return false;
  }
  return false;
}

// ── JavaScript / TypeScript / C#: blocks by braces ───────────────────────────────────────────

interface Token {
  text: string;
  line: number;
  column: number;
}

const CONTROL_KEYWORDS = new Set(['if', 'for', 'foreach', 'while', 'switch', 'catch', 'with', 'using', 'lock', 'fixed', 'when']);
const REGEX_AFTER = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', 'return', 'typeof', '&&', '||', '=>']);

/** A file's tokens and braces, read once per version of its lines (library files are read at every exception). */
const parsed = new WeakMap<string[], { tokens: Token[] } & ReturnType<typeof match>>();

function braceCaughtAt(lines: string[], line: number, column: number): boolean {
  let known = parsed.get(lines);
  if (!known) {
    const tokens = tokenize(lines);
    known = { tokens, ...match(tokens) };
    parsed.set(lines, known);
  }
  const { tokens, braceOf, closeOf } = known;
  // The innermost open braces around the position, innermost first.
  const enclosing: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.text !== '{') continue;
    const close = closeOf.get(i);
    if (before(t, line, column) && (close === undefined || !before(tokens[close], line, column))) enclosing.push(i);
  }
  enclosing.reverse();
  for (const open of enclosing) {
    const kind = braceOf(open);
    if (kind === 'function') return false;
    if (kind === 'try') {
      const close = closeOf.get(open);
      if (close !== undefined && tokens[close + 1]?.text === 'catch') return true;
    }
  }
  return false;
}

function before(t: Token, line: number, column: number): boolean {
  return t.line < line || (t.line === line && t.column <= column);
}

function match(tokens: Token[]) {
  const closeOf = new Map<number, number>();
  const parenOpen = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const text = tokens[i].text;
    if (text === '{' || text === '(') stack.push(i);
    else if (text === '}' || text === ')') {
      const open = stack.pop();
      if (open === undefined) continue;
      if (text === '}') closeOf.set(open, i);
      else parenOpen.set(i, open);
    }
  }
  const braceOf = (open: number): 'try' | 'function' | 'block' => {
    const prev = tokens[open - 1]?.text;
    if (prev === 'try') return 'try';
    if (prev === '=>') return 'function';
    if (prev === ')') {
      const start = parenOpen.get(open - 1);
      const head = start !== undefined ? tokens[start - 1]?.text : undefined;
      return head && CONTROL_KEYWORDS.has(head) ? 'block' : 'function';
    }
    // C# accessors (`get {`) and local functions end in an identifier; so do classes and namespaces, which hold no try.
    if (prev === 'get' || prev === 'set' || prev === 'init' || prev === 'add' || prev === 'remove') return 'function';
    return 'block';
  };
  return { braceOf, closeOf };
}

/** Identifiers, `=>`, `&&`, `||` and single punctuation; strings, comments and regexes are skipped. */
function tokenize(lines: string[]): Token[] {
  const src = lines.join('\n');
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  /** Template literals open: a `}` at this brace depth resumes the template. */
  const templateDepths: number[] = [];
  let depth = 0;
  let i = 0;
  const push = (text: string, at: number) => tokens.push({ text, line, column: at - lineStart + 1 });
  const skipTo = (end: number) => {
    for (let k = i; k < end && k < src.length; k++) {
      if (src[k] === '\n') {
        line++;
        lineStart = k + 1;
      }
    }
    i = end;
  };
  const skipString = (quote: string, verbatim: boolean) => {
    let k = i + 1;
    while (k < src.length) {
      if (!verbatim && src[k] === '\\') k += 2;
      else if (src[k] === quote) {
        if (verbatim && src[k + 1] === quote) k += 2;
        else break;
      } else if (src[k] === '\n' && quote !== '`' && !verbatim) break;
      else k++;
    }
    skipTo(k + 1);
  };
  /** Skips template text up to `${` (entering an expression) or the closing backtick. */
  const skipTemplate = () => {
    let k = i;
    while (k < src.length) {
      if (src[k] === '\\') k += 2;
      else if (src[k] === '`') {
        skipTo(k + 1);
        return;
      } else if (src[k] === '$' && src[k + 1] === '{') {
        skipTo(k + 2);
        templateDepths.push(depth);
        depth++;
        return;
      } else k++;
    }
    skipTo(k);
  };
  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '\n') {
      line++;
      lineStart = ++i;
    } else if (/\s/.test(c)) i++;
    else if (c === '/' && next === '/') skipTo(src.indexOf('\n', i) < 0 ? src.length : src.indexOf('\n', i));
    else if (c === '/' && next === '*') skipTo(src.indexOf('*/', i + 2) < 0 ? src.length : src.indexOf('*/', i + 2) + 2);
    else if (c === '"' || c === "'") skipString(c, false);
    else if (c === '@' && next === '"') {
      i++;
      skipString('"', true);
    } else if (c === '$' && (next === '"' || (next === '@' && src[i + 2] === '"'))) {
      // C# interpolated strings: holes rarely hold braces that matter here.
      i += next === '@' ? 2 : 1;
      skipString('"', next === '@');
    } else if (c === '`') {
      i++;
      skipTemplate();
    } else if (c === '/' && REGEX_AFTER.has(tokens[tokens.length - 1]?.text ?? '(')) {
      let k = i + 1;
      let inClass = false;
      while (k < src.length && src[k] !== '\n') {
        if (src[k] === '\\') k++;
        else if (src[k] === '[') inClass = true;
        else if (src[k] === ']') inClass = false;
        else if (src[k] === '/' && !inClass) break;
        k++;
      }
      skipTo(k + 1);
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z0-9_$]+/.exec(src.slice(i, i + 64))!;
      push(m[0], i);
      i += m[0].length;
    } else if (c === '=' && next === '>') {
      push('=>', i);
      i += 2;
    } else if ((c === '&' && next === '&') || (c === '|' && next === '|')) {
      push(c + next, i);
      i += 2;
    } else {
      if (c === '{') depth++;
      if (c === '}') {
        depth--;
        if (templateDepths.length && templateDepths[templateDepths.length - 1] === depth) {
          templateDepths.pop();
          i++;
          skipTemplate();
          continue;
        }
      }
      push(c, i);
      i++;
    }
  }
  return tokens;
}
