/**
 * The tests of a .NET test project, and how to run exactly one. An id is the test's fully
 * qualified name as its framework writes it, each case of a parametrised test with its arguments:
 * xUnit's display name (`Ns.CartTests+Totals.TotalOfPens(qty: 3, expected: 31)`), NUnit's full name
 * (`Ns.CartTests+Totals.TotalOfPens(3,31)`), on Microsoft.Testing.Platform the class and the
 * display name (`Ns.CartTests.TotalOfPens (3,31)`), xUnit v3's own runner the display name (a theory
 * is one test: its rows run together). One id runs through what selects it exactly: `--filter-uid` on
 * the platform, `-id` with xUnit v3's runner; under VSTest a settings file (a filter typed on the command line
 * goes through MSBuild, which rejects quotes): xUnit's DisplayName, NUnit's own `Where`, MSTest's Name.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCommand } from '../core/processGroup.js';
import { listFailed } from './commands.js';
import { ownFile } from './ownFiles.js';
import { discoverPlatformTests, isDiscoveryFailure } from './testingPlatform.js';
import type { ListedTest } from './types.js';
import { listXunitProgram, XUNIT_V3_REFERENCE, xunitSelection } from './xunitProgram.js';

export type DotnetFramework = 'xunit' | 'nunit' | 'mstest' | 'other';

/** What runs a project's tests: VSTest (`dotnet test`), Microsoft.Testing.Platform, or xUnit v3's own runner (the program itself). */
export type DotnetRunner = 'vstest' | 'platform' | 'xunit';

export interface DotnetTest extends ListedTest {
  /** What `--filter-uid` (Microsoft.Testing.Platform) or `-id` (xUnit v3's runner) takes. */
  uid?: string;
}

