// Live edit against its bare alternative, for Node.js and Python, in one run: the shop server of the
// live edit tests (test/fixtures/…/live) stopped at a breakpoint in its buggy function, then
//
//   apply   — session_apply_changes after a one-function edit of the file on disk, while stopped
//             (Node: V8 runs the edited top frame again; Python: the frame keeps the old code) and
//             while the server serves requests (the function is not on the stack);
//   restart — what an agent does without live edit: session_restart with the breakpoint, waiting for
//             the stop at the same point (the program's start, its first request, the stop).
//
// Each apply is timed from the client's side (tools/call to answer), the session's first apply on
// its own line (Node loads its live edit code then; Python's helper went in at launch). Figures are
// medians of RUNS (default 5) edits per state and runtime; target: apply ≤ 100 ms. The machine's
// load is printed with them: under load every figure grows, the ratios less.
//
// Environment: RUNS (default 5), PYTHON (default /usr/bin/python3).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const RUNS = Math.max(1, Number(process.env.RUNS ?? 5));
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';
const RESULTS = join(here, 'results', 'live-edit.json');
const TARGET_APPLY_MS = 100;

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};

const RUNTIMES = {
  node: {
    fixtures: join(root, 'test/fixtures/node/live'),
    files: ['server.js', 'pricing.js'],
    server: 'server.js',
    edited: 'pricing.js',
    marker: '// BP:price_bug',
    /** The buggy line, made to answer `n` more each time. */
    line: (n) => `  return unit * qty + ${n}; // BP:price_bug`,
    available: () => true,
  },
  python: {
    fixtures: join(root, 'test/fixtures/e2e/python/live'),
    files: ['shop_server.py', 'pricing.py'],
    server: 'shop_server.py',
    edited: 'pricing.py',
    marker: '# BP:price_bug',
    line: (n) => `    return unit * qty + ${n}  # BP:price_bug`,
    available: () => spawnSync(PYTHON, ['-c', 'import debugpy'], { stdio: 'ignore' }).status === 0,
  },
};

async function timed(work) {
  const t = performance.now();
  const result = await work();
  return { ms: performance.now() - t, result };
}

async function measure(McpTestClient, name, spec) {
  const dir = mkdtempSync(join(tmpdir(), `dbb-bench-live-${name}-`));
  for (const f of spec.files) cpSync(join(spec.fixtures, f), join(dir, f));
  const edited = join(dir, spec.edited);
  const bugLine = readFileSync(edited, 'utf8').split('\n').findIndex((l) => l.includes(spec.marker)) + 1;
  let n = 0;
  const edit = () => {
    const lines = readFileSync(edited, 'utf8').split('\n');
    lines[bugLine - 1] = spec.line(++n);
    writeFileSync(edited, lines.join('\n'));
  };
  const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-live-state-')) } });
  try {
    const launch = await client.call('session_launch', { program: join(dir, spec.server), args: ['100000'], breakpoints: [{ file: edited, line: bugLine }], waitForStop: true, timeoutMs: 60_000 });
    check(launch.structured.stop, `${name}: no first stop: ${launch.text}`);
    const apply = async () => {
      edit();
      const r = await timed(() => client.call('session_apply_changes', {}));
      check(r.result.structured.changes?.[0]?.status === 'applied', `${name}: apply failed: ${r.result.text}`);
      return r.ms;
    };
    const first = await apply();
    const stopped = [];
    for (let i = 0; i < RUNS; i++) stopped.push(await apply());
    const restarts = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await timed(() => client.call('session_restart', { waitForStop: true, timeoutMs: 60_000 }));
      check(r.result.structured.stop, `${name}: restart did not stop: ${r.result.text}`);
      restarts.push(r.ms);
    }
    await client.call('breakpoint_remove', { all: true });
    await client.call('execution_continue', { wait: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const running = [];
    for (let i = 0; i < RUNS; i++) running.push(await apply());
    await client.call('session_stop', {});
    return { firstApplyMs: first, applyStoppedMs: median(stopped), applyRunningMs: median(running), restartToStopMs: median(restarts), samples: { stopped, running, restarts } };
  } finally {
    await client.close();
  }
}

const clientModule = join(root, 'dist/demo/mcpClient.js');
check(existsSync(clientModule), 'dist/ is missing: npm run build');
const { McpTestClient } = await import(pathToFileURL(clientModule).href);
const loadBefore = loadavg()[0];
const results = {};
for (const [name, spec] of Object.entries(RUNTIMES)) {
  if (!spec.available()) {
    console.log(`${name}: not available here, skipped`);
    continue;
  }
  results[name] = await measure(McpTestClient, name, spec);
}
const load = [loadBefore, loadavg()[0]].map((x) => x.toFixed(2));

const f = (x) => `${x.toFixed(0)} ms`;
console.log(`live edit (medians of ${RUNS}; load average ${load.join(' → ')} on ${spawnSync('nproc').stdout?.toString().trim() ?? '?'} cores)`);
console.log('runtime  first apply  apply stopped  apply running  restart to the stop  restart / apply');
for (const [name, r] of Object.entries(results)) {
  const ratio = r.restartToStopMs / Math.max(r.applyStoppedMs, r.applyRunningMs);
  console.log(`${name.padEnd(8)} ${f(r.firstApplyMs).padStart(11)}  ${f(r.applyStoppedMs).padStart(13)}  ${f(r.applyRunningMs).padStart(13)}  ${f(r.restartToStopMs).padStart(19)}  ${ratio.toFixed(1).padStart(14)}×`);
}
console.log('\ntargets:');
const targets = Object.entries(results).map(([name, r]) => {
  const worst = Math.max(r.applyStoppedMs, r.applyRunningMs);
  return { name: `${name} apply of a one-function edit`, value: worst, goal: `≤ ${TARGET_APPLY_MS} ms`, pass: worst <= TARGET_APPLY_MS };
});
for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'MISS'}  ${t.name.padEnd(40)} ${t.goal.padEnd(10)} ${f(t.value)}`);

mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify({ benchmark: 'live-edit', date: new Date().toISOString(), node: process.version, runs: RUNS, unit: 'ms', loadAverage: load, results, targets }, null, 2)}\n`);
console.log(`\nwrote ${RESULTS.slice(root.length + 1)}`);
process.exit(0);
