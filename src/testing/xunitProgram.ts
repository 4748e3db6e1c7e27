/**
 * An xUnit v3 test project without Microsoft.Testing.Platform is a program: xUnit's own in-process
 * console runner. It runs under the debugger as itself (on Windows and Linux alike: no test host,
 * no VSTest), lists its tests with `-list full/json` (each with its unique ID), runs exactly one with
 * `-id`, a name or filter with `-filterVSTest`, and ends with its own summary.
 */
import { basename } from 'node:path';
import { runCommand } from '../core/processGroup.js';
import { buildProject } from '../engines/dotnet/program.js';
import { listFailed } from './commands.js';
import type { TestOutcome } from './types.js';

export interface XunitListedTest {
  /** The display name (the fully qualified method name unless the test names itself). */
  id: string;
  /** What `-id` takes. */
  uid: string;
}

/** A project's reference to xUnit v3 (with or without its Microsoft.Testing.Platform support). */
export const XUNIT_V3_REFERENCE = /Include="xunit\.v3(\.mtp-[\w-]+)?"/i;

/** What every run passes: plain text, no colour codes in the output the outcome reads. */
export const XUNIT_RUN_ARGS = ['-noColor'];

/** The runner's arguments for one listed test, or for a VSTest filter (a name's part, or an expression). */
export const xunitSelection = {
  exact: (uid: string) => ['-id', uid],
  filter: (filter: string) => ['-filterVSTest', filter],
};

/**
 * The tests of the project, listed by the program the debugged run starts: built as a launch builds
 * it, run as `dotnet <assembly> -list full/json` (a test's ID is the runner's hash of its assembly's
 * path among others, so the listing and the run must start the same file the same way).
 */
export async function listXunitProgram(dotnet: string, project: string, cwd: string, env: Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<XunitListedTest[]> {
  const assembly = await buildProject(dotnet, project, signal, timeoutMs);
  const r = await runCommand(dotnet, [assembly, '-list', 'full/json', ...XUNIT_RUN_ARGS], { cwd, signal, env, timeoutMs });
  const json = r.stdout.split(/\r?\n/).find((l) => l.startsWith('['));
  if (r.code !== 0 || !json) throw listFailed(`dotnet ${basename(assembly)} -list full/json`, r.stdout + r.stderr);
  const listed = JSON.parse(json) as { DisplayName?: string; ID?: string }[];
  return listed.filter((t) => t.DisplayName && t.ID).map((t) => ({ id: t.DisplayName!, uid: t.ID! }));
}

/**
 * The verdict from the runner's summary (`Total: 1, Errors: 0, Failed: 1, Skipped: 0, Not Run: 0,
 * Time: 0.66s`, counted as VSTest counts: `Failed: 1, Passed: 0, Skipped: 0, Total: 1, Duration: 0.66s`)
 * and its exit code; each failure's report is its `[FAIL]` line and the lines indented under it.
 */
export function xunitOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const text = output.replace(/\r\n/g, '\n');
  const summary = /^=== TEST EXECUTION SUMMARY ===\n\s*\S+\s+(Total: \d+.*)$/m.exec(text)?.[1];
  const count = (name: string) => Number(new RegExp(`\\b${name}: (\\d+)`).exec(summary ?? '')?.[1] ?? 0);
  const [total, failed, errors, skipped] = [count('Total'), count('Failed'), count('Errors'), count('Skipped')];
  const time = /\bTime: (\S+)/.exec(summary ?? '')?.[1];
  const counts = summary
    ? [`Failed: ${failed}`, `Passed: ${total - failed - skipped - count('Not Run')}`, `Skipped: ${skipped}`, `Total: ${total}`, ...(errors ? [`Errors: ${errors}`] : []), ...(time ? [`Duration: ${time}`] : [])].join(', ')
    : undefined;
  if (summary && total === 0) return { status: 'no tests', counts };
  if (summary && exitCode === 0) return { status: 'passed', counts };
  const failures = [...text.matchAll(/^( +)(\S.*) \[FAIL\]\n((?:\1 +\S.*\n?)*)/gm)].map((m) => `${m[2]}\n${m[3]!.trimEnd()}`);
  return { status: summary ? 'failed' : 'error', counts, failureSummary: failures.join('\n') || (summary ? undefined : text.trim()) };
}
