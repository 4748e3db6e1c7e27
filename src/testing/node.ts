/**
 * node:test, jest and vitest, with the project's own installed runner. node:test files and jest
 * (--runInBand: tests in its main process) are the debuggee; vitest runs its tests in a worker that
 * waits for the debugger on an inspector port (--inspect-brk), which the engine attaches to.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { DebugError } from '../core/errors.js';
import { planLaunch } from '../engines/node/launchPlan.js';
import { findRuntime } from '../engines/node/nodeRuntime.js';
import { freePort } from '../core/freePort.js';
import { runCommand } from '../core/processGroup.js';
import { commandLine, isDirectory, listFailed } from './commands.js';
import { fullNamePattern, idsUnder, partOfName, jestTests, listedAsName, NO_TEST, nodeTestPatterns, tapFailures, tapTests } from './jsTestNames.js';
import { fileText, JS_FILE, jsFilesUnder, narrowed, nodeRoot, packageJson, runnerAsDebuggee, runnerBin, runnerClaim } from './nodeProject.js';
import type { RunnerFrames } from './failureJudge.js';
import type { FrameworkDriver, ListedTest, TestOutcome, TestPlan } from './types.js';

/**
 * Each runner's frames (node's own have no file: their name carries the module). An async
 * stack's callers are cut at a depth, so a stack without them may still be a test's.
 */
const NODE_TEST_FRAMES: RunnerFrames = { runner: /\[node:internal[\\/]test_runner[\\/]/, complete: false };
const JEST_FRAMES: RunnerFrames = { runner: /[\\/]node_modules[\\/](jest-[\w-]+|@jest[\\/][\w-]+)[\\/]/, complete: false };
const VITEST_FRAMES: RunnerFrames = { runner: /[\\/]node_modules[\\/](vitest|@vitest[\\/][\w-]+)[\\/]/, complete: false };

// ── node:test ────────────────────────────────────────────────────────────────────────────────

function tapOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
  const [pass, fail, skipped] = [count('pass'), count('fail'), count('skipped')];
  const counts = Number.isNaN(pass) ? undefined : `${fail} failed, ${pass} passed${skipped ? `, ${skipped} skipped` : ''}`;
  if (pass + fail === 0) return { status: 'no tests', counts };
  if (exitCode === 0 && !fail) return { status: 'passed', counts };
  return { status: fail ? 'failed' : 'error', counts, failureSummary: tapFailures(output).join('\n') || undefined };
}

export const nodeTestDriver: FrameworkDriver = {
  name: 'node:test',
  language: 'node',
  root: nodeRoot,
  async claims(request) {
    if (!JS_FILE.test(request.path)) return 0;
    return usesNodeTest(request.path) ? 4 : 0;
  },
  async plan(given) {
    const request = narrowed(given);
    if (isDirectory(request.path)) {
      throw new DebugError('INVALID_ARGUMENT', 'node:test runs one test file under the debugger.', 'Give the test file as path, or an id test_list gave for the folder (it names the file).');
    }
    const name = await listedAsName(request.test, async () => (await nodeTestDriver.list({ ...request, test: undefined }, new AbortController().signal)).tests);
    const runtimeArgs = request.test ? nodeTestPatterns(request.test, name).map((p) => `--test-name-pattern=${p}`) : [];
    return {
      framework: 'node:test',
      language: 'node',
      commandLine: commandLine('node', [...runtimeArgs, relative(request.cwd, request.path)]),
      run: { kind: 'launch', program: request.path, args: [], cwd: request.cwd, env: {}, options: { runtimeArgs } },
      failureFilters: ['all'],
      flavour: 'braces',
      frames: NODE_TEST_FRAMES,
      outcome: tapOutcome,
    } satisfies TestPlan;
  },
  async list(request, signal) {
    // Each file runs with a name no test has: its suites are built and every test is reported skipped.
    const files = isDirectory(request.path) ? jsFilesUnder(request.path).filter(usesNodeTest) : [request.path];
    const tests: ListedTest[] = [];
    const runtime = await findRuntime();
    for (const file of files) {
      // A TypeScript file runs as a launch runs it (through the project's tsx, …).
      const { entry, runtimeArgs } = planLaunch(file, runtime, {});
      const r = await runCommand(runtime.executable, [...runtimeArgs, `--test-name-pattern=${NO_TEST}`, entry], { cwd: request.cwd, signal, env: { NODE_TEST_CONTEXT: '' } });
      if (!/^TAP version/m.test(r.stdout)) throw listFailed(`node ${relative(request.cwd, file)}`, r.stdout + r.stderr);
      tests.push(...tapTests(r.stdout, file));
    }
    return { framework: 'node:test', tests: idsUnder(request.path, tests) };
  },
  partOfName,
};

