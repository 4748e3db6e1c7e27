/**
 * pytest and unittest: the runner is the debuggee. A small launcher runs `python -m <runner>`
 * under debugpy (the engine launches files), with the project folder first on sys.path as `-m` has it.
 * debugpy's "userUnhandled" filter stops where an exception leaves the test's code for the runner's.
 */
import { existsSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { DebugError } from '../core/errors.js';
import { readSourceLines } from '../core/sourceReader.js';
import { findInterpreter } from '../engines/python/interpreter.js';
import { runCommand } from '../core/processGroup.js';
import { commandLine, findUp, folderOf, isDirectory, listFailed } from './commands.js';
import { ownFile } from './ownFiles.js';
import type { RunnerFrames } from './failureJudge.js';
import type { FrameworkDriver, TestListing, TestOutcome, TestPlan, TestRequest } from './types.js';

export const INSTALL_PYTEST = 'apt-get install python3-pytest  (or: python3 -m pip install pytest)';

const PROJECT_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'pytest.ini', 'tox.ini', 'conftest.py'];

/**
 * pytest's and unittest's frames (pytest runs unittest's TestCases through unittest's own code);
 * doctest runs each example and compares what it raises with what the example expects; asyncio
 * hands a task's exception to whoever awaits it. The whole stack is read in the program, so a
 * thread without the runner's frames runs no test.
 */
const PYTHON_FRAMES: RunnerFrames = {
  runner: /[\\/](_pytest|pluggy|unittest)[\\/]/,
  catcher: /^<doctest |[\\/]doctest\.py$/,
  passOn: /[\\/]asyncio[\\/]/,
  complete: true,
};

/** pytest.skip(), pytest.xfail() and unittest's skipTest() (a module's name may come first). */
const PYTHON_NOT_FAILURES = /(^|\.)(Skipped|XFailed|SkipTest)$/;

const LAUNCHER = `# debugbridge: runs \`python -m <module> args…\` under the debugger; with --unittest-select ID
# TARGET, the unittest tests of TARGET (a module, or a folder/ to discover) whose id is ID: one
# test, a doctest a module adds through load_tests too.
import os, runpy, sys
sys.path[0] = os.getcwd()
if sys.argv[1] == '--unittest-select':
    import unittest
    wanted, target = sys.argv[2], sys.argv[3]
    sys.argv = ['python -m unittest']
    loader = unittest.TestLoader()
    suite = loader.discover(target[:-1], top_level_dir='.') if target.endswith('/') else loader.loadTestsFromName(target)
    def tests(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                yield from tests(t)
            else:
                yield t
    found = list(tests(suite))
    chosen = ([t for t in found if t.id() == wanted] or [t for t in found if t.id().endswith('.' + wanted)]
              or [t for t in found if type(t).__name__ == '_FailedTest'])
    result = unittest.TextTestRunner().run(unittest.TestSuite(chosen))
    sys.exit(0 if result.wasSuccessful() else 1)
module = sys.argv[1]
sys.argv = [module] + sys.argv[2:]
code = 0
try:
    runpy.run_module(module, run_name='__main__', alter_sys=True)
except SystemExit as e:
    code = e.code
sys.exit(code)
`;

/** The launcher file (written once per user and content); the failure judge treats it as the runner's. */
export function launcherPath(): string {
  return ownFile('run_module.py', LAUNCHER);
}

/** The folder tests run from: the project's root, else the test's own folder. */
function pythonRoot(path: string): string {
  return findUp(path, PROJECT_MARKERS) ?? folderOf(path);
}

async function interpreter(options: Record<string, unknown>): Promise<string> {
  return (await findInterpreter(options)).executable;
}

const pytestVersions = new Map<string, Promise<string | undefined>>();
async function requirePytest(python: string, cwd: string): Promise<void> {
  let pending = pytestVersions.get(python);
  if (!pending) {
    pending = runCommand(python, ['-c', 'import pytest; print(pytest.__version__)'], { cwd, timeoutMs: 20_000 }).then((r) => (r.code === 0 ? r.stdout.trim() : undefined));
    pytestVersions.set(python, pending);
    void pending.then((v) => v === undefined && pytestVersions.delete(python));
  }
  if (!(await pending)) {
    throw new DebugError('FRAMEWORK_NOT_INSTALLED', `pytest is not installed for ${python}.`, `Install it: ${INSTALL_PYTEST}`);
  }
}