const LIST_TIMEOUT_MS = 240_000;
const ENV = { DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' };

/** The test framework a project references. */
export function frameworkOf(project: string): DotnetFramework {
  const text = safeRead(project);
  if (/Include="xunit"|Include="xunit\.core"/i.test(text) || XUNIT_V3_REFERENCE.test(text)) return 'xunit';
  if (/Include="NUnit"/i.test(text)) return 'nunit';
  if (/Include="MSTest(\.TestFramework)?"|Sdk="MSTest\.Sdk/i.test(text)) return 'mstest';
  return 'other';
}

/** A VSTest filter or platform filter expression (not a test's name or id). */
export function isFilterExpression(test: string): boolean {
  return /^[(\s]*(FullyQualifiedName|DisplayName|Name|ClassName|Category|Traits|TestCategory|Priority|Id)\s*(=|!=|~|!~)/.test(test);
}

/** Text that may be an id (qualified, with arguments, or a display name of its own): worth listing the tests to know. */
export function mayBeId(test: string): boolean {
  return /[.("\s]/.test(test) && !isFilterExpression(test);
}

const listings = new Map<string, { stamp: number; tests: Promise<DotnetTest[]> }>();

/** The project's tests, listed by its runner; kept until a file of the project changes. */
export function listDotnetTests(dotnet: string, project: string, runner: DotnetRunner, cwd: string, signal: AbortSignal): Promise<DotnetTest[]> {
  const stamp = newestChange(dirname(project));
  const known = listings.get(project);
  if (known && known.stamp === stamp) return known.tests;
  const list = { vstest: listVstest, platform: listPlatform, xunit: listXunit }[runner];
  const tests = list(dotnet, project, cwd, signal);
  listings.set(project, { stamp, tests });
  tests.catch(() => listings.delete(project));
  return tests;
}

async function listPlatform(dotnet: string, project: string, cwd: string, signal: AbortSignal): Promise<DotnetTest[]> {
  let found;
  try {
    found = await discoverPlatformTests(dotnet, ['run', '--project', project, '--'], cwd, ENV, LIST_TIMEOUT_MS, signal);
  } catch (e) {
    if (isDiscoveryFailure(e)) throw listFailed('dotnet run -- --server (discovery)', e.output);
    throw e;
  }
  return found.map((t) => ({
    id: t.type && !t.displayName.startsWith(`${t.type}.`) ? `${t.type}.${t.displayName}` : t.displayName,
    uid: t.uid,
    file: t.file,
    line: t.line,
  }));
}

function listXunit(dotnet: string, project: string, cwd: string, signal: AbortSignal): Promise<DotnetTest[]> {
  return listXunitProgram(dotnet, project, cwd, ENV, LIST_TIMEOUT_MS, signal);
}

async function listVstest(dotnet: string, project: string, cwd: string, signal: AbortSignal): Promise<DotnetTest[]> {
  // NUnit lists bare names unless told to write full names.
  const settings = frameworkOf(project) === 'nunit' ? ['--', 'NUnit.DisplayName=FullName'] : [];
  const r = await runCommand(dotnet, ['test', project, '--list-tests', '--nologo', ...settings], { cwd, signal, env: ENV, timeoutMs: LIST_TIMEOUT_MS });
  if (r.code !== 0) throw listFailed('dotnet test --list-tests', r.stdout + r.stderr);
  const after = r.stdout.slice(Math.max(0, r.stdout.indexOf('The following Tests are available:')));
  return after
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((id) => ({ id }));
}

/** How a run selects tests: arguments of its own, or a settings file for VSTest. */
export type Selection = { args: string[]; shown: string[] };

/** Exactly the listed test `test` is: its uid on the platform or to xUnit's runner, a settings file under VSTest; undefined when the framework cannot say. */
export function exactSelection(test: DotnetTest, framework: DotnetFramework, runner: DotnetRunner): Selection | undefined {
  if (test.uid) {
    if (runner !== 'xunit') return uidSelection([test.uid]);
    const args = xunitSelection.exact(test.uid);
    return { args, shown: args };
  }
  if (framework === 'xunit') return settingsSelection(`only ${test.id}`, `<RunConfiguration><TestCaseFilter>${xml(`DisplayName=${filterValue(test.id)}`)}</TestCaseFilter></RunConfiguration>`);
  if (framework === 'nunit') return settingsSelection(`only ${test.id}`, `<NUnit><Where>${xml(`test == ${nunitString(test.id)}`)}</Where></NUnit>`);
  // MSTest lists a [DataRow] or [DynamicData] row by its display name, which its `Name` property matches.
  if (framework === 'mstest') return settingsSelection(`only ${test.id}`, `<RunConfiguration><TestCaseFilter>${xml(`Name=${filterValue(test.id)}`)}</TestCaseFilter></RunConfiguration>`);
  return undefined;
}

/** Microsoft.Testing.Platform's selection of the tests with these uids. */
export function uidSelection(uids: string[]): Selection {
  const args = ['--filter-uid', ...uids];
  return { args, shown: args };
}

/**
 * The tests whose name holds `test` (or that a filter expression selects). NUnit's adapter reads a
 * VSTest filter through its own grammar, where a space ends the value (`Unexpected Word`): a part
 * with spaces goes to NUnit's own `Where` as a pattern of its full name. xUnit's display name is
 * the test's own (`[Fact(DisplayName = …)]`), not its method's: a part is looked for in both, under
 * VSTest and by xUnit v3's own runner (its -filterVSTest reads the same filter).
 */
export function partSelection(test: string, framework: DotnetFramework, runner: DotnetRunner): Selection {
  if (runner === 'vstest' && framework === 'nunit' && /\s/.test(test) && !isFilterExpression(test)) {
    return settingsSelection(`the tests whose name holds ${test}`, `<NUnit><Where>${xml(`test =~ ${nunitString(test.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'))}`)}</Where></NUnit>`);
  }
  if (runner !== 'platform' && framework === 'xunit' && !isFilterExpression(test)) {
    const value = filterValue(test);
    const filter = `FullyQualifiedName~${value}|DisplayName~${value}`;
    if (runner === 'vstest') return settingsSelection(`the tests whose name holds ${test}`, `<RunConfiguration><TestCaseFilter>${xml(filter)}</TestCaseFilter></RunConfiguration>`);
    const args = xunitSelection.filter(filter);
    return { args, shown: args };
  }
  const args = runner === 'xunit' ? xunitSelection.filter(testFilter(test)) : ['--filter', testFilter(test)];
  return { args, shown: args };
}

/** A VSTest settings file that selects the tests (a filter typed on the command line goes through MSBuild, which rejects quotes). */
function settingsSelection(what: string, settings: string): Selection {
  const content = `<?xml version="1.0" encoding="utf-8"?>\n<!-- debugbridge: runs ${xml(what)} -->\n<RunSettings>${settings}</RunSettings>\n`;
  const file = ownFile(`select-${createHash('sha256').update(content).digest('hex').slice(0, 16)}.runsettings`, content);
  return { args: ['--settings', file], shown: ['--settings', file] };
}

/** A name becomes a VSTest filter on the fully qualified name; a filter expression is kept. */
export function testFilter(test: string): string {
  return isFilterExpression(test) ? test : `FullyQualifiedName~${test}`;
}

/** A VSTest filter's value: its operators and grouping escaped. */
function filterValue(text: string): string {
  return text.replace(/[\\()&|=!~]/g, (c) => `\\${c}`);
}

/** A string of NUnit's test selection language. */
function nunitString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The newest change to a project's sources (build output left out), for knowing a listing is still right. */
function newestChange(dir: string, depth = 0): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (entry.name === 'bin' || entry.name === 'obj' || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth < 6) newest = Math.max(newest, newestChange(path, depth + 1));
    } else if (/\.(cs|fs|vb|csproj|fsproj|vbproj|props|targets|json)$/.test(entry.name)) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}
