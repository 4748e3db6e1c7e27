/**
 * mocha, with the project's own installed mocha: its CLI runs the tests in its own process (one
 * file after another, never in parallel workers), so it is the debuggee, as jest's is. A test is
 * chosen by its full name (--grep, which mocha matches against the titles joined by spaces).
 * mocha adds the files it is given to the ones its configuration names (`spec`), so a file or a
 * folder runs with the project's configuration less those (a configuration file of debugbridge's).
 */
import { isAbsolute, join, relative } from 'node:path';
import { runCommand } from '../core/processGroup.js';
import { isDirectory, listFailed } from './commands.js';
import type { RunnerFrames } from './failureJudge.js';
import { fullNamePattern, ID_SEPARATOR, idsUnder, listedAsName, partOfName } from './jsTestNames.js';
import { narrowed, nodeRoot, runnerAsDebuggee, runnerBin, runnerClaim } from './nodeProject.js';
import { ownFile } from './ownFiles.js';
import type { FrameworkDriver, ListedTest, TestOutcome, TestRequest } from './types.js';

const MOCHA_FRAMES: RunnerFrames = { runner: /[\\/]node_modules[\\/]mocha[\\/]/, complete: false };
/** What this.skip() throws (Pending before mocha 10). */
const MOCHA_SKIP = /^(PendingError|Pending)$/;

const MOCHA_CONFIGS = ['.mocharc.cjs', '.mocharc.js', '.mocharc.mjs', '.mocharc.yaml', '.mocharc.yml', '.mocharc.jsonc', '.mocharc.json'];

/**
 * The project's mocha configuration (its .mocharc, else package.json's "mocha") less `spec`, read
 * by the project's own mocha (lib/cli/config: .cjs from mocha 12, .js before).
 */
const CONFIG_LESS_SPEC = `'use strict';
// debugbridge: the project's mocha configuration without the files it names, for a run of the files debugbridge names.
const { readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const mocha = dirname(require.resolve('mocha/package.json', { paths: [process.cwd()] }));
let config;
for (const name of ['config.cjs', 'config.js']) {
  try {
    config = require(join(mocha, 'lib', 'cli', name));
    break;
  } catch {}
}
const found = config.findConfig(process.cwd());
let options = {};
if (found) options = config.loadConfig(found);
else {
  try {
    options = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')).mocha || {};
  } catch {}
}
options = { ...options };
delete options.spec;
module.exports = options;
`;

const LISTED = 'DEBUGBRIDGE-TEST ';

/** A reporter for a dry run: each test mocha would run, or has pending, one JSON line each. */
const LISTING_REPORTER = `'use strict';
// debugbridge: the tests of a dry run (--dry-run), one line each.
module.exports = function Listing(runner) {
  runner.on('test end', (test) => {
    process.stdout.write(${JSON.stringify(LISTED)} + JSON.stringify({ titles: test.titlePath(), file: test.file }) + '\\n');
  });
};
`;

function lessSpec(): string[] {
  return ['--config', ownFile('mocharc-less-spec.cjs', CONFIG_LESS_SPEC), '--no-package'];
}

/** The tests a dry run with these arguments finds (each test mocha would run, or has pending). */
async function dryRun(bin: string, cwd: string, selection: string[], signal: AbortSignal): Promise<ListedTest[]> {
  const reporter = ownFile('mocha-listing.cjs', LISTING_REPORTER);
  const r = await runCommand(process.execPath, [bin, '--dry-run', '--no-parallel', '--exit', '--reporter', reporter, ...selection], { cwd, signal });
  if (r.code !== 0) throw listFailed('mocha --dry-run', r.stdout + r.stderr);
  return r.stdout
    .split('\n')
    .filter((line) => line.startsWith(LISTED))
    .map((line) => JSON.parse(line.slice(LISTED.length)) as { titles: string[]; file?: string })
    .map(({ titles, file }) => ({ id: titles.join(ID_SEPARATOR), file: file && !isAbsolute(file) ? join(cwd, file) : file }));
}

