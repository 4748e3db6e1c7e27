// The shell CLI: what one `debugbridge call` costs, side by side with a bare Node.js start and with
// the same tool call made by an MCP client that stays connected (what an MCP agent pays), and the
// Python workflow run as separate shell commands vs through one MCP client.
//
//   workflow: launch with a breakpoint → first stop → stack → locals → step over → stop
//
// Medians of RUNS (default 7) after one uncounted warm-up; the daemon runs in a private runtime
// folder and is stopped at the end. Environment: RUNS, BENCH_PYTHON (default /usr/bin/python3).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const CLI = join(root, 'dist', 'cli.js');
const RUNS = Math.max(1, Number(process.env.RUNS ?? 7));
const PROGRAM = join(here, 'fixtures', 'fizzbuzz.py');
const BP_LINE = readFileSync(PROGRAM, 'utf8').split('\n').findIndex((l) => l.includes('# BP:render')) + 1;
const env = {
  ...process.env,
  DEBUGBRIDGE_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-shell-')),
  DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-state-')),
  DEBUGBRIDGE_PYTHON: process.env.BENCH_PYTHON ?? '/usr/bin/python3',
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

function timed(fn) {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

function shell(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, cwd: here, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`debugbridge ${args.join(' ')} → ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Runs the measurements interleaved, one of each per round (the load changes; the pairs should see the same), after one warm-up round. */
async function rounds(measures) {
  const times = measures.map(() => []);
  for (let round = 0; round <= RUNS; round++) {
    for (const [i, measure] of measures.entries()) {
      const t = await measure();
      if (round > 0) times[i].push(t);
    }
  }
  return times.map(median);
}

const WORKFLOW = [
  ['session_launch', { program: PROGRAM, breakpoints: [{ file: PROGRAM, line: BP_LINE }], waitForStop: true }, ['--program', PROGRAM, '--breakpoints', `${PROGRAM}:${BP_LINE}`, '--wait-for-stop']],
  ['inspect_stack', {}, []],
  ['inspect_variables', {}, []],
  ['execution_step', { kind: 'over' }, ['--kind', 'over']],
  ['session_stop', {}, []],
];

const { McpTestClient } = await import(pathToFileURL(join(root, 'dist', 'demo', 'mcpClient.js')).href);
const rows = [];
try {
  shell('daemon', 'start');
  const client = await McpTestClient.start({ env });
  try {
    const mcpFlow = async () => {
      const t0 = performance.now();
      for (const [tool, args] of WORKFLOW) {
        const r = await client.call(tool, args);
        if (r.isError) throw new Error(`${tool}: ${r.text}`);
      }
      return performance.now() - t0;
    };
    const [bare, version, shellCall, mcpCall, shellFlow, mcpFlowMs] = await rounds([
      async () => timed(() => execFileSync(process.execPath, ['-e', '0'])),
      async () => timed(() => shell('--version')),
      async () => timed(() => shell('call', 'languages_list')),
      async () => {
        const t0 = performance.now();
        await client.call('languages_list');
        return performance.now() - t0;
      },
      async () => timed(() => WORKFLOW.forEach(([tool, , words]) => shell('call', tool, ...words))),
      mcpFlow,
    ]);
    rows.push(['one call (languages_list), daemon running', shellCall, mcpCall, 'MCP client already connected']);
    rows.push(['  of which starting Node.js / the CLI', version, bare, 'bare `node -e 0`']);
    rows.push(['Python workflow, 5 tools (launch→stop)', shellFlow, mcpFlowMs, 'same calls, one MCP client']);
  } finally {
    await client.close();
  }
} finally {
  spawnSync(process.execPath, [CLI, 'daemon', 'stop'], { env });
}

console.log(`debugbridge call — medians of ${RUNS} runs, load ${loadavg()[0].toFixed(2)}\n`);
console.log('| | debugbridge call | alternative | ratio | alternative is |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const [label, ours, theirs, what] of rows) console.log(`| ${label} | ${ms(ours)} | ${ms(theirs)} | ${(ours / theirs).toFixed(1)}× | ${what} |`);