/** `path::name`, `path::Class::name` when the file defines it, else a -k expression (a dotted name's parts all matched). */
function pytestTarget(request: TestRequest, root: string): string[] {
  const rel = (p: string) => relative(root, p) || '.';
  const { path, test } = request;
  if (!test) return [rel(path)];
  if (test.includes('::')) return [test.includes('.py') ? test : `${rel(path)}::${test}`];
  if (!isDirectory(path) && /^\w+(\[.*\])?$/.test(test)) {
    const cls = enclosingClass(path, test.replace(/\[.*$/, ''));
    if (cls !== undefined) return [`${rel(path)}::${cls ? `${cls}::` : ''}${test}`];
  }
  // unittest's dotted id (`tests.test_inventory.InventoryTests.test_put`): every part names a node of the test's id.
  const dotted = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(test) ? test.split('.').join(' and ') : test;
  return [rel(path), '-k', dotted];
}

/** '' for a module-level test function, the class name for a method, undefined when not found. */
function enclosingClass(file: string, name: string): string | undefined {
  const lines = readSourceLines(file) ?? [];
  const at = lines.findIndex((l) => new RegExp(`^\\s*(async\\s+)?def\\s+${name}\\s*\\(`).test(l));
  if (at < 0) return undefined;
  if (!/^\s/.test(lines[at])) return '';
  for (let i = at - 1; i >= 0; i--) {
    const m = /^class\s+(\w+)/.exec(lines[i]);
    if (m) return m[1];
  }
  return undefined;
}

const PYTEST_COUNTS = /^=*\s*((?:\d+ \w+, )*\d+ \w+) in [\d.]+s\b/gm;

function pytestOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const counts = [...output.matchAll(PYTEST_COUNTS)].pop()?.[1];
  if (exitCode === 5 || /no tests ran/.test(output)) return { status: 'no tests', counts };
  if (exitCode === 4 && /ERROR: (not found|file or directory not found)/.test(output)) return { status: 'no tests', counts };
  if (exitCode === 0) return { status: 'passed', counts };
  const start = output.search(/^=+ (FAILURES|ERRORS) =+$/m);
  const failureSummary = start >= 0 ? output.slice(start).trim() : undefined;
  return { status: exitCode === 1 ? 'failed' : 'error', counts, failureSummary: failureSummary ?? (exitCode !== 1 ? output.trim() : undefined) };
}

export const pytestDriver: FrameworkDriver = {
  name: 'pytest',
  language: 'python',
  root: pythonRoot,
  async claims(request) {
    if (!isPythonPath(request.path)) return 0;
    const root = findUp(request.path, PROJECT_MARKERS);
    if (root && ['pytest.ini', 'conftest.py'].some((m) => existsSync(join(root, m)))) return 3;
    const text = isDirectory(request.path) ? '' : (readSourceLines(request.path) ?? []).join('\n');
    if (/^\s*(import pytest|from pytest\b)/m.test(text)) return 3;
    if (/unittest\.TestCase|^\s*from unittest import/m.test(text)) return 1;
    return 2;
  },
  async plan(request) {
    const options = {};
    const python = await interpreter(options);
    await requirePytest(python, request.cwd);
    const args = ['-q', `--rootdir=${request.cwd}`, ...pytestTarget(request, request.cwd)];
    return {
      framework: 'pytest',
      language: 'python',
      commandLine: commandLine('python3', ['-m', 'pytest', ...args]),
      run: { kind: 'launch', program: launcherPath(), args: ['pytest', ...args], cwd: request.cwd, env: {}, options },
      failureFilters: ['userUnhandled'],
      flavour: 'python',
      frames: PYTHON_FRAMES,
      notFailures: PYTHON_NOT_FAILURES,
      outcome: pytestOutcome,
    } satisfies TestPlan;
  },
  async list(request, signal) {
    const python = await interpreter({});
    await requirePytest(python, request.cwd);
    const target = request.path === request.cwd ? '.' : relative(request.cwd, request.path);
    const r = await runCommand(python, ['-m', 'pytest', '--collect-only', '-q', `--rootdir=${request.cwd}`, '-p', 'no:cacheprovider', target], { cwd: request.cwd, signal });
    if (r.code !== 0 && r.code !== 5) throw listFailed('pytest --collect-only', r.stdout + r.stderr);
    const ids = r.stdout.split('\n').filter((l) => /^\S+\.py::\S/.test(l));
    return { framework: 'pytest', tests: ids.map((id) => ({ id, file: join(request.cwd, id.split('::')[0]) })) } satisfies TestListing;
  },
};

// ── unittest ─────────────────────────────────────────────────────────────────────────────────

