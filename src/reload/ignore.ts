/**
 * Which changed paths never cause a reload. chokidar 4 has no globs, so patterns become one
 * predicate. A pattern without a slash matches any single path segment below a watched path
 * (`node_modules` ignores the folder and all below it, `*.log` any log file; the watched paths
 * themselves are what the user asked for and never ignored); a pattern with a slash matches the
 * whole path, relative to the folder the proxy runs in unless it starts with `/`.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';

export const builtInIgnores = [
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '*.log',
  // editor temp, swap and backup files: vim, emacs, JetBrains, VS Code, macOS
  '*.swp',
  '*.swo',
  '*.swx',
  '*~',
  '.#*',
  '#*#',
  '4913',
  '*.tmp',
  '*___jb_tmp___',
  '*___jb_old___',
  '*.crswap',
  '.DS_Store',
];

export function ignorePredicate(patterns: string[], cwd: string, watched: string[]): (path: string) => boolean {
  const roots = watched.map((w) => resolve(cwd, w)).sort((a, b) => b.length - a.length);
  const segmentPatterns: RegExp[] = [];
  const relativePatterns: RegExp[] = [];
  const absolutePatterns: RegExp[] = [];
  for (const pattern of [...builtInIgnores, ...patterns]) {
    const trimmed = pattern.replace(/\/+$/, '');
    if (isAbsolute(trimmed)) absolutePatterns.push(globToRegExp(trimmed));
    else if (trimmed.includes('/')) relativePatterns.push(globToRegExp(trimmed.replace(/^\.\//, '')));
    else segmentPatterns.push(globToRegExp(trimmed));
  }
  return (path) => {
    const absolute = toSlashes(path);
    if (absolutePatterns.some((re) => re.test(absolute))) return true;
    const full = resolve(cwd, path);
    if (relativePatterns.some((re) => re.test(toSlashes(relative(cwd, full))))) return true;
    const root = roots.find((r) => full === r || full.startsWith(r.endsWith(sep) ? r : r + sep));
    const below = root === undefined ? full : relative(root, full);
    return toSlashes(below)
      .split('/')
      .some((segment) => segment !== '' && segmentPatterns.some((re) => re.test(segment)));
  };
}

/** `**` spans folders, `*` and `?` stay within one, `{a,b}` is either. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const atStart = i === 0 || glob[i - 1] === '/';
      if (atStart && glob[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else if (out.endsWith('/') && i + 2 === glob.length) {
        out = `${out.slice(0, -1)}(?:/.*)?`;
        i += 1;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braceDepth++;
      out += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (c === ',' && braceDepth > 0) out += '|';
    else out += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
