/**
 * `dotnet test` for xUnit, NUnit and MSTest projects. With VSTest the tests run in a separate test
 * host: VSTEST_HOST_DEBUG=1 makes it print its pid and wait for a debugger, the engine attaches
 * by pid, and the host goes on once it sees the debugger (it then calls Debugger.Break(), which
 * the test engine passes). A Microsoft.Testing.Platform project is a program itself: the engine
 * builds and launches it with the platform's own options.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { DebugError } from '../core/errors.js';
import { findDotnet } from '../engines/dotnet/runtimeEnv.js';
import { commandLine, findUp, isDirectory, listFailed, runCommand } from './commands.js';
import type { RunnerFrames } from './failureJudge.js';
import type { FrameworkDriver, TestOutcome, TestPlan, TestRequest } from './types.js';

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

/** Microsoft.Testing.Platform projects run as programs; everything else runs under VSTest. */
function usesTestingPlatform(project: string): boolean {
  if (!/proj$/.test(project)) return false;
  const text = safeRead(project);
  if (/<(UseMicrosoftTestingPlatformRunner|EnableMSTestRunner|EnableNUnitRunner)>\s*true\s*</i.test(text)) return true;
  const global = findUp(project, ['global.json']);
  return !!global && /"runner"\s*:\s*"Microsoft\.Testing\.Platform"/.test(safeRead(join(global, 'global.json')));
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A name becomes a VSTest filter on the fully qualified name; a filter expression is kept. */
export function testFilter(test: string): string {
  return /[=~!&|()]/.test(test) ? test : `FullyQualifiedName~${test}`;
}

// ── outcomes ─────────────────────────────────────────────────────────────────────────────────

function vstestOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const summary = /^(Passed|Failed)!\s+-\s+(.+?)(?:\s+-\s+\S+\.dll.*)?$/m.exec(output);
  const counts = summary?.[2]?.replace(/\s+/g, ' ').trim();
  if (/No test matches the given testcase filter|No test is available/.test(output)) return { status: 'no tests', counts };
  if (summary?.[1] === 'Passed' && exitCode === 0) return { status: 'passed', counts };
  const failures = [...output.matchAll(/^\s*Failed (\S+) \[[^\]]*\]\n([\s\S]*?)(?=^\s*(?:Failed|Passed|Skipped) \S+ \[|^\s*(?:Failed|Passed)!|^Test Run|(?![\s\S]))/gm)].map((m) => `${m[1]}\n${m[2].trimEnd()}`);
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
    if (usesTestingPlatform(project)) {
      const args = request.test ? ['--filter', testFilter(request.test)] : [];
      return {
        framework: 'dotnet',
        language: 'dotnet',
        commandLine: commandLine('dotnet', ['run', '--project', rel, '--', ...args]),
        run: { kind: 'launch', program: project, args, cwd: request.cwd, env: {}, options: {} },
        failureFilters: ['all'],
        flavour: 'braces',
        frames: DOTNET_FRAMES,
        outcome: platformOutcome,
      };
    }
    const args = ['test', rel, '--nologo', ...(request.test ? ['--filter', testFilter(request.test)] : [])];
    return {
      framework: 'dotnet',
      language: 'dotnet',
      commandLine: commandLine('dotnet', args),
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
      outcome: vstestOutcome,
    };
  },
  async list(request, signal) {
    const dotnet = requireDotnet();
    const project = requireProject(request);
    const env = { DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' };
    if (usesTestingPlatform(project)) {
      const r = await runCommand(dotnet, ['run', '--project', project, '--', '--list-tests'], { cwd: request.cwd, signal, env, timeoutMs: 240_000 });
      if (r.code !== 0) throw listFailed('dotnet run -- --list-tests', r.stdout + r.stderr);
      // The platform lists display names, indented, before its discovery summary.
      const listed = r.stdout.split(/^Test discovery summary/m)[0];
      const ids = listed.split('\n').filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim());
      return { framework: 'dotnet', tests: ids.map((id) => ({ id })) };
    }
    const r = await runCommand(dotnet, ['test', project, '--list-tests', '--nologo'], { cwd: request.cwd, signal, env, timeoutMs: 240_000 });
    if (r.code !== 0) throw listFailed('dotnet test --list-tests', r.stdout + r.stderr);
    const after = r.stdout.slice(Math.max(0, r.stdout.indexOf('The following Tests are available:')));
    const ids = after
      .split('\n')
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean);
    return { framework: 'dotnet', tests: ids.map((id) => ({ id })) };
  },
};
