/**
 * Which tests one id selects, told by the runner itself and without the debugger: the run
 * debug_test plans for the id (the same driver, the same selection arguments, from
 * src/testing/testRun.ts' own request and driver choice) is run as it is, less the debugger's own
 * options, with a report that names each test it ran: node:test's TAP, jest's and vitest's JSON
 * reports, mocha's passes and failures, pytest's collection (its list mode, with the same arguments), unittest's results,
 * VSTest's console logger, the platform's detailed output, xUnit v3's verbose reporter. A run without the debugger costs a
 * fraction of one under it, so every id a listing gives can be checked on each CI run.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProject } from '../../src/engines/dotnet/program.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { findInterpreter } from '../../src/engines/python/interpreter.js';
import { runCommand, type CommandResult } from '../../src/core/processGroup.js';
import { frameworkOf } from '../../src/testing/dotnetTests.js';
import { xunitOutcome } from '../../src/testing/xunitProgram.js';
import { pickDriver } from '../../src/testing/frameworks.js';
import { ID_SEPARATOR } from '../../src/testing/jsTestNames.js';
import { testRequest } from '../../src/testing/testRun.js';
import type { DirectLaunch, FrameworkName, HostedLaunch, TestPlan } from '../../src/testing/types.js';

const RUN_TIMEOUT_MS = 240_000;

/** The tests the run of `test` (under `path`) runs, by the names the runner reports (ids where it reports those). */
export async function testsSelected(path: string, test: string, framework?: FrameworkName): Promise<string[]> {
  const { request, cwdGiven } = testRequest(path, test, undefined);
  const driver = await pickDriver(request, framework);
  if (!cwdGiven) request.cwd = driver.root(request.path);
  const plan = await driver.plan(request);
  const { run } = plan;
  switch (plan.framework) {
    case 'node:test':
      return tapRan(await node(direct(run), ['--test-reporter=tap', ...runtimeArgs(direct(run)), direct(run).program]));
    case 'jest':
      return jsonReportRan(await node(direct(run), [direct(run).program, ...direct(run).args, '--json']));
    case 'vitest':
      return jsonReportRan(await runIn(hosted(run), process.execPath, [...withoutDebugger(hosted(run).args), '--reporter=json']));
    case 'mocha':
      return mochaRan(await node(direct(run), [direct(run).program, ...withReporter(direct(run).args, mochaReporter())]));
    case 'pytest':
      return collected(await python(direct(run), [direct(run).program, ...direct(run).args, '--collect-only', '-p', 'no:cacheprovider']));
    case 'unittest':
      return unittestRan(await python(direct(run), ['-c', UNITTEST_REPORTING, direct(run).program, ...direct(run).args]));
    case 'dotnet':
      if (run.kind === 'hosted') return vstestRan(await vstest(run, plan));
      return plan.outcome === xunitOutcome ? xunitRan(await platform(direct(run), ['-reporter', 'verbose'])) : platformRan(await platform(direct(run)));
  }
}

function direct(run: TestPlan['run']): DirectLaunch {
  if (run.kind !== 'launch') throw new Error(`expected the runner as the debuggee, got ${run.kind}`);
  return run;
}

function hosted(run: TestPlan['run']): HostedLaunch {
  if (run.kind !== 'hosted') throw new Error(`expected a hosted runner, got ${run.kind}`);
  return run;
}

function runtimeArgs(run: DirectLaunch): string[] {
  return (run.options.runtimeArgs as string[] | undefined) ?? [];
}

async function runIn(run: DirectLaunch | HostedLaunch, command: string, args: string[], env: Record<string, string> = run.env): Promise<CommandResult> {
  const r = await runCommand(command, args, { cwd: run.cwd, env: { NO_COLOR: '1', ...env }, timeoutMs: RUN_TIMEOUT_MS });
  if (r.code === undefined) throw new Error(`${command} ${args.join(' ')} did not end: ${r.stderr}`);
  return r;
}

const node = (run: DirectLaunch, args: string[]) => runIn(run, process.execPath, args);

async function python(run: DirectLaunch, args: string[]): Promise<CommandResult> {
  return runIn(run, (await findInterpreter(run.options)).executable, args);
}

/** vitest's run less the inspector and its one-worker option, which select nothing. */
function withoutDebugger(args: string[]): string[] {
  return args.filter((a) => !a.startsWith('--inspect-brk') && a !== '--no-file-parallelism');
}

