/**
 * Is this exception the one that fails the test? Runners catch every failure, so to the runtime a
 * failing assertion is a caught exception like any other. A failure is an exception that reaches
 * the framework's report of the test; read from the thread's whole stack at the stop, it is one
 * that leaves the user's code (no frame of it catches: try / with pytest.raises …, read from the
 * source) for the runner's code, or for library code on the way to the runner. It is no failure
 * when it is caught where it was thrown (a library's own try, where its source is on disk), when it
 * goes to a library the test called (assert.throws, expect(…).toThrow(), Assert.Throws, an
 * iteration protocol: user code lies below that library), when code that runs what it was given
 * catches it (a doctest example), or when no runner is on the thread (a worker thread's task).
 */
import { existsSync } from 'node:fs';
import { readSourceLines as sourceLines } from '../core/sourceReader.js';
import type { FrameInfo } from '../core/types.js';
import { caughtAt, type SourceFlavour } from './catchScan.js';

export type Verdict = { failure: true; userFrame: number } | { failure: false; why: string };

/**
 * Installed packages, the runtime's own code, code a build generates (.NET's obj/, e.g. a test
 * platform's entry point), and a file of the debugger's own that debugpy hides (the ready launcher).
 */
const LIBRARY_PATH = /[\\/](node_modules|site-packages|dist-packages|obj)[\\/]|^node:|[\\/]lib[\\/]python3[^\\/]*[\\/]|debugpy_launcher\.py$/;

/** Which frames are the framework's: its runner, and code that runs code it was given and catches what that throws. */
export interface RunnerFrames {
  /** Matched against a frame's file and its name. */
  runner: RegExp;
  catcher?: RegExp;
  /**
   * The whole stack is read, so a thread whose stack holds no runner frame runs no test (a thread
   * pool's worker). Otherwise the runner's frames may be hidden (folded as external code): then an
   * exception with no user code below its way counts as going to the runner.
   */
  complete: boolean;
}

export interface JudgeContext {
  flavour: SourceFlavour;
  /** Files that belong to the runner (e.g. debugbridge's own launcher), not to the user's tests. */
  runnerFiles?: string[];
  frames?: RunnerFrames;
}

/** The user's own code: a file on this machine, outside installed packages. */
export function isUserFrame(frame: Pick<FrameInfo, 'file'>, runnerFiles: string[] = []): boolean {
  const file = frame.file;
  if (!file || LIBRARY_PATH.test(file) || runnerFiles.includes(file)) return false;
  return fileExists(file);
}

export function firstUserFrame(frames: Pick<FrameInfo, 'file'>[], runnerFiles: string[] = []): number {
  return frames.findIndex((f) => isUserFrame(f, runnerFiles));
}

export function judgeException(stack: FrameInfo[], context: JudgeContext): Verdict {
  const frames = framesTheThrowReaches(stack);
  const user = frames.map((f) => isUserFrame(f, context.runnerFiles));
  const first = user.indexOf(true);
  if (first < 0) return { failure: false, why: 'thrown and caught in library code' };
  const runner = (f: FrameInfo) => matches(context.frames?.runner, f) || !!context.runnerFiles?.includes(f.file ?? '');
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i];
    const lines = frame.file && (user[i] || i < first) ? sourceLines(frame.file) : undefined;
    if (lines && caughtAt(lines, frame.line, frame.column, context.flavour)) return { failure: false, why: `caught in ${frame.name}` };
    if (i <= first || user[i]) continue;
    // The first frame of code not the user's below the user's: where the exception goes.
    if (matches(context.frames?.catcher, frame)) return { failure: false, why: `${frame.name} runs the code and catches what it throws` };
    if (user.slice(i + 1).some(Boolean)) return { failure: false, why: `handed to ${frame.name}, which the test called` };
    if (runner(frame) || frames.slice(i + 1).some(runner) || !context.frames?.complete) return { failure: true, userFrame: first };
    return { failure: false, why: `no test runs on this thread (it goes to ${frame.name})` };
  }
  return { failure: true, userFrame: first };
}

function matches(pattern: RegExp | undefined, frame: FrameInfo): boolean {
  return !!pattern && ((!!frame.file && pattern.test(frame.file)) || pattern.test(frame.name));
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

const exists = new Map<string, boolean>();
function fileExists(file: string): boolean {
  let known = exists.get(file);
  if (known === undefined) {
    known = existsSync(file);
    exists.set(file, known);
  }
  return known;
}