function moduleName(file: string, root: string): string {
  return relative(root, file).slice(0, -extname(file).length).split(sep).join('.');
}

/** What unittest runs: a module (or a folder to discover, written with a trailing slash). */
function unittestTarget(request: TestRequest, root: string): string {
  return isDirectory(request.path) ? `${relative(root, request.path) || '.'}/` : moduleName(request.path, root);
}

const LIST_UNITTEST = `import sys, unittest
loader = unittest.TestLoader()
target = sys.argv[1]
suite = loader.discover(target, top_level_dir='.') if target.endswith('/') else loader.loadTestsFromName(target)
def walk(s):
    for t in s:
        if isinstance(t, unittest.TestSuite):
            yield from walk(t)
        else:
            yield t.id()
for i in walk(suite):
    print(i)
`;

function unittestOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const ran = /^Ran (\d+) tests? in/m.exec(output);
  const verdict = /^(OK|FAILED|NO TESTS RAN)\b.*$/m.exec(output.slice(ran?.index ?? 0))?.[0];
  const counts = ran ? `ran ${ran[1]}; ${verdict ?? ''}`.trim() : undefined;
  if ((ran && ran[1] === '0') || exitCode === 5) return { status: 'no tests', counts };
  // A name that does not resolve becomes a test of unittest's own that fails to import it.
  if (/unittest\.loader\._FailedTest/.test(output)) return { status: 'no tests', counts, failureSummary: output.trim() };
  if (!ran && /has no attribute|No module named/.test(output)) return { status: 'no tests', counts, failureSummary: output.trim() };
  if (exitCode === 0) return { status: 'passed', counts };
  const start = output.search(/^(=+|FAIL:|ERROR:)/m);
  return { status: ran ? 'failed' : 'error', counts, failureSummary: (start >= 0 ? output.slice(start) : output).trim() };
}

export const unittestDriver: FrameworkDriver = {
  name: 'unittest',
  language: 'python',
  root: pythonRoot,
  async claims(request) {
    if (!isPythonPath(request.path) || isDirectory(request.path)) return isPythonPath(request.path) ? 1 : 0;
    const text = (readSourceLines(request.path) ?? []).join('\n');
    if (/^\s*(import pytest|from pytest\b)/m.test(text)) return 0;
    return /unittest\.TestCase|\(TestCase\)/.test(text) ? 2.5 : 0;
  },
  async plan(request) {
    const options = {};
    const target = unittestTarget(request, request.cwd);
    const shown = target.endsWith('/') ? ['discover', '-s', target.slice(0, -1), '-t', '.'] : [target];
    // unittest's own -k filters a TestCase's methods, not what a module's load_tests adds: the launcher selects by id.
    const args = request.test ? ['--unittest-select', request.test, target] : ['unittest', ...shown];
    return {
      framework: 'unittest',
      language: 'python',
      commandLine: commandLine('python3', ['-m', 'unittest', ...shown]) + (request.test ? ` (only ${request.test})` : ''),
      run: { kind: 'launch', program: launcherPath(), args, cwd: request.cwd, env: {}, options },
      failureFilters: ['userUnhandled'],
      flavour: 'python',
      frames: PYTHON_FRAMES,
      notFailures: PYTHON_NOT_FAILURES,
      outcome: unittestOutcome,
    } satisfies TestPlan;
  },
  async list(request, signal) {
    const python = await interpreter({});
    const r = await runCommand(python, ['-c', LIST_UNITTEST, unittestTarget(request, request.cwd)], { cwd: request.cwd, signal });
    if (r.code !== 0) throw listFailed('unittest discovery', r.stdout + r.stderr);
    const ids = r.stdout.split('\n').filter((l) => /^\w[\w.]*$/.test(l));
    return { framework: 'unittest', tests: ids.map((id) => ({ id })) } satisfies TestListing;
  },
};

/** Folders where a project without any marker file keeps its tests (a bare `tests/` package beside the code). */
const TEST_FOLDERS = ['tests', 'test'];

/** A .py file, or a folder with .py files, a test folder of them, or a Python project's markers in it. */
function isPythonPath(path: string): boolean {
  if (!isDirectory(path)) return extname(path) === '.py';
  const hasPython = (dir: string) => isDirectory(dir) && readdirSync(dir).some((f) => f.endsWith('.py'));
  return PROJECT_MARKERS.some((m) => existsSync(join(path, m))) || hasPython(path) || TEST_FOLDERS.some((t) => hasPython(join(path, t)));
}