/** node:test's TAP: each test (not suite) whose result is no skip, by its path of names. */
function tapRan({ stdout }: CommandResult): string[] {
  const lines = stdout.split('\n');
  const path: { indent: number; name: string }[] = [];
  const ran: string[] = [];
  lines.forEach((line, i) => {
    const subtest = /^( *)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      while (path.length && path[path.length - 1].indent >= subtest[1].length) path.pop();
      path.push({ indent: subtest[1].length, name: subtest[2].replace(/\\([\\#])/g, '$1') });
      return;
    }
    const result = /^( *)(?:not )?ok \d+ - .*?( # SKIP\b.*)?$/.exec(line);
    if (!result) return;
    while (path.length && path[path.length - 1].indent > result[1].length) path.pop();
    const details = lines.slice(i + 1, lines.findIndex((l, k) => k > i && /^\s*\.\.\.\s*$/.test(l)));
    if (!result[2] && !details.some((l) => /^\s*type: 'suite'/.test(l))) ran.push(path.map((p) => p.name).join(ID_SEPARATOR));
  });
  return ran;
}

interface JsonReport {
  testResults?: { assertionResults?: { ancestorTitles: string[]; title: string; status: string }[] }[];
}

/** jest's `--json` and vitest's json reporter (the same shape): the tests that passed or failed. */
function jsonReportRan({ stdout }: CommandResult): string[] {
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as JsonReport;
  return (report.testResults ?? []).flatMap((f) => (f.assertionResults ?? []).filter((a) => a.status === 'passed' || a.status === 'failed').map((a) => [...a.ancestorTitles, a.title].join(ID_SEPARATOR)));
}

/** A mocha reporter that writes each test that passed or failed by its titles, one JSON line each. */
function mochaReporter(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'dbb-mocha-ran-')), 'ran.cjs');
  writeFileSync(file, `module.exports = function (runner) { for (const e of ['pass', 'fail']) runner.on(e, (t) => console.log('RAN ' + JSON.stringify(t.titlePath()))); };`);
  return file;
}

function withReporter(args: string[], reporter: string): string[] {
  const at = args.indexOf('--reporter');
  return at < 0 ? [...args, '--reporter', reporter] : [...args.slice(0, at), '--reporter', reporter, ...args.slice(at + 2)];
}

function mochaRan({ stdout }: CommandResult): string[] {
  return [...stdout.matchAll(/^RAN (.+)$/gm)].map((m) => (JSON.parse(m[1]) as string[]).join(ID_SEPARATOR));
}

/** pytest's collection, quiet: one node id a line. */
function collected({ stdout }: CommandResult): string[] {
  return stdout.split('\n').filter((l) => /^\S+\.py::\S/.test(l));
}

/** Runs debugbridge's unittest launcher (argv[1]) as it is, writing the id of each test it starts. */
const UNITTEST_REPORTING = `import runpy, sys, unittest
start = unittest.TextTestResult.startTest
def reported(self, test):
    print('RAN ' + test.id(), file=sys.stderr)
    start(self, test)
unittest.TextTestResult.startTest = reported
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name='__main__')
`;

function unittestRan({ stderr }: CommandResult): string[] {
  return [...stderr.matchAll(/^RAN (.+)$/gm)].map((m) => m[1]);
}

/** `dotnet test` as planned, less VSTEST_HOST_DEBUG (the host would wait for a debugger), the build done, each result logged. */
function vstest(run: HostedLaunch, plan: TestPlan): Promise<CommandResult> {
  const env = Object.fromEntries(Object.entries(run.env).filter(([k]) => k !== 'VSTEST_HOST_DEBUG'));
  // NUnit reports a test by its own name unless told to write full names, as its listing does.
  const nunitNames = plan.testFolder && frameworkOf(projectIn(plan.testFolder)) === 'nunit' ? ['--', 'NUnit.DisplayName=FullName'] : [];
  return runIn(run, run.command, [...run.args, '--no-build', '--logger', 'console;verbosity=normal', ...nunitNames], env);
}

function projectIn(folder: string): string {
  const project = readdirSync(folder).find((f) => f.endsWith('proj'));
  if (!project) throw new Error(`no project in ${folder}`);
  return join(folder, project);
}

function vstestRan({ stdout }: CommandResult): string[] {
  return [...stdout.matchAll(/^\s+(?:Passed|Failed|Skipped) (.+?) \[[^\]\n]*\]\s*$/gm)].map((m) => m[1]);
}

const PLATFORM_DETAILS = ['--output', 'Detailed', '--no-ansi', '--no-progress'];

/** A test program (Microsoft.Testing.Platform's, xUnit v3's own runner): built as the engine builds it, its assembly run with the planned options and the runner's own that name each test. */
async function platform(run: DirectLaunch, details = PLATFORM_DETAILS): Promise<CommandResult> {
  const dotnet = findDotnet() ?? 'dotnet';
  const assembly = await buildProject(dotnet, run.program);
  return runIn(run, dotnet, [assembly, ...run.args, ...details]);
}

/** xUnit v3's verbose reporter: `  Ns.Class.Method [FINISHED] Time: 0.015s` for each test it ran. */
function xunitRan({ stdout }: CommandResult): string[] {
  return [...stdout.matchAll(/^\s+(.+?) \[FINISHED\]/gm)].map((m) => m[1]);
}

function platformRan({ stdout }: CommandResult): string[] {
  return [...stdout.matchAll(/^\s*(?:passed|failed) (.+?) \(\d[^)]*\)\s*$/gm)].map((m) => m[1]);
}

/**
 * The ids a .NET listing's round-trip checks: every one with DEBUGBRIDGE_ALL_IDS=1 (npm run
 * test:ids), else one of each shape — a row the runner cuts, a case by its arguments, a name with quotes, a nested class,
 * a plain method — since each check is a `dotnet test` run of seconds and CI has 20 minutes.
 */
export function idsToCheck(ids: readonly string[]): string[] {
  if (process.env.DEBUGBRIDGE_ALL_IDS === '1') return [...ids];
  const shapes: ((id: string) => boolean)[] = [(id) => id.includes('···'), (id) => id.includes('('), (id) => id.includes('"'), (id) => id.includes('+'), (id) => !/[("+]/.test(id)];
  return ids.filter((id, index) => shapes.some((shape) => shape(id) && ids.findIndex(shape) === index));
}
