/**
 * `dotnet test` for xUnit, NUnit and MSTest projects. With VSTest the tests run in a separate test
 * host: VSTEST_HOST_DEBUG=1 makes it print its pid and wait for a debugger, the engine attaches
 * by pid, and the host goes on once it sees the debugger (it then calls Debugger.Break(), which
 * the test engine passes). A Microsoft.Testing.Platform project, and an xUnit v3 project without
 * it, is a program itself: the engine builds and launches it with its runner's own options.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { DebugError } from '../core/errors.js';
import { findDotnet } from '../engines/dotnet/runtimeEnv.js';
import { commandLine, findUp, isDirectory } from './commands.js';
import { exactSelection, uidSelection, frameworkOf, listDotnetTests, mayBeId, partSelection, type DotnetRunner, type Selection } from './dotnetTests.js';
import type { RunnerFrames } from './failureJudge.js';
import type { FrameworkDriver, TestOutcome, TestPlan, TestRequest } from './types.js';
import { XUNIT_RUN_ARGS, XUNIT_V3_REFERENCE, xunitOutcome } from './xunitProgram.js';

const PROJECT = /\.(cs|fs|vb)proj$|\.slnx?$/;

/**
 * The frameworks' runners, by their namespaces (assertion classes are not in them); frames of
 * assemblies without symbols are folded as external code, so a stack without them may still be a test's.
 */
const DOTNET_FRAMES: RunnerFrames = {
  runner: /^(Xunit\.Sdk\.|Xunit\.v3\.|NUnit\.Framework\.Internal\.|Microsoft\.VisualStudio\.TestPlatform\.|Microsoft\.VisualStudio\.TestTools\.UnitTesting\.(?!Assert)|MSTest\.|Microsoft\.Testing\.)/,
  complete: false,
};
const INSTALL_DOTNET = 'Install the .NET SDK (https://dot.net), version 8 or later, and make sure `dotnet` is on PATH.';

/** The project or solution a path names: itself, the one in a folder, or the one above a source file. */
function projectOf(path: string): string | undefined {
  if (PROJECT.test(path)) return path;
  let folder = isDirectory(path) ? path : dirname(path);
  while (true) {
    const found = projectsIn(folder);
    if (found.length) return found.find((p) => /proj$/.test(p)) ?? found[0];
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

function projectsIn(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((f) => PROJECT.test(f))
      .map((f) => join(folder, f));
  } catch {
    return [];
  }
}

function dotnetRoot(path: string): string {
  const project = projectOf(path);
  return project ? dirname(project) : isDirectory(path) ? path : dirname(path);
}

function requireProject(request: TestRequest): string {
  const project = projectOf(request.path);
  if (!project) throw new DebugError('INVALID_ARGUMENT', `No .NET project or solution found at or above ${request.path}.`, 'Give the test project (.csproj), its folder, or a solution.');
  return project;
}

function requireDotnet(): string {
  const dotnet = findDotnet();
  if (!dotnet) throw new DebugError('FRAMEWORK_NOT_INSTALLED', 'dotnet is not installed.', INSTALL_DOTNET);
  return dotnet;
}

/** Microsoft.Testing.Platform projects and xUnit v3 ones run as programs; everything else runs under VSTest. */
function runnerOf(project: string): DotnetRunner {
  if (!/proj$/.test(project)) return 'vstest';
  const text = safeRead(project);
  if (/<(UseMicrosoftTestingPlatformRunner|EnableMSTestRunner|EnableNUnitRunner)>\s*true\s*</i.test(text)) return 'platform';
  const global = findUp(project, ['global.json']);
  if (global && /"runner"\s*:\s*"Microsoft\.Testing\.Platform"/.test(safeRead(join(global, 'global.json')))) return 'platform';
  return XUNIT_V3_REFERENCE.test(text) ? 'xunit' : 'vstest';
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

// ── outcomes ─────────────────────────────────────────────────────────────────────────────────

function vstestOutcome(output: string, exitCode: number | undefined): TestOutcome {
  // A run whose tests were all skipped sums up as `Skipped!`: passed, as pytest's and jest's are.
  const summary = /^(Passed|Failed|Skipped)!\s+-\s+(.+?)(?:\s+-\s+\S+\.dll.*)?$/m.exec(output);
  const counts = summary?.[2]?.replace(/\s+/g, ' ').trim();
  if (/No test matches the given testcase filter|No test is available/.test(output)) return { status: 'no tests', counts };
  if (summary && summary[1] !== 'Failed' && exitCode === 0) return { status: 'passed', counts };
  const failures = [...output.matchAll(/^\s*Failed (.+?) \[[^\]\n]*\]\n([\s\S]*?)(?=^\s*(?:Failed|Passed|Skipped) .+? \[[^\]\n]*\]$|^\s*(?:Failed|Passed)!|^Test Run|(?![\s\S]))/gm)].map((m) => `${m[1]}\n${m[2].trimEnd()}`);
  if (summary) return { status: 'failed', counts, failureSummary: failures.join('\n') || undefined };
  return { status: 'error', counts, failureSummary: buildErrors(output) ?? output.trim() };
}

function platformOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const total = /^\s*total:\s*(\d+)/m.exec(output)?.[1];
  const failed = /^\s*failed:\s*(\d+)/m.exec(output)?.[1];
  const passed = /^\s*succeeded:\s*(\d+)/m.exec(output)?.[1];
  const counts = total ? `${failed ?? 0} failed, ${passed ?? 0} passed, ${total} total` : undefined;
  if (exitCode === 8 || /Zero tests ran/.test(output)) return { status: 'no tests', counts };
  if (exitCode === 0) return { status: 'passed', counts };
  const failures = [...output.matchAll(/^failed (.+)\n([\s\S]*?)(?=^(?:failed|passed|skipped) |^Test run summary|(?![\s\S]))/gm)].map((m) => `${m[1]}\n${m[2].trimEnd()}`);
  return { status: exitCode === 2 ? 'failed' : 'error', counts, failureSummary: failures.join('\n') || output.trim() };
}

function buildErrors(output: string): string | undefined {
  const errors = output.split('\n').filter((l) => /: error [A-Z]+\d+:/.test(l));
  return errors.length ? [...new Set(errors.map((l) => l.trim()))].slice(0, 10).join('\n') : undefined;
}

// ── the driver ───────────────────────────────────────────────────────────────────────────────

const PROCESS_ID = /^Process Id: (\d+), Name: /m;

/**
 * How the run selects the test asked for: exactly the listed test when the text is one of the
 * project's ids (listed first when it looks like one), else a filter (a name's part, or an expression).
 */
async function selectionFor(request: TestRequest, dotnet: string, project: string, runner: DotnetRunner): Promise<Selection | undefined> {
  const test = request.test;
  if (!test) return undefined;
  if (mayBeId(test)) {
    const listed = await listDotnetTests(dotnet, project, runner, request.cwd, new AbortController().signal).catch(() => []);
    const exact = listed.find((t) => t.id === test);
    const selection = exact && exactSelection(exact, frameworkOf(project), runner);
    if (selection) return selection;
    // The platform's filter reads the method's name, not a display name the test gives itself: the listed tests whose id holds the text run by their uids.
    const holding = runner === 'platform' ? listed.filter((t) => t.uid && t.id.includes(test)) : [];
    if (holding.length) return uidSelection(holding.map((t) => t.uid!));
  }
  return partSelection(test, frameworkOf(project), runner);
}

export const dotnetDriver: FrameworkDriver = {
  name: 'dotnet',
  language: 'dotnet',
  root: dotnetRoot,
  async claims(request) {
    if (PROJECT.test(request.path) || ['.cs', '.fs', '.vb'].includes(extname(request.path))) return 3;
    return isDirectory(request.path) && projectsIn(request.path).length ? 3 : 0;
  },
  async plan(request): Promise<TestPlan> {
    const dotnet = requireDotnet();
    const project = requireProject(request);
    const rel = relative(request.cwd, project) || basename(project);
    const runner = runnerOf(project);
    const selection = await selectionFor(request, dotnet, project, runner);
    if (runner !== 'vstest') {
      const own = runner === 'xunit' ? XUNIT_RUN_ARGS : [];
      return {
        framework: 'dotnet',
        language: 'dotnet',
        commandLine: commandLine('dotnet', ['run', '--project', rel, '--', ...(selection?.shown ?? []), ...own]),
        run: { kind: 'launch', program: project, args: [...(selection?.args ?? []), ...own], cwd: request.cwd, env: {}, options: {} },
        failureFilters: ['all'],
        flavour: 'braces',
        frames: DOTNET_FRAMES,
        testFolder: dirname(project),
        outcome: runner === 'xunit' ? xunitOutcome : platformOutcome,
      };
    }
    const args = ['test', rel, '--nologo', ...(selection?.args ?? [])];
    return {
      framework: 'dotnet',
      language: 'dotnet',
      commandLine: commandLine('dotnet', ['test', rel, '--nologo', ...(selection?.shown ?? [])]),
      run: {
        kind: 'hosted',
        command: dotnet,
        args,
        cwd: request.cwd,
        env: { VSTEST_HOST_DEBUG: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
        target: (output) => {
          const m = PROCESS_ID.exec(output);
          return m ? { pid: Number(m[1]) } : undefined;
        },
        options: {},
      },
      failureFilters: ['all'],
      flavour: 'braces',
      frames: DOTNET_FRAMES,
      testFolder: dirname(project),
      outcome: vstestOutcome,
    };
  },
  async list(request, signal) {
    const dotnet = requireDotnet();
    const project = requireProject(request);
    const tests = await listDotnetTests(dotnet, project, runnerOf(project), request.cwd, signal);
    return { framework: 'dotnet', tests: tests.map(({ id, file, line }) => ({ id, file, line })) };
  },
};
