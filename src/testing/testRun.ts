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
import type { EngineFactory } from '../core/engine.js';
import { closestNames } from './closestNames.js';
import { ID_SEPARATOR } from './jsTestNames.js';
import { TEST_FAILURE } from './failureDetails.js';
import type { JudgeContext } from './failureJudge.js';
import { pickDriver } from './frameworks.js';
import { launcherPath } from './python.js';
import { testEngineFactory } from './testEngine.js';
import { runnerVerdict } from './verdict.js';
import type { FrameworkDriver, FrameworkName, TestListing, TestOutcome, TestPlan, TestRequest } from './types.js';

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
  const ownFiles = runnerFiles(plan);
  const judge: JudgeContext | undefined =
    stopAtFailure && input.exceptions !== 'all' ? { flavour: plan.flavour, runnerFiles: ownFiles, frames: plan.frames, testFolder: plan.testFolder } : undefined;
  const factory = testEngineFactory(await registry.load(plan.language), { plan, judge, runnerFiles: ownFiles });
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

/** debug_test's structured `failure`: the failure stop's test frame, exception and values, in one place. */
export interface FailureView {
  /** The test's own frame, as inspect_stack numbers it: the stop's current frame. */
  frameIndex: number;
  frame: { name: string; file?: string; line: number };
  locals?: ValueSummary[];
  type?: string;
  message?: string;
  expected?: string;
  actual?: string;
}

export function failureView(stop: Stop): FailureView | undefined {
  const ex = stop.exception;
  if (stop.reason !== 'exception' || ex?.kind !== TEST_FAILURE) return undefined;
  return {
    frameIndex: stop.frameIndex,
    frame: { name: stop.frame.name, file: stop.frame.file, line: stop.frame.line },
    locals: stop.locals?.map(({ name, value, type }) => ({ name, value, type })),
    type: ex.type,
    message: ex.message,
    expected: ex.expected,
    actual: ex.actual,
  };
}

// ── the end of a run ─────────────────────────────────────────────────────────────────────────

export interface FinishedRun {
  outcome: TestOutcome;
  exitCode?: number;
}

/** A finished run's verdict (the test engine reads it from the runner's report). */
export function finishedRun(session: Session): FinishedRun {
  return { outcome: session.verdict ?? { status: 'error', failureSummary: session.output.tail() }, exitCode: session.exitCode };
}

/** What a runner that ended before the test process started printed, judged as its end. */
export function endedEarly(plan: TestPlan, output: string, exitCode: number | undefined): FinishedRun {
  return { outcome: runnerVerdict(plan, output, exitCode), exitCode };
}

/**
 * A named test whose run ran nothing: a test the framework lists under that name was skipped (a
 * passed run, as a run of skipped tests is elsewhere); a name that is no test's whole name but part
 * of some (a describe block's) is run again with the runner's own pattern; else TEST_NOT_FOUND with
 * the closest names.
 */
export async function unmatchedTest(prepared: PreparedTest, signal: AbortSignal): Promise<{ skipped: number } | { pattern: string } | { error: DebugError }> {
  const { request, driver } = prepared;
  const test = request.test ?? '';
  const ids = (await listedIds(prepared, signal)) ?? [];
  // The JavaScript runners sum a skipped test up as a run of none; the others count it.
  const skipped = driver.language === 'node' ? ids.filter((id) => id === test || id.endsWith(`${ID_SEPARATOR}${test}`)).length : 0;
  if (skipped) return { skipped };
  const part = driver.partOfName?.(test);
  if (part && ids.some(part.selects)) return { pattern: part.pattern };
  return { error: noSuchTest(driver.name, test, request.path, ids) };
}

/** A run of named tests that were all skipped: passed, with the count. */
export function skippedRun(skipped: number, exitCode: number | undefined): FinishedRun {
  return { outcome: { status: 'passed', counts: `0 passed, ${skipped} skipped (the test is marked to skip)` }, exitCode };
}

/**
 * TEST_NOT_FOUND when no test the framework lists there bears the name asked for: a runner that
 * ended cleanly before any test ran does not always say that nothing matched (VSTest, rarely).
 */
export async function testNotListed(prepared: PreparedTest, signal: AbortSignal): Promise<DebugError | undefined> {
  const { request, driver } = prepared;
  const ids = request.test ? await listedIds(prepared, signal) : undefined;
  if (!ids || ids.some((id) => id.includes(request.test!))) return undefined;
  return noSuchTest(driver.name, request.test!, request.path, ids);
}

function listedIds({ request, driver }: PreparedTest, signal: AbortSignal): Promise<string[] | undefined> {
  return driver.list({ ...request, test: undefined }, signal).then(
    (listing) => listing.tests.map((t) => t.id),
    () => undefined,
  );
}

/** TEST_NOT_FOUND for `test` under `path`, with the closest of the ids the framework lists there. */
export function noSuchTest(framework: string, test: string, path: string, ids: string[]): DebugError {
  const closest = closestNames(test, ids);
  return new DebugError(
    'TEST_NOT_FOUND',
    `${framework} found no test matching "${test}" in ${path}.${closest.length ? ` Closest: ${closest.join(', ')}.` : ids.length ? '' : ' It found no tests there at all.'}`,
    closest.length ? `Pass one of these as test (test_list shows them all).` : 'Check the path and the name with test_list.',
    { closest },
  );
}

// ── listing ──────────────────────────────────────────────────────────────────────────────────

export interface ListTestsInput {
  path: string;
  framework?: FrameworkName;
  cwd?: string;
}

/** The tests the framework finds under the path (test_list; the agent's for a target). */
export async function listTests(input: ListTestsInput, signal: AbortSignal): Promise<TestListing> {
  const { request, cwdGiven } = testRequest(input.path, undefined, input.cwd);
  const driver = await pickDriver(request, input.framework);
  if (!cwdGiven) request.cwd = driver.root(request.path);
  return driver.list(request, signal);
}
