/**
 * node:test, jest and vitest, with the project's own installed runner. node:test files and jest
 * (--runInBand: tests in its main process) are the debuggee; vitest runs its tests in a worker that
 * waits for the debugger on an inspector port (--inspect-brk), which the engine attaches to.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative } from 'node:path';
import { DebugError } from '../core/errors.js';
import { freePort } from '../core/freePort.js';
import { readSourceLines } from '../core/sourceReader.js';
import { commandLine, findUp, folderOf, isDirectory, listFailed, runCommand } from './commands.js';
import type { FrameworkDriver, ListedTest, TestOutcome, TestPlan, TestRequest } from './types.js';

const JS_FILE = /\.(c|m)?[jt]sx?$/;

function nodeRoot(path: string): string {
  return findUp(path, ['package.json']) ?? folderOf(path);
}

function fileText(path: string): string {
  return isDirectory(path) ? '' : (readSourceLines(path) ?? []).join('\n');
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  jest?: Record<string, unknown>;
  bin?: string | Record<string, string>;
}

function packageJson(dir: string): PackageJson {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return {};
  }
}

function declares(root: string, name: string): boolean {
  const pkg = packageJson(root);
  return !!(pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]);
}

/** The runner's executable script as the project installed it, or FRAMEWORK_NOT_INSTALLED. */
function runnerBin(root: string, name: string, binName: string): string {
  let manifest: string;
  try {
    manifest = createRequire(join(root, 'package.json')).resolve(`${name}/package.json`);
  } catch {
    throw new DebugError('FRAMEWORK_NOT_INSTALLED', `${name} is not installed in ${root}.`, `Install it there: cd ${root} && npm install --save-dev ${name}`);
  }
  const bin = packageJson(dirname(manifest)).bin;
  const script = typeof bin === 'string' ? bin : bin?.[binName];
  if (!script) throw new DebugError('FRAMEWORK_NOT_INSTALLED', `${name} in ${dirname(manifest)} has no ${binName} command.`, `Reinstall it: cd ${root} && npm install --save-dev ${name}`);
  return join(dirname(manifest), script);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A name as a runner's name pattern: a plain name matches literally; one with regex syntax is a pattern already. */
function namePattern(test: string): string {
  return /[\^$*+?()[\]{}|\\]/.test(test) ? test : escapeRegExp(test);
}

/** `test('name', …)` / `it(…)` calls in a file: what node:test and jest offer without running. */
export function scanTestNames(file: string): ListedTest[] {
  const lines = readSourceLines(file) ?? [];
  const tests: ListedTest[] = [];
  lines.forEach((text, i) => {
    for (const m of text.matchAll(/\b(?:test|it)(?:\.(?:only|skip|todo|concurrent))?\s*\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)) {
      tests.push({ id: m[2], file, line: i + 1 });
    }
  });
  return tests;
}

/** Test names in a file, or in the test files of a folder (node_modules left out). */
function scanFiles(request: TestRequest): ListedTest[] {
  if (!isDirectory(request.path)) return scanTestNames(request.path);
  return testFilesUnder(request.path, 0).flatMap(scanTestNames);
}

const TEST_FILE = /\.(test|spec)\.(c|m)?[jt]sx?$/;
const MAX_SCANNED_FILES = 500;

function testFilesUnder(dir: string, depth: number, found: string[] = []): string[] {
  if (depth > 8 || found.length >= MAX_SCANNED_FILES) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) testFilesUnder(path, depth + 1, found);
    else if (TEST_FILE.test(entry.name) && found.length < MAX_SCANNED_FILES) found.push(path);
  }
  return found;
}

// ── node:test ────────────────────────────────────────────────────────────────────────────────

function tapOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
  const [pass, fail, skipped] = [count('pass'), count('fail'), count('skipped')];
  const counts = Number.isNaN(pass) ? undefined : `${fail} failed, ${pass} passed${skipped ? `, ${skipped} skipped` : ''}`;
  if (pass + fail === 0) return { status: 'no tests', counts };
  if (exitCode === 0 && !fail) return { status: 'passed', counts };
  const failures = [...output.matchAll(/^\s*not ok \d+ - .*\n(?:^\s+.*\n?)*/gm)].map((m) => m[0].trimEnd());
  return { status: fail ? 'failed' : 'error', counts, failureSummary: failures.join('\n') || undefined };
}

export const nodeTestDriver: FrameworkDriver = {
  name: 'node:test',
  language: 'node',
  root: nodeRoot,
  async claims(request) {
    if (!JS_FILE.test(request.path)) return 0;
    return /(['"])node:test\1/.test(fileText(request.path)) ? 4 : 0;
  },
  async plan(request) {
    if (isDirectory(request.path)) {
      throw new DebugError('INVALID_ARGUMENT', 'node:test runs one test file under the debugger.', 'Give the test file as path (test_list shows the tests in it).');
    }
    const runtimeArgs = request.test ? [`--test-name-pattern=${namePattern(request.test)}`] : [];
    return {
      framework: 'node:test',
      language: 'node',
      commandLine: commandLine('node', [...runtimeArgs, relative(request.cwd, request.path)]),
      run: { kind: 'launch', program: request.path, args: [], cwd: request.cwd, env: {}, options: { runtimeArgs } },
      failureFilters: ['all'],
      flavour: 'braces',
      outcome: tapOutcome,
    } satisfies TestPlan;
  },
  async list(request) {
    return { framework: 'node:test', tests: scanFiles(request) };
  },
};

// ── jest ─────────────────────────────────────────────────────────────────────────────────────

const BABEL_CONFIGS = ['babel.config.js', 'babel.config.cjs', 'babel.config.mjs', 'babel.config.json', '.babelrc', '.babelrc.js', '.babelrc.json'];
const JEST_CONFIGS = ['jest.config.js', 'jest.config.cjs', 'jest.config.mjs', 'jest.config.ts', 'jest.config.json'];

/** Plain JavaScript in a project that configures no transform runs untransformed, so its lines are the file's own. */
function keepsSourceAsIs(root: string, file: string): boolean {
  if (!/\.(c|m)?js$/.test(extname(file) ? file : '.js')) return false;
  if (BABEL_CONFIGS.some((f) => existsSync(join(root, f)))) return false;
  if (packageJson(root).jest?.transform) return false;
  return !JEST_CONFIGS.some((f) => existsSync(join(root, f)) && /\btransform\b/.test(readFileSync(join(root, f), 'utf8')));
}

function jestOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const counts = /^Tests:\s+(.+)$/m.exec(output)?.[1]?.trim();
  if (/No tests found/.test(output) || (counts && !/\b(passed|failed)\b/.test(counts))) return { status: 'no tests', counts };
  if (exitCode === 0) return { status: 'passed', counts };
  const start = output.search(/^\s*● /m);
  const end = output.search(/^Test Suites:/m);
  return { status: counts ? 'failed' : 'error', counts, failureSummary: start >= 0 ? output.slice(start, end > start ? end : undefined).trim() : output.trim() };
}

export const jestDriver: FrameworkDriver = {
  name: 'jest',
  language: 'node',
  root: nodeRoot,
  async claims(request) {
    if (!JS_FILE.test(request.path) && !isDirectory(request.path)) return 0;
    const root = nodeRoot(request.path);
    const text = fileText(request.path);
    if (/(['"])@jest\/globals\1/.test(text)) return 4;
    if (/(['"])(vitest|node:test)\1/.test(text)) return 0;
    return declares(root, 'jest') || JEST_CONFIGS.some((f) => existsSync(join(root, f))) ? 3 : 0;
  },
  async plan(request) {
    const bin = runnerBin(request.cwd, 'jest', 'jest');
    const args = ['--runInBand', '--no-watchman', '--ci'];
    if (keepsSourceAsIs(request.cwd, request.path)) args.push('--transform={}');
    args.push(relative(request.cwd, request.path) || '.');
    if (request.test) args.push('-t', namePattern(request.test));
    return {
      framework: 'jest',
      language: 'node',
      commandLine: commandLine('npx', ['jest', ...args]),
      run: { kind: 'launch', program: bin, args, cwd: request.cwd, env: {}, options: {} },
      failureFilters: ['all'],
      flavour: 'braces',
      outcome: jestOutcome,
    } satisfies TestPlan;
  },
  async list(request) {
    runnerBin(request.cwd, 'jest', 'jest');
    return { framework: 'jest', tests: scanFiles(request) };
  },
};

// ── vitest ───────────────────────────────────────────────────────────────────────────────────

function vitestOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const counts = /^\s*Tests\s+(.+)$/m.exec(output)?.[1]?.trim();
  if (/No test files found|No test found/.test(output) || (counts && !/\b(passed|failed)\b/.test(counts))) return { status: 'no tests', counts };
  if (exitCode === 0) return { status: 'passed', counts };
  const start = output.search(/^⎯+ Failed Tests? \d+ ⎯+$/m);
  const end = output.search(/^\s*Test Files\s/m);
  return { status: counts ? 'failed' : 'error', counts, failureSummary: start >= 0 ? output.slice(start, end > start ? end : undefined).trim() : output.trim() };
}

const INSPECTOR_LISTENING = /Debugger listening on ws:\/\/([\d.]+|\[[\d:a-f]+\]|localhost):(\d+)\//;

export const vitestDriver: FrameworkDriver = {
  name: 'vitest',
  language: 'node',
  root: nodeRoot,
  async claims(request) {
    if (!JS_FILE.test(request.path) && !isDirectory(request.path)) return 0;
    const root = nodeRoot(request.path);
    const text = fileText(request.path);
    if (/(['"])vitest\1/.test(text)) return 4;
    if (/(['"])(@jest\/globals|node:test)\1/.test(text)) return 0;
    // A vitest test file imports from vitest unless the project turns on globals: jest's claim is stronger.
    return declares(root, 'vitest') || ['vitest.config.ts', 'vitest.config.js', 'vitest.config.mjs'].some((f) => existsSync(join(root, f))) ? 2 : 0;
  },
  async plan(request) {
    const bin = runnerBin(request.cwd, 'vitest', 'vitest');
    const port = await freePort();
    const args = ['run', relative(request.cwd, request.path) || '.', ...(request.test ? ['-t', namePattern(request.test)] : [])];
    // One worker at a time, waiting for the debugger before the first test file runs.
    const debugArgs = [`--inspect-brk=127.0.0.1:${port}`, '--no-file-parallelism'];
    return {
      framework: 'vitest',
      language: 'node',
      commandLine: commandLine('npx', ['vitest', ...args, ...debugArgs]),
      run: {
        kind: 'hosted',
        command: process.execPath,
        args: [bin, ...args, ...debugArgs],
        cwd: request.cwd,
        env: { NO_COLOR: '1' },
        target: (output) => {
          const m = INSPECTOR_LISTENING.exec(output);
          return m ? { host: m[1], port: Number(m[2]) } : undefined;
        },
        options: {},
      },
      failureFilters: ['all'],
      flavour: 'braces',
      outcome: vitestOutcome,
    } satisfies TestPlan;
  },
  async list(request, signal) {
    const bin = runnerBin(request.cwd, 'vitest', 'vitest');
    // `--json` takes an optional file name: last, it prints to stdout.
    const r = await runCommand(process.execPath, [bin, 'list', relative(request.cwd, request.path) || '.', '--json'], { cwd: request.cwd, signal, env: { NO_COLOR: '1' } });
    const json = r.stdout.slice(r.stdout.indexOf('['));
    let entries: { name: string; file?: string }[];
    try {
      entries = JSON.parse(json) as { name: string; file?: string }[];
    } catch {
      throw listFailed('vitest list', r.stdout + r.stderr);
    }
    return { framework: 'vitest', tests: entries.map((e) => ({ id: e.name, file: e.file })) };
  },
};
