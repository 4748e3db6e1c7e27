/**
 * One test under the debugger: which framework runs it, the session that runs it (an ordinary
 * session on a wrapped engine), what the failure stop shows, and what a finished run says.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { EngineRegistry } from '../core/engineRegistry.js';
import { DebugError } from '../core/errors.js';
import type { Session } from '../core/session.js';
import type { SessionConfig } from '../core/sessionConfig.js';
import type { Stop, ValueSummary } from '../core/sessionTypes.js';
import { readSourceWindow, type SourceLine } from '../core/sourceReader.js';
import type { EngineFactory } from '../core/engine.js';
import type { FrameInfo } from '../core/types.js';
import { capText, SUMMARY_VALUE_CHARS } from '../core/valueText.js';
import { assertionValues } from './assertionValues.js';
import { closestNames } from './closestNames.js';
import { firstUserFrame } from './failureJudge.js';
import { pickDriver } from './frameworks.js';
import { launcherPath } from './python.js';
import { testEngineFactory } from './testEngine.js';
import type { FrameworkDriver, FrameworkName, TestOutcome, TestPlan, TestRequest } from './types.js';

export interface DebugTestInput {
  path: string;
  test?: string;
  framework?: FrameworkName;
  cwd?: string;
  /** Stop where the test fails (debug_test's default when no breakpoints are given). */
  stopAtFailure: boolean;
  exceptions?: 'none' | 'uncaught' | 'all';
}

export interface PreparedTest {
  driver: FrameworkDriver;
  request: TestRequest;
  plan: TestPlan;
  config: SessionConfig;
  factory: EngineFactory;
  stopAtFailure: boolean;
}

const LOCALS_SHOWN = 12;
const SUMMARY_CHARS = 3000;

/** The request with absolute paths; the path must exist. */
export function testRequest(path: string, test: string | undefined, cwd: string | undefined): { request: TestRequest; cwdGiven: boolean } {
  const base = cwd ? resolve(cwd) : process.cwd();
  const full = isAbsolute(path) ? path : resolve(base, path);
  if (!existsSync(full)) {
    throw new DebugError('PROGRAM_NOT_FOUND', `${full} does not exist.`, 'Give a test file, a test folder or a project (relative paths resolve against cwd).');
  }
  return { request: { path: full, test: test || undefined, cwd: base }, cwdGiven: !!cwd };
}

/** Picks the framework, plans the run and builds the session's configuration and engine. */
export async function prepareTest(registry: EngineRegistry, input: DebugTestInput): Promise<PreparedTest> {
  const { request, cwdGiven } = testRequest(input.path, input.test, input.cwd);
  const driver = await pickDriver(request, input.framework);
  if (!cwdGiven) request.cwd = driver.root(request.path);
  const plan = await driver.plan(request);
  const { stopAtFailure } = input;
  const asked = input.exceptions === 'all' ? ['uncaught', 'all'] : input.exceptions === 'uncaught' ? ['uncaught'] : [];
  const filters = [...new Set([...(stopAtFailure ? plan.failureFilters : []), ...asked])];
  const judge = stopAtFailure && input.exceptions !== 'all' ? { flavour: plan.flavour, runnerFiles: runnerFiles(plan) } : undefined;
  const factory = testEngineFactory(await registry.load(plan.language), { plan, judge });
  const config: SessionConfig = {
    language: plan.language,
    program: request.path,
    args: request.test ? [request.test] : [],
    cwd: request.cwd,
    env: {},
    stopOnEntry: false,
    exceptions: { filters },
    options: { test: { framework: plan.framework, commandLine: plan.commandLine } },
  };
  return { driver, request, plan, config, factory, stopAtFailure };
}

export function runnerFiles(plan: TestPlan): string[] {
  return plan.language === 'python' ? [launcherPath()] : [];
}

// ── the failure stop ─────────────────────────────────────────────────────────────────────────

export interface FailureView {
  /** The test's own frame (the first of the user's code), as inspect_stack numbers it. */
  frameIndex: number;
  frame: { name: string; file?: string; line: number };
  source?: SourceLine[];
  locals?: ValueSummary[];
  type?: string;
  message?: string;
  expected?: string;
  actual?: string;
}

