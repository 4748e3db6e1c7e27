/** Which exception fails a test, read from the stack at the throw (pure logic on real files). */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FrameInfo } from '../../src/core/types.js';
import { judgeException, type RunnerFrames } from '../../src/testing/failureJudge.js';

const dir = mkdtempSync(join(tmpdir(), 'dbb-judge-'));
const write = (path: string, lines: string[]) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, lines.join('\n'));
  return path;
};
const testFile = write(join(dir, 'calc.test.js'), ["test('t', () => {", '  expect(total()).toBe(2);', '  expect(() => JSON.parse("{")).toThrow();', '});']);
const codeFile = write(join(dir, 'calc.js'), ['function parse(s) {', '  try {', '    return JSON.parse(s);', '  } catch {', '    return null;', '  }', '}']);
/** A library on disk that throws inside (line 3) and catches in its caller (line 9). */
const libFile = write(join(dir, 'node_modules', 'semver', 'index.js'), [
  'class SemVer {',
  '  constructor(v) {',
  "    throw new TypeError('Invalid Version');",
  '  }',
  '}',
  'function parse(v) {',
  '  try {',
  '    return new SemVer(v);',
  '  } catch (er) {',
  '    return null;',
  '  }',
  '}',
]);

const frame = (name: string, file: string | undefined, line: number): FrameInfo => ({ id: 0, name, file, line, column: 5 });
const lib = (name: string) => frame(name, join(dir, 'node_modules', 'expect', 'index.js'), 10);
const runner = (name: string) => frame(`${name} [node:internal/test_runner/test]`, undefined, 1);
const NODE_TEST: RunnerFrames = { runner: /\[node:internal[\\/]test_runner[\\/]/, complete: false };
const braces = { flavour: 'braces' as const, frames: NODE_TEST };

describe('judgeException', () => {
  it('fails the test when the exception leaves the test for the runner, and names the test frame', () => {
    const verdict = judgeException([lib('toBe'), lib('throwingMatcher'), frame('<anonymous>', testFile, 2), runner('run')], braces);
    expect(verdict).toEqual({ failure: true, userFrame: 2 });
  });

  it('passes an exception that a library the test called catches (expect(…).toThrow())', () => {
    const verdict = judgeException([frame('<anonymous>', testFile, 3), frame('toThrow', undefined, 1), frame('<anonymous>', testFile, 3), runner('run')], braces);
    expect(verdict).toEqual({ failure: false, why: 'handed to toThrow, which the test called' });
  });

  it('passes an exception the code under test catches itself, one thrown and caught in library code, and one a library catches inside (its source on disk)', () => {
    expect(judgeException([frame('parse', codeFile, 3), frame('<anonymous>', testFile, 2), runner('run')], braces).failure).toBe(false);
    expect(judgeException([lib('resolve'), runner('run')], braces).failure).toBe(false);
    const semver = [frame('SemVer', libFile, 3), frame('parse', libFile, 8), frame('supports', codeFile, 3), frame('<anonymous>', testFile, 2), runner('run')];
    expect(judgeException(semver, braces)).toEqual({ failure: false, why: 'caught in parse' });
  });

  it('treats the runner\'s own files as the runner\'s', () => {
    const launcher = write(join(dir, 'run_module.py'), ['try:', '    run()', 'except SystemExit:', '    pass']);
    const pyTest = write(join(dir, 'test_calc.py'), ['def test_total():', '    assert total() == 2']);
    const frames = [frame('test_total', pyTest, 2), frame('<module>', launcher, 2)];
    expect(judgeException(frames, { flavour: 'python', runnerFiles: [launcher] })).toEqual({ failure: true, userFrame: 0 });
    expect(judgeException(frames, { flavour: 'python' }).failure).toBe(false);
  });

  it('does not count where the runner was started from (an async caller below the runner) as a caller of the test', () => {
    const scheduled = { ...frame('<module>', testFile, 1), async: true };
    const frames = [lib('strictEqual'), frame('<anonymous>', testFile, 2), runner('runInAsyncScope'), scheduled];
    expect(judgeException(frames, braces)).toEqual({ failure: true, userFrame: 1 });
  });

  it('follows a rejection into the user code that awaits it', () => {
    const awaiting = { ...frame('parse', codeFile, 3), async: true };
    expect(judgeException([lib('fetch'), frame('<anonymous>', testFile, 2), awaiting, runner('run')], braces).failure).toBe(false);
  });
});

describe('judgeException: Python, on the whole stack', () => {
  const py = join(dir, 'py');
  const stdlib = join(py, 'lib', 'python3.11');
  const seq = write(join(py, 'seqtools', 'views.py'), ['class View:', '    def __getitem__(self, i):', '        return self._items[i]']);
  const tests = write(join(py, 'tests', 'test_views.py'), ['def test_list(self):', '    assert list(View()) == [1]', '    helper()']);
  const abc = write(join(stdlib, '_collections_abc.py'), ['def __iter__(self):', '    i = 0', '    try:', '        while True:', '            v = self[i]', '            yield v', '    except IndexError:', '        return']);
  const thread = write(join(stdlib, 'threading.py'), ['def run(self):', '    try:', '        self._target()', '    finally:', '        del self._target', 'def _bootstrap_inner(self):', '    try:', '        self.run()', '    except:', '        self._invoke_excepthook(self)']);
  const caseFile = join(stdlib, 'unittest', 'case.py');
  const frames: RunnerFrames = { runner: /[\\/](_pytest|pluggy|unittest)[\\/]/, catcher: /^<doctest |[\\/]doctest\.py$/, passOn: /[\\/]asyncio[\\/]/, complete: true };
  const context = { flavour: 'python' as const, frames };
  const runnerFrames = [frame('_callTestMethod', caseFile, 579), frame('run', caseFile, 623)];

  it('passes the IndexError that ends a sequence\'s iteration (collections.abc catches it)', () => {
    const stack = [frame('__getitem__', seq, 3), frame('__iter__', abc, 5), frame('test_list', tests, 2), ...runnerFrames];
    expect(judgeException(stack, context)).toEqual({ failure: false, why: 'caught in __iter__' });
  });

  it('passes a doctest example\'s expected error (doctest runs it and catches)', () => {
    const stack = [frame('one', seq, 3), frame('<module>', '<doctest seqtools.views.one[2]>', 1), frame('__run', join(stdlib, 'doctest.py'), 1351), ...runnerFrames];
    expect(judgeException(stack, context).failure).toBe(false);
  });

  it('passes an exception on a worker thread, and fails one that reaches unittest through asyncio', () => {
    const worker = [frame('work', seq, 3), frame('run', thread, 3), frame('_bootstrap_inner', thread, 8)];
    expect(judgeException(worker, context)).toEqual({ failure: false, why: 'caught in _bootstrap_inner' });
    const asyncio = join(stdlib, 'asyncio', 'events.py');
    write(asyncio, ['def _run(self):', '    try:', '        self._context.run(self._callback)', '    except BaseException as exc:', '        self._loop.call_exception_handler(exc)']);
    const stack = [frame('test_async', tests, 2), frame('_run', asyncio, 3), frame('run_forever', join(stdlib, 'asyncio', 'base_events.py'), 600), ...runnerFrames];
    expect(judgeException(stack, context)).toEqual({ failure: true, userFrame: 0 });
  });

  it('fails the test at the assertion that leaves it for the runner', () => {
    expect(judgeException([frame('test_list', tests, 2), ...runnerFrames], context)).toEqual({ failure: true, userFrame: 0 });
  });
});

describe('judgeException: unittest\'s callable assertRaises', () => {
  it('passes what the callable raises: the test\'s line calls assertRaises (the runner\'s own code catches it)', () => {
    const stdlib = join(dir, 'cpy', 'lib', 'python3.11');
    const caseFile = write(join(stdlib, 'unittest', 'case.py'), ['def handle(self, name, args, kwargs):', '    with self:', '        callable_obj(*args, **kwargs)', 'def assertRaises(self, *args):', '    return context.handle("assertRaises", args, kwargs)', 'def _callTestMethod(self, method):', '    if method() is not None:', '        pass']);
    const code = write(join(dir, 'cpy', 'more.py'), ['def distribute(n, it):', '    if n < 1:', "        raise ValueError('n must be at least 1')"]);
    const tests = write(join(dir, 'cpy', 'test_more.py'), ['class T:', '    def test_invalid_n(self):', '        self.assertRaises(ValueError, lambda: distribute(0, [1]))', '        assert distribute(0, [1])']);
    const frames: RunnerFrames = { runner: /[\\/](_pytest|pluggy|unittest)[\\/]/, complete: true };
    const runnerFrame = frame('_callTestMethod', caseFile, 7);
    const expectedBy = [frame('distribute', code, 3), frame('<lambda>', tests, 3), frame('handle', caseFile, 3), frame('assertRaises', caseFile, 5), frame('test_invalid_n', tests, 3), runnerFrame];
    expect(judgeException(expectedBy, { flavour: 'python', frames }).failure).toBe(false);
    const failing = [frame('distribute', code, 3), frame('test_invalid_n', tests, 4), runnerFrame];
    expect(judgeException(failing, { flavour: 'python', frames })).toEqual({ failure: true, userFrame: 0 });
  });
});

describe('judgeException: .NET, where the runner\'s frames are external code', () => {
  it('passes a task\'s exception on the thread pool (no frame of the test project on its way), fails one that goes through the test', () => {
    const project = join(dir, 'Tests');
    const testFile = write(join(project, 'CartTests.cs'), ['public class CartTests {', '  public void Totals() {', '    Assert.Equal(31, cart.Total());', '  }', '}']);
    const code = write(join(dir, 'Calc', 'Cart.cs'), ['public class Cart {', '  public int Total() => lines.Length == 0 ? throw new InvalidOperationException() : 1;', '}']);
    const external = { id: 0, name: '[External Code]', line: 0, column: 0, presentationHint: 'label' as const };
    const context = { flavour: 'braces' as const, frames: { runner: /^NUnit\.Framework\.Internal\./, complete: false }, testFolder: project };
    expect(judgeException([frame('Calc.Cart.<lambda>', code, 2), external], context)).toEqual({ failure: false, why: "no frame of the test project on its way (another thread's work)" });
    expect(judgeException([external, frame('Tests.CartTests.Totals', testFile, 3), external], context)).toEqual({ failure: true, userFrame: 1 });
  });
});