function usesNodeTest(file: string): boolean {
  return /(['"])node:test\1/.test(fileText(file));
}

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
  const start = output.search(/^\s*\u25CF /m);
  const end = output.search(/^Test Suites:/m);
  return { status: counts ? 'failed' : 'error', counts, failureSummary: start >= 0 ? output.slice(start, end > start ? end : undefined).trim() : output.trim() };
}

export const jestDriver: FrameworkDriver = {
  name: 'jest',
  language: 'node',
  root: nodeRoot,
  async claims(request) {
    return runnerClaim(request.path, { module: '@jest/globals', name: 'jest', configs: JEST_CONFIGS, score: 3 });
  },
  async plan(given) {
    const request = narrowed(given);
    const bin = runnerBin(request.cwd, 'jest', 'jest');
    const args = ['--runInBand', '--no-watchman', '--ci'];
    if (keepsSourceAsIs(request.cwd, request.path)) args.push('--transform={}');
    args.push(relative(request.cwd, request.path) || '.');
    const name = await listedAsName(request.test, async () => (await jestDriver.list({ ...request, test: undefined }, new AbortController().signal)).tests);
    if (request.test) args.push('-t', fullNamePattern(request.test, name));
    return runnerAsDebuggee('jest', bin, args, request.cwd, { frames: JEST_FRAMES, outcome: jestOutcome });
  },
  async list(request, signal) {
    // jest runs no test whose name does not match, and reports each one it found as pending.
    const bin = runnerBin(request.cwd, 'jest', 'jest');
    const args = [bin, '--ci', '--no-watchman', '--runInBand', '--json', '--testLocationInResults', '-t', NO_TEST];
    if (keepsSourceAsIs(request.cwd, request.path)) args.push('--transform={}');
    args.push(relative(request.cwd, request.path) || '.');
    const r = await runCommand(process.execPath, args, { cwd: request.cwd, signal, env: { NO_COLOR: '1' } });
    let tests: ListedTest[];
    try {
      tests = jestTests(r.stdout);
    } catch {
      throw listFailed('jest --json', r.stdout + r.stderr);
    }
    return { framework: 'jest', tests: idsUnder(request.path, tests) };
  },
  partOfName,
};

// ── vitest ───────────────────────────────────────────────────────────────────────────────────

function vitestOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const counts = /^\s*Tests\s+(.+)$/m.exec(output)?.[1]?.trim();
  if (/No test files found|No test found/.test(output) || (counts && !/\b(passed|failed)\b/.test(counts))) return { status: 'no tests', counts };
  if (exitCode === 0) return { status: 'passed', counts };
  const start = output.search(/^\u23AF+ Failed Tests? \d+ \u23AF+$/m);
  const end = output.search(/^\s*Test Files\s/m);
  return { status: counts ? 'failed' : 'error', counts, failureSummary: start >= 0 ? output.slice(start, end > start ? end : undefined).trim() : output.trim() };
}

const INSPECTOR_LISTENING = /Debugger listening on ws:\/\/([\d.]+|\[[\d:a-f]+\]|localhost):(\d+)\//;

export const vitestDriver: FrameworkDriver = {
  name: 'vitest',
  language: 'node',
  root: nodeRoot,
  async claims(request) {
    // A vitest test file imports from vitest unless the project turns on globals: jest's claim is stronger.
    return runnerClaim(request.path, { module: 'vitest', name: 'vitest', configs: ['vitest.config.ts', 'vitest.config.js', 'vitest.config.mjs'], score: 2 });
  },
  async plan(given) {
    const request = narrowed(given);
    const bin = runnerBin(request.cwd, 'vitest', 'vitest');
    const port = await freePort();
    const name = await listedAsName(request.test, async () => (await vitestDriver.list({ ...request, test: undefined }, new AbortController().signal)).tests);
    const args = ['run', relative(request.cwd, request.path) || '.', ...(request.test ? ['-t', fullNamePattern(request.test, name)] : [])];
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
      frames: VITEST_FRAMES,
      // What a test's context.skip() throws.
      notFailures: /^PendingError$/,
      outcome: vitestOutcome,
    } satisfies TestPlan;
  },
  async list(request, signal) {
    // As jest's: a run that matches no name reports every test skipped, a test marked skip too (`vitest list` leaves that one out).
    const bin = runnerBin(request.cwd, 'vitest', 'vitest');
    const r = await runCommand(process.execPath, [bin, 'run', relative(request.cwd, request.path) || '.', '-t', NO_TEST, '--reporter=json'], { cwd: request.cwd, signal, env: { NO_COLOR: '1' } });
    let tests: ListedTest[];
    try {
      tests = jestTests(r.stdout.slice(r.stdout.indexOf('{')));
    } catch {
      throw listFailed('vitest run --reporter=json', r.stdout + r.stderr);
    }
    return { framework: 'vitest', tests: idsUnder(request.path, tests) };
  },
  partOfName,
};
