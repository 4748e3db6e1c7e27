// A scripted agent session on a planted bug, before and after the forms of issue 27 (traces that read
// the caller, a compact probe): how many calls and how many characters the agent reads to prove the
// cause, measured in one run side by side.
//
// The bug (test/fixtures/pricing): a price cache keyed by volume tier only, so the first customer of
// a tier fixes the rate of every later one (a VIP's discount leaks to standard customers). Proving it
// takes, for each call of Rate: whose invoice it is (a caller's value, one frame up in an async
// method), the customer, the cache key and the rate the cache gave.
//
//   before: a conditional breakpoint on the second customer, the stack to find the caller, the
//           caller's invoice, the key and rate, the next hit and its invoice, then a probe of every
//           hit (its invoice inferred from the order of hits) — the forms the old tools had;
//   after:  one launch with a trace whose columns include the caller's invoice ({frameIndex: 1}) and
//           one breakpoint_trace; and the same "before" calls against today's server (the probe's
//           compact table alone).
//
// The baseline is the server as it was before this work (commit BENCH_BASELINE_COMMIT, default
// 26735c0), built once into a folder of its own beside the temp folder (or BENCH_BASELINE: a built
// checkout). Counted: the text content of every answer.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const BASELINE_COMMIT = process.env.BENCH_BASELINE_COMMIT ?? '26735c0';
const PROJECT = join(root, 'test', 'fixtures', 'pricing', 'Pricing');
const PROGRAM = join(PROJECT, 'bin', 'Debug', 'Pricing.dll');
const QUOTES = join(PROJECT, 'QuoteService.cs');
const markerLine = (file, name) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(`BP:${name}`)) + 1;
const RATED = markerLine(QUOTES, 'rated');

function buildFixture() {
  const newest = Math.max(...['Program.cs', 'QuoteService.cs', 'Model.cs', 'DiscountPolicy.cs', 'Pricing.csproj'].map((f) => statSync(join(PROJECT, f)).mtimeMs));
  if (existsSync(PROGRAM) && statSync(PROGRAM).mtimeMs >= newest) return;
  execFileSync('dotnet', ['build', PROJECT, '-c', 'Debug', '-nologo', '-v:q'], { stdio: 'inherit' });
}

/** The server before this work, built once from its commit (node_modules shared with this checkout). */
function baselineCli() {
  if (process.env.BENCH_BASELINE) return join(process.env.BENCH_BASELINE, 'dist', 'cli.js');
  const dir = join(tmpdir(), `debugbridge-baseline-${BASELINE_COMMIT}`);
  const cli = join(dir, 'dist', 'cli.js');
  if (existsSync(cli)) return cli;
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive ${BASELINE_COMMIT} | tar -x -C "${dir}"`], { stdio: 'inherit' });
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { stdio: 'inherit' });
  return cli;
}

async function connect(cli) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli],
    env: { ...getDefaultEnvironment(), ...process.env, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-agent-')) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'agent-session-bench', version: '1' });
  await client.connect(transport);
  return client;
}

/** Runs a script of calls; answers its calls, characters and the texts. */
async function session(cli, script) {
  const client = await connect(cli);
  const texts = [];
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    texts.push({ name, text, isError: r.isError === true });
    return { text, structured: r.structuredContent ?? {} };
  };
  try {
    await script(call);
  } finally {
    await client.close();
  }
  return { calls: texts.length, chars: texts.reduce((n, t) => n + t.text.length, 0), texts };
}

const breakpoint = { file: QUOTES, line: RATED };

/** The forms the old tools had: stop, find the caller in the stack, read its invoice, the key and rate; the next hit; a probe of them all. */
async function before(call) {
  await call('session_launch', { program: PROGRAM, breakpoints: [{ ...breakpoint, condition: 'customer.Name == "ed"' }], waitForStop: true });
  await call('inspect_stack', {});
  await call('inspect_evaluate', { frameIndex: 1, expression: 'invoice.Id' });
  await call('inspect_evaluate', { expressions: ['key', 'rate', 'customer.Tier'] });
  await call('execution_continue', {});
  await call('inspect_evaluate', { frameIndex: 1, expression: 'invoice.Id' });
  await call('session_stop', {});
  await call('debug_probe', { program: PROGRAM, breakpoints: [breakpoint], expressions: ['customer.Name', 'key', 'rate'], maxHits: 8 });
}

/** Today's forms: a trace whose columns read the caller's invoice, and its table. */
async function after(call) {
  await call('session_launch', { program: PROGRAM, breakpoints: [{ ...breakpoint, trace: ['customer.Name', 'customer.Tier', 'key', 'rate', { frameIndex: 1, expression: 'invoice.Id' }] }], waitForStop: true });
  await call('breakpoint_trace', { id: 1 });
}

buildFixture();
const baseline = baselineCli();
const current = join(root, 'dist', 'cli.js');
const runs = [
  ['before: old forms, server before this work', await session(baseline, before)],
  ['before: old forms, server now', await session(current, before)],
  ['after: trace with the caller\'s invoice, server now', await session(current, after)],
];
const failed = runs.flatMap(([name, r]) => r.texts.filter((t) => t.isError).map((t) => `${name}: ${t.name}: ${t.text.split('\n')[0]}`));
console.log('| session | calls | characters read |\n| --- | ---: | ---: |');
for (const [name, r] of runs) console.log(`| ${name} | ${r.calls} | ${r.chars.toLocaleString('en-US')} |`);
const [old, , now] = runs.map(([, r]) => r);
console.log(`\nafter / before: ${now.calls}/${old.calls} calls, ${(now.chars / old.chars).toFixed(2)}× the characters`);
console.log(`\nThe trace table the agent reads after:\n${now.texts.at(-1).text}`);
if (process.env.BENCH_VERBOSE) for (const [name, r] of runs) console.log(`\n## ${name}\n${r.texts.map((t) => `> ${t.name}\n${t.text}`).join('\n\n')}`);
if (failed.length) {
  console.error(`\nanswers with errors:\n${failed.join('\n')}`);
  process.exit(1);
}
