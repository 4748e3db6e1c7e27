/**
 * Test names of the JavaScript runners. An id is a test's full name, its describe blocks' names
 * first, joined by " > " as vitest writes it (`cart > totals > total plain`); a listing of a folder
 * puts the test file first (`cart.test.ts > cart > totals > total plain`). Each runner is given a
 * name pattern that selects exactly that test: jest and vitest match a pattern against the full
 * name joined by spaces, node:test (Node 20) against each test's own name, later Nodes against the
 * full name.
 */
import { statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDirectory } from './commands.js';
import type { ListedTest } from './types.js';

export const ID_SEPARATOR = ' > ';

/** A pattern that no test name matches: the runner loads its tests and runs none (a listing). */
export const NO_TEST = '(?!)';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Text that is a pattern already (anchors, alternatives, escapes, wildcards): test names rarely hold these. */
export function looksLikePattern(test: string): boolean {
  return /[\^$|\\]|\.[*+]/.test(test);
}

/**
 * Whether text that reads like a pattern is a test's id or name all the same (a price in a name:
 * `formats $2.50`), as the runner lists them: as a pattern it would select nothing. partOfName's
 * patterns (`.*…`) are patterns.
 */
export async function listedAsName(test: string | undefined, list: () => Promise<ListedTest[]>): Promise<boolean> {
  if (!test || !looksLikePattern(test) || test.startsWith('.*')) return false;
  const tests = await list().catch(() => []);
  return tests.some(({ id }) => id === test || id.endsWith(`${ID_SEPARATOR}${test}`));
}

/**
 * A full-name pattern (jest, vitest, mocha) for an id or a test's name: the whole name, or its end after
 * the names of describe blocks around it; a separator in the id stands for the space the runner
 * joins names with (or for itself, in a name that holds one). Text that reads like a pattern is
 * one, unless it is a name (`isName`).
 */
export function fullNamePattern(test: string, isName = false): string {
  if (!isName && looksLikePattern(test)) return test;
  const name = test.split(ID_SEPARATOR).map(escapeRegExp).join('(?: | > )');
  return `(?:^| )${name}$`;
}

/**
 * The runners' own name search (jest's and vitest's -t, --test-name-pattern) for a name that is no test's whole name (a describe block's, a part of a
 * test's): the runner's own search of the full names; `.*` makes it a pattern the plan passes on as is.
 */
export function partOfName(test: string): { pattern: string; selects(id: string): boolean } {
  const pattern = `.*${test.split(ID_SEPARATOR).map(escapeRegExp).join('(?: | > )')}`;
  const search = new RegExp(pattern);
  return { pattern, selects: (id) => search.test(id.split(ID_SEPARATOR).join(' ')) };
}

/** node:test's patterns for an id or a name: its own name (Node 20), and its full name (later Nodes). */
export function nodeTestPatterns(test: string, isName = false): string[] {
  if (!isName && looksLikePattern(test)) return [test];
  const names = test.split(ID_SEPARATOR);
  const own = `^${escapeRegExp(names.at(-1)!)}$`;
  return names.length > 1 ? [own, `^${names.map(escapeRegExp).join(' ')}$`] : [own];
}

/** A folder listing's id names its test file first (relative to the folder): that file, and the test's id in it. */
export function splitFileId(folder: string, test: string): { file: string; test: string } | undefined {
  const at = test.indexOf(ID_SEPARATOR);
  if (at < 0) return undefined;
  const file = join(folder, test.slice(0, at));
  return isFile(file) ? { file, test: test.slice(at + ID_SEPARATOR.length) } : undefined;
}

/** Ids of a listing of `path`: a folder's name their test file first. */
export function idsUnder(path: string, tests: ListedTest[]): ListedTest[] {
  if (!isDirectory(path)) return tests;
  return tests.map((t) => (t.file ? { ...t, id: `${relative(path, t.file)}${ID_SEPARATOR}${t.id}` } : t));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The tests in node:test's TAP output of a run that matched no name: each `# Subtest:` is a suite
 * or a test, nested by indentation; suites say `type: 'suite'` after their result line.
 */
export function tapTests(output: string, file: string): ListedTest[] {
  const lines = output.split('\n');
  const path: { indent: number; name: string }[] = [];
  const tests: ListedTest[] = [];
  lines.forEach((line, i) => {
    const subtest = /^( *)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      const indent = subtest[1].length;
      while (path.length && path[path.length - 1].indent >= indent) path.pop();
      path.push({ indent, name: unescapeTap(subtest[2]) });
      return;
    }
    const result = /^( *)(?:not )?ok \d+ - /.exec(line);
    if (!result) return;
    const indent = result[1].length;
    while (path.length && path[path.length - 1].indent > indent) path.pop();
    if (!path.length || isSuite(lines, i)) return;
    tests.push({ id: path.map((p) => p.name).join(ID_SEPARATOR), file });
  });
  return tests;
}

/** The failed tests of a TAP report, each with its details (suites that failed only through them left out). */
export function tapFailures(output: string): string[] {
  const lines = output.split('\n');
  const failures: string[] = [];
  lines.forEach((line, i) => {
    const failed = /^( *)not ok \d+ - /.exec(line);
    if (!failed) return;
    const block = [line.trim()];
    for (let k = i + 1; k < lines.length && lines[k].trim() !== '...'; k++) {
      if (/^\s*(---|duration_ms:)/.test(lines[k])) continue;
      block.push(`  ${lines[k].slice(failed[1].length).trimEnd()}`);
    }
    if (!block.some((l) => /failureType: 'subtestsFailed'/.test(l))) failures.push(block.join('\n'));
  });
  return failures;
}

function isSuite(lines: string[], resultLine: number): boolean {
  for (let i = resultLine + 1; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]); i++) {
    if (/^\s*type: 'suite'/.test(lines[i])) return true;
  }
  return false;
}

/** TAP escapes `\` and `#` in names. */
function unescapeTap(name: string): string {
  return name.replace(/\\([\\#])/g, '$1');
}

interface JestJson {
  testResults?: { name: string; assertionResults?: { ancestorTitles: string[]; title: string; location?: { line: number } | null }[] }[];
}

/** The tests in jest's `--json` report of a run that matched no name (each one pending). */
export function jestTests(json: string): ListedTest[] {
  const report = JSON.parse(json) as JestJson;
  return (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).map((a) => ({ id: [...a.ancestorTitles, a.title].join(ID_SEPARATOR), file: file.name, line: a.location?.line })),
  );
}