/** What a stop on the failing exception shows: the test's frame with its locals, the message and values. */
export async function describeFailure(session: Session, stop: Stop, plan: TestPlan): Promise<FailureView | undefined> {
  if (stop.reason !== 'exception') return undefined;
  const { frames } = await session.stackPage(undefined, 0, 40).catch(() => ({ frames: [] as FrameInfo[] }));
  const found = firstUserFrame(frames, runnerFiles(plan));
  const frameIndex = found < 0 ? 0 : found;
  const frame = frames[frameIndex] ?? { name: stop.frame.name, file: stop.frame.file, line: stop.frame.line, column: stop.frame.column, id: 0 };
  const sameAsStop = frame.file === stop.frame.file && frame.line === stop.frame.line;
  const source = sameAsStop ? stop.source : frame.file ? readSourceWindow(frame.file, frame.line, 2, 2) : undefined;
  const locals = sameAsStop ? stop.locals : await frameLocals(session, frameIndex);
  const message = fullMessage(stop);
  return {
    frameIndex,
    frame: { name: frame.name.replace(/ \(Current frame\)$/, ''), file: frame.file, line: frame.line },
    source,
    locals: locals?.filter((l) => !l.name.startsWith('@py_')),
    type: stop.exception?.type?.replace(/\s+\(note: .*$/s, ''),
    message,
    ...assertionValues(message),
  };
}

/** Some engines keep the first line of a message; the stack text starts with all of it. */
function fullMessage(stop: Stop): string | undefined {
  const { message, stackTrace } = stop.exception ?? {};
  if (!message) return stop.description;
  if (message.includes('\n') || !stackTrace) return message;
  const head = stackTrace.split(/\n\s+at /)[0];
  const at = head.indexOf(message);
  if (at < 0) return message;
  // "AssertionError [ERR_ASSERTION]: Expected …" → from the message on.
  return head.slice(at).trimEnd() || message;
}

async function frameLocals(session: Session, frameIndex: number): Promise<ValueSummary[] | undefined> {
  try {
    const frameId = await session.frameId(frameIndex);
    const answer = await session.inspector().variables({ frameId, depth: 1, start: 0, count: LOCALS_SHOWN });
    return answer.variables.map((v) => ({ name: v.name, value: capText(v.value, SUMMARY_VALUE_CHARS), type: v.type }));
  } catch {
    return undefined;
  }
}

// ── the end of a run ─────────────────────────────────────────────────────────────────────────

/** Everything the run printed (the session keeps the last few thousand chunks). */
export function runOutput(session: Session): string {
  return session.output
    .since(0)
    .entries.filter((e) => e.value.category !== 'console')
    .map((e) => e.value.text)
    .join('');
}

export interface FinishedRun {
  outcome: TestOutcome;
  exitCode?: number;
}

export function finishedRun(plan: TestPlan, output: string, exitCode: number | undefined): FinishedRun {
  const outcome = plan.outcome(output, exitCode);
  if (outcome.failureSummary && outcome.failureSummary.length > SUMMARY_CHARS) {
    outcome.failureSummary = `${outcome.failureSummary.slice(0, SUMMARY_CHARS)}\n… (capped; session_output has all of it)`;
  }
  return { outcome, exitCode };
}

/** A named test the runner did not find: the closest names it does know. */
export async function testNotFound(prepared: PreparedTest, signal: AbortSignal): Promise<DebugError> {
  const { request, driver } = prepared;
  const listing = await driver.list({ ...request, test: undefined }, signal).catch(() => undefined);
  const ids = listing?.tests.map((t) => t.id) ?? [];
  const closest = closestNames(request.test ?? '', ids);
  return new DebugError(
    'TEST_NOT_FOUND',
    `${driver.name} found no test matching "${request.test}" in ${request.path}.${closest.length ? ` Closest: ${closest.join(', ')}.` : ids.length ? '' : ' It found no tests there at all.'}`,
    closest.length ? `Pass one of these as test (test_list shows them all).` : 'Check the path and the name with test_list.',
    { closest },
  );
}
