/**
 * Is this exception the one that fails the test? Runners catch every failure, so to the runtime a
 * failing assertion is a caught exception like any other. A failure is an exception that reaches
 * the framework's report of the test. Its way is read from the thread's whole stack at the stop,
 * frame by frame from the throw: a frame whose source is on disk (the user's, or a library's)
 * catches it when the place it is at lies in a `try` with a handler (or Python's `with
 * pytest.raises(…)`); the runner's frames report it (a failure); code that runs code it was given
 * catches it (a doctest example); an event loop hands it on. Where a frame has no source, what lies
 * below decides: user code (a library the test called, such as assert.throws or
 * expect(…).toThrow(), which catches it or hands it back), the runner, or nothing of a test (a
 * worker thread).
 */
import { existsSync } from 'node:fs';
import { readSourceLines as sourceLines } from '../core/sourceReader.js';
import type { FrameInfo } from '../core/types.js';
import { caughtAt, type SourceFlavour } from './catchScan.js';
import { markedToFail } from './expectedFailure.js';

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
  /** Code that hands an exception on to whoever waits for the result (an event loop's tasks). */
  passOn?: RegExp;
  /**
   * The whole stack is read, so a thread whose stack holds no runner frame runs no test (a thread
   * pool's worker). Otherwise the runner's frames may be hidden (folded as external code): then an
   * exception with no user code below its way counts as going to the runner.
   */
  complete: boolean;
}

export interface JudgeContext {
  flavour: SourceFlavour;
  /**
   * The test project's folder, when the runner's frames may be hidden: a failing test's exception
   * passes through a frame of it (the test method, its setup), so one that does not is another
   * thread's (a task's on the thread pool).
   */
  testFolder?: string;
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
  const verdict = judgeWay(stack, context);
  if (!verdict.failure || context.flavour !== 'python') return verdict;
  // The test's own frame is the last of the user's before the runner's.
  const toRunner = stack.findIndex((f) => matches(context.frames?.runner, f));
  const test = (toRunner < 0 ? stack : stack.slice(0, toRunner)).reverse().find((f) => isUserFrame(f, context.runnerFiles));
  const lines = test?.file ? sourceLines(test.file) : undefined;
  return lines && markedToFail(lines, test!.line) ? { failure: false, why: `${test!.name} is marked to fail (xfail, an expected failure)` } : verdict;
}

function judgeWay(stack: FrameInfo[], context: JudgeContext): Verdict {
  const runner = (f: FrameInfo) => matches(context.frames?.runner, f) || !!context.runnerFiles?.includes(f.file ?? '');
  const frames = untilTheRunnerAwaits(framesTheThrowReaches(stack), runner);
  const user = frames.map((f) => isUserFrame(f, context.runnerFiles));
  const first = user.indexOf(true);
  if (first < 0) return { failure: false, why: 'thrown and caught in library code' };
  const fails: Verdict = passesTestCode(frames.slice(first), context) ? { failure: true, userFrame: first } : { failure: false, why: 'no frame of the test project on its way (another thread\'s work)' };
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i];
    const userBelow = user.slice(i + 1).some(Boolean);
    if (i > first && !user[i]) {
      // Code not the user's that the exception reaches from the user's.
      if (matches(context.frames?.catcher, frame)) return { failure: false, why: `${frame.name} runs the code and catches what it throws` };
      if (matches(context.frames?.passOn, frame)) continue;
      if (runner(frame) && !userBelow) return fails;
    }
    const lines = frame.file ? sourceLines(frame.file) : undefined;
    if (lines) {
      if (caughtAt(lines, frame.line, frame.column, context.flavour)) return { failure: false, why: `caught in ${frame.name}` };
      if (i > first && user[i] && CATCHER_CALLS[context.flavour].test(lines[frame.line - 1] ?? '')) return { failure: false, why: `expected by ${frame.name}` };
      continue;
    }
    if (i <= first || user[i]) continue;
    // Code without source: where it sends the exception is not known, only what lies below it.
    if (userBelow) return { failure: false, why: `handed to ${frame.name}, which the test called` };
    return runnerBelow(frames.slice(i + 1), runner, context) ? fails : { failure: false, why: `no test runs on this thread (it goes to ${frame.name})` };
  }
  return runnerBelow([], runner, context) ? fails : { failure: false, why: 'no test runs on this thread' };
}

function passesTestCode(frames: FrameInfo[], context: JudgeContext): boolean {
  const folder = context.testFolder;
  return !folder || frames.some((f) => !!f.file && (f.file.startsWith(`${folder}/`) || f.file.startsWith(`${folder}\\`)));
}

/**
 * Calls on the line a test is at that take the failure the code it called makes: unittest's and
 * pytest's callable forms, `self.assertRaises(Error, fn, arg)` (they catch what fn raises, through a
 * `with` of their own); a promise handed to an expectation of its rejection (`expect(p).rejects`,
 * `assert.rejects(p)`, chai's `to.be.rejected`), whose rejection reaches no frame of the matcher's.
 */
const CATCHER_CALLS: Record<SourceFlavour, RegExp> = {
  python: /\b(assertRaises|assertRaisesRegex|assertWarns|assertWarnsRegex|raises|warns)\s*\(/,
  braces: /\.rejects\b|\brejects\s*\(|\.be\.rejected|\bisRejected\s*\(/,
};

/** Whether the frames lead to the runner: one of them is its, or its frames may be hidden. */
function runnerBelow(frames: FrameInfo[], runner: (f: FrameInfo) => boolean, context: JudgeContext): boolean {
  return !context.frames?.complete || frames.some(runner);
}

function matches(pattern: RegExp | undefined, frame: FrameInfo): boolean {
  return !!pattern && ((!!frame.file && pattern.test(frame.file)) || pattern.test(frame.name));
}

/**
 * The frames an exception can travel through: the synchronous stack, and the awaiting callers
 * after it only when user code ends it (a rejection goes on to whoever awaits). When a library
 * frame ends it (a runner calling the test), what awaits below is where the runner was started
 * from — the file that scheduled the tests — not a caller the exception passes through. Node's
 * microtask queue, which resumes an awaiting function, is no caller of it.
 */
function framesTheThrowReaches(stack: FrameInfo[]): FrameInfo[] {
  const frames = stack.filter((f) => !MICROTASK_QUEUE.test(f.name));
  const firstAsync = frames.findIndex((f) => f.async);
  if (firstAsync <= 0) return frames;
  return isUserFrame(frames[firstAsync - 1]) ? frames : frames.slice(0, firstAsync);
}

/**
 * The frames up to the runner's that awaits the test: what lies below it is how the runner came to
 * run the test (node:test's async stack goes on to the `it(…)` call that made it), no caller.
 */
function untilTheRunnerAwaits(frames: FrameInfo[], runner: (f: FrameInfo) => boolean): FrameInfo[] {
  const awaits = frames.findIndex((f) => f.async && runner(f));
  return awaits < 0 ? frames : frames.slice(0, awaits + 1);
}

const MICROTASK_QUEUE = /^(processTicksAndRejections|runMicrotasks) \[node:internal[\\/]process[\\/]task_queues\]$/;

const exists = new Map<string, boolean>();
function fileExists(file: string): boolean {
  let known = exists.get(file);
  if (known === undefined) {
    known = existsSync(file);
    exists.set(file, known);
  }
  return known;
}