/**
 * What a run loads, and its tests: a file with the configuration less its files; the project's
 * root its configured files; another folder the configured files in it, else the folder itself as
 * mocha takes one (`mocha test/acceptance`, a folder the configuration does not name).
 */
async function testsIn(request: TestRequest, bin: string, signal: AbortSignal): Promise<{ selection: string[]; tests: ListedTest[] }> {
  const folder = request.path;
  if (!isDirectory(folder)) {
    const selection = [...lessSpec(), relative(request.cwd, folder)];
    return { selection, tests: await dryRun(bin, request.cwd, selection, signal) };
  }
  const configured = await dryRun(bin, request.cwd, [], signal);
  if (folder === request.cwd) return { selection: [], tests: configured };
  const inFolder = configured.filter((t) => t.file && !relative(folder, t.file).startsWith('..'));
  if (inFolder.length) return { selection: [...lessSpec(), ...new Set(inFolder.map((t) => relative(request.cwd, t.file!)))], tests: inFolder };
  const selection = [...lessSpec(), relative(request.cwd, folder)];
  return { selection, tests: await dryRun(bin, request.cwd, selection, signal) };
}

/** mocha's spec reporter's summary: `3 passing (12ms)`, `1 pending`, `2 failing`, then each failure. */
function mochaOutcome(output: string, exitCode: number | undefined): TestOutcome {
  const count = (word: string) => Number(new RegExp(`^ +(\\d+) ${word}\\b`, 'm').exec(output)?.[1] ?? 0);
  const [passed, failed, pending] = [count('passing'), count('failing'), count('pending')];
  if (!/^ +\d+ passing\b/m.test(output)) return { status: 'error', failureSummary: output.trim() || undefined };
  const counts = `${failed} failed, ${passed} passed${pending ? `, ${pending} skipped` : ''}`;
  if (passed + failed === 0) return { status: 'no tests', counts };
  if (exitCode === 0 && !failed) return { status: 'passed', counts };
  // Each failure's report follows the summary (the tree of tests above it numbers them too).
  const summary = output.search(/^ +\d+ failing\b/m);
  const start = summary < 0 ? -1 : output.slice(summary).search(/^ +1\) /m);
  return { status: failed ? 'failed' : 'error', counts, failureSummary: start >= 0 ? output.slice(summary + start).trim() : undefined };
}

export const mochaDriver: FrameworkDriver = {
  name: 'mocha',
  language: 'node',
  root: nodeRoot,
  async claims(request) {
    return runnerClaim(request.path, { module: 'mocha', name: 'mocha', configs: MOCHA_CONFIGS, score: 3 });
  },
  async plan(given) {
    const request = narrowed(given);
    const bin = runnerBin(request.cwd, 'mocha', 'mocha');
    // Serial, in mocha's own process; no timeouts while the debugger holds a test (mocha's own choice under --inspect);
    // over once mocha has reported, though a test left a server or a timer behind (the run's verdict is all that is wanted then).
    const selection = isDirectory(request.path) ? (await testsIn(request, bin, new AbortController().signal)).selection : [...lessSpec(), relative(request.cwd, request.path)];
    const args = ['--no-parallel', '--timeout', '0', '--exit', '--reporter', 'spec', '--no-color', ...selection];
    const name = await listedAsName(request.test, async () => (await testsIn(request, bin, new AbortController().signal)).tests);
    if (request.test) args.push('--grep', fullNamePattern(request.test, name));
    return runnerAsDebuggee('mocha', bin, args, request.cwd, { frames: MOCHA_FRAMES, outcome: mochaOutcome, notFailures: MOCHA_SKIP });
  },
  async list(request, signal) {
    const { tests } = await testsIn(request, runnerBin(request.cwd, 'mocha', 'mocha'), signal);
    return { framework: 'mocha', tests: idsUnder(request.path, tests) };
  },
  partOfName,
};
