/** Which exception fails a test, read from the stack at the throw (pure logic on real files). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FrameInfo } from '../../src/core/types.js';
import { judgeException } from '../../src/testing/failureJudge.js';

const dir = mkdtempSync(join(tmpdir(), 'dbb-judge-'));
const testFile = join(dir, 'calc.test.js');
writeFileSync(testFile, ["test('t', () => {", '  expect(total()).toBe(2);', '  expect(() => JSON.parse("{")).toThrow();', '});'].join('\n'));
const codeFile = join(dir, 'calc.js');
writeFileSync(codeFile, ['function parse(s) {', '  try {', '    return JSON.parse(s);', '  } catch {', '    return null;', '  }', '}'].join('\n'));

const frame = (name: string, file: string | undefined, line: number): FrameInfo => ({ id: 0, name, file, line, column: 5 });
const lib = (name: string) => frame(name, join(dir, 'node_modules', 'expect', 'index.js'), 10);
const runner = (name: string) => frame(name, 'node:internal/test_runner/test', 1);

describe('judgeException', () => {
  it('fails the test when the exception leaves the test for the runner, and names the test frame', () => {
    const verdict = judgeException([lib('toBe'), lib('throwingMatcher'), frame('<anonymous>', testFile, 2), runner('run')], { flavour: 'braces' });
    expect(verdict).toEqual({ failure: true, testFrame: 2 });
  });

  it('passes an exception that a library the test called catches (expect(…).toThrow())', () => {
    const verdict = judgeException([frame('<anonymous>', testFile, 3), lib('toThrow'), frame('<anonymous>', testFile, 3), runner('run')], { flavour: 'braces' });
    expect(verdict.failure).toBe(false);
  });

  it('passes an exception the code under test catches itself, and one thrown and caught in library code', () => {
    expect(judgeException([frame('parse', codeFile, 3), frame('<anonymous>', testFile, 2), runner('run')], { flavour: 'braces' }).failure).toBe(false);
    expect(judgeException([lib('resolve'), runner('run')], { flavour: 'braces' }).failure).toBe(false);
  });

  it('treats the runner\'s own files as the runner\'s', () => {
    const launcher = join(dir, 'run_module.py');
    writeFileSync(launcher, 'try:\n    run()\nexcept SystemExit:\n    pass\n');
    const pyTest = join(dir, 'test_calc.py');
    writeFileSync(pyTest, 'def test_total():\n    assert total() == 2\n');
    const frames = [frame('test_total', pyTest, 2), frame('<module>', launcher, 2)];
    expect(judgeException(frames, { flavour: 'python', runnerFiles: [launcher] })).toEqual({ failure: true, testFrame: 0 });
    expect(judgeException(frames, { flavour: 'python' }).failure).toBe(false);
  });

  it('does not count where the runner was started from (an async caller below the runner) as a caller of the test', () => {
    const scheduled = { ...frame('<module>', testFile, 1), async: true };
    const frames = [lib('strictEqual'), frame('<anonymous>', testFile, 2), runner('runInAsyncScope'), scheduled];
    expect(judgeException(frames, { flavour: 'braces' })).toEqual({ failure: true, testFrame: 1 });
  });

  it('follows a rejection into the user code that awaits it', () => {
    const awaiting = { ...frame('parse', codeFile, 3), async: true };
    expect(judgeException([lib('fetch'), frame('<anonymous>', testFile, 2), awaiting, runner('run')], { flavour: 'braces' }).failure).toBe(false);
  });
});
