/**
 * Is this exception the one that fails the test? Runners catch every failure, so to the runtime a
 * failing assertion is a caught exception like any other. Read from the stack at the throw:
 * it fails the test when it leaves the test's code for the runner's — no frame of the user's code
 * catches it (try / with pytest.raises …), and no library the test called (assert.throws,
 * expect(…).toThrow(), Assert.Throws) stands between the throw and the test.
 */
import { existsSync } from 'node:fs';
import { readSourceLines as sourceLines } from '../core/sourceReader.js';
import type { FrameInfo } from '../core/types.js';
import { caughtAt, type SourceFlavour } from './catchScan.js';

export type Verdict = { failure: true; testFrame: number } | { failure: false; why: string };

/** Installed packages, the runtime's own code, and code a build generates (.NET's obj/, e.g. a test platform's entry point). */
const LIBRARY_PATH = /[\\/](node_modules|site-packages|dist-packages|obj)[\\/]|^node:|[\\/]lib[\\/]python3[^\\/]*[\\/]/;

export interface JudgeContext {
  flavour: SourceFlavour;
  /** Files that belong to the runner (e.g. debugbridge's own launcher), not to the user's tests. */
  runnerFiles?: string[];
}

/** The user's own code: a file on this machine, outside installed packages. */
export function isUserFrame(frame: FrameInfo, runnerFiles: string[] = []): boolean {
  const file = frame.file;
  if (!file || LIBRARY_PATH.test(file) || runnerFiles.includes(file)) return false;
  return fileExists(file);
}

export function firstUserFrame(frames: FrameInfo[], runnerFiles: string[] = []): number {
  return frames.findIndex((f) => isUserFrame(f, runnerFiles));
}

export function judgeException(stack: FrameInfo[], context: JudgeContext): Verdict {
  const frames = framesTheThrowReaches(stack);
  const user = frames.map((f) => isUserFrame(f, context.runnerFiles));
  const first = user.indexOf(true);
  if (first < 0) return { failure: false, why: 'thrown and caught in library code' };
  for (let i = first; i < frames.length; i++) {
    const frame = frames[i];
    if (user[i]) {
      const lines = sourceLines(frame.file!);
      if (lines && caughtAt(lines, frame.line, frame.column, context.flavour)) return { failure: false, why: `caught in ${frame.name}` };
      if (i > first && lines && context.flavour === 'python' && PYTHON_CATCHER_CALL.test(lines[frame.line - 1] ?? '')) {
        return { failure: false, why: `expected by ${frame.name}` };
      }
      continue;
    }
    // A library frame: one the test called if user code lies below it (it catches or passes the
    // exception on, which stops again); the runner if nothing of the user's does.
    if (user.slice(i + 1).some(Boolean)) return { failure: false, why: `handed to ${frame.name}, which the test called` };
    break;
  }
  return { failure: true, testFrame: first };
}

/**
 * The frames an exception can travel through: the synchronous stack, and the awaiting callers
 * after it only when user code ends it (a rejection goes on to whoever awaits). When a library
 * frame ends it (a runner calling the test), what awaits below is where the runner was started
 * from — the file that scheduled the tests — not a caller the exception passes through.
 */
function framesTheThrowReaches(stack: FrameInfo[]): FrameInfo[] {
  const firstAsync = stack.findIndex((f) => f.async);
  if (firstAsync <= 0) return stack;
  const lastSync = stack[firstAsync - 1];
  return isUserFrame(lastSync) ? stack : stack.slice(0, firstAsync);
}

/** unittest's callable form, `self.assertRaises(Error, fn, arg)`: the library frame between is hidden by Just My Code. */
const PYTHON_CATCHER_CALL = /\b(assertRaises|assertRaisesRegex|raises)\s*\(/;

const exists = new Map<string, boolean>();
function fileExists(file: string): boolean {
  let known = exists.get(file);
  if (known === undefined) {
    known = existsSync(file);
    exists.set(file, known);
  }
  return known;
}
