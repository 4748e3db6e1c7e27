/**
 * The vocabulary of running one test under the debugger: which framework, how its runner is
 * started (the debuggee itself, or a runner that hosts the debuggee as another process), and what
 * a finished run says.
 */
import type { RunVerdict } from '../core/types.js';
import type { SourceFlavour } from './catchScan.js';
import type { RunnerFrames } from './failureJudge.js';

export const FRAMEWORKS = ['pytest', 'unittest', 'node:test', 'vitest', 'jest', 'mocha', 'dotnet'] as const;
export type FrameworkName = (typeof FRAMEWORKS)[number];

/** What the agent asked for, with paths made absolute. */
export interface TestRequest {
  /** A test file, a folder, or a project (.csproj / .sln / folder). */
  path: string;
  /** A test id as test_list gives it, a name, or a name pattern. */
  test?: string;
  cwd: string;
}

/** The runner as the debuggee itself: the engine launches it. */
export interface DirectLaunch {
  kind: 'launch';
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  options: Record<string, unknown>;
}

/** Where a hosted runner's debuggee waits for the debugger. */
export type AttachTarget = { pid: number } | { host: string; port: number };

/**
 * The runner runs outside the debugger and starts the process that runs the tests, which waits
 * for a debugger (`dotnet test`'s test host, a vitest worker): the engine attaches to it.
 */
export interface HostedLaunch {
  kind: 'hosted';
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Reads the runner's output so far; answers the target once the output names it. */
  target(output: string): AttachTarget | undefined;
  options: Record<string, unknown>;
}

export interface TestPlan {
  framework: FrameworkName;
  language: 'python' | 'node' | 'dotnet';
  /** The command line as a person would type it, for the answer. */
  commandLine: string;
  run: DirectLaunch | HostedLaunch;
  /** Exception filters that make the engine stop where a test fails. */
  failureFilters: string[];
  flavour: SourceFlavour;
  /** The framework's own frames: where a failing test's exception goes. */
  frames: RunnerFrames;
  /**
   * Exceptions, by type, a test throws to end itself without failing: the runner's skip from inside
   * a test or hook (mocha's this.skip(), pytest.skip(), unittest's skipTest) and an expected failure
   * declared as it runs (pytest.xfail()).
   */
  notFailures?: RegExp;
  /** The test project's folder, where the runner's frames may be hidden (failureJudge's testFolder). */
  testFolder?: string;
  /** Reads what the runner printed and its exit code once it is over. */
  outcome(output: string, exitCode: number | undefined): TestOutcome;
}

/** What a finished run says: passed, failed (the runner's counts and failure report), no tests, error. */
export type TestOutcome = RunVerdict;

export interface ListedTest {
  /** What debug_test takes as `test` (with the same path). */
  id: string;
  file?: string;
  line?: number;
}

export interface TestListing {
  framework: FrameworkName;
  tests: ListedTest[];
}

export interface FrameworkDriver {
  readonly name: FrameworkName;
  readonly language: 'python' | 'node' | 'dotnet';
  /** How sure this driver is that the path is its framework's (0 = not at all). */
  claims(request: TestRequest): Promise<number>;
  /** The folder the runner runs from when the agent gives no cwd (the project's root). */
  root(path: string): string;
  /** Throws FRAMEWORK_NOT_INSTALLED with the install command when the runner is missing. */
  plan(request: TestRequest): Promise<TestPlan>;
  list(request: TestRequest, signal: AbortSignal): Promise<TestListing>;
  /**
   * The runner's own name pattern for a name that is no test's whole name (a describe block's, a
   * part of a test's): a pattern the plan passes as is, and whether it selects a listed id.
   */
  partOfName?(test: string): { pattern: string; selects(id: string): boolean };
}
