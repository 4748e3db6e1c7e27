// The first call as fast as the hundredth (issue 21), in one run, through the real MCP client:
//
//   - server start → tools/list: spawn → initialize → tools/list answered, beside a bare Node.js
//     process that answers the same two requests from a file (the floor of any Node.js server here);
//     then tools/list → a session_list answered: the server's lazy part loaded (dist/lazy.cjs);
//   - the fizz workflow (launch + breakpoint → first stop, stack, locals, evaluate, step over, step
//     into, continue to the next hit, stop) for Python and Node.js, each in a fresh server started in
//     the program's folder, three ways:
//       at once   — the launch right after tools/list, as a shell user, a CI job or a new agent does;
//       settled   — the launch BENCH_THINK_MS (2500) after tools/list, once readying is done;
//       ready off — at once, with DEBUGBRIDGE_READY_DEBUGGEE=0 (readying must never make it slower).
//
// Targets: at once ≤ 1.3× settled and ≤ ready off; settled Python ≤ 400 ms, Node.js ≤ 250 ms;
// start → tools/list ≤ 80 ms (on a machine where a bare Node.js process answers in well under that).
// Runs are interleaved; figures are medians of RUNS (default 5) after one uncounted warm-up round.
// Environment: RUNS, BENCH_PYTHON (default /usr/bin/python3), BENCH_THINK_MS.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WORKFLOW_STEPS } from './lib/workflowSteps.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const RUNS = Math.max(1, Number(process.env.RUNS ?? 5));
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 2500);
const CLI = join(root, 'dist', 'cli.cjs');
const { McpTestClient } = await import(pathToFileURL(join(root, 'dist', 'demo', 'mcpClient.js')).href);

const median = (xs) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return undefined;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const fmt = (x, digits = 0) => (x === undefined ? '—' : x.toFixed(digits));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};

// ---- start → tools/list -----------------------------------------------------------------------

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

/** A Node.js server that does nothing but answer initialize and tools/list from a file: the floor. */
function bareServerScript(listFile) {
  return `const list = require('fs').readFileSync(${JSON.stringify(listFile)}, 'utf8');
let pending = '';
process.stdin.on('data', (d) => {
  pending += d;
  let i;
  while ((i = pending.indexOf('\\n')) >= 0) {
    const m = JSON.parse(pending.slice(0, i));
    pending = pending.slice(i + 1);
    if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bare', version: '1' } } }) + '\\n');
    if (m.method === 'tools/list') process.stdout.write('{"jsonrpc":"2.0","id":' + m.id + ',"result":' + list + '}\\n');
  }
});`;
}

/**
 * Spawn → the tools/list answer's last byte, the way a client sees it (initialize, initialized,
 * tools/list); with `thenLoaded`, also tools/list → a session_list answered (the server loaded).
 */
function startToList(command, args, cwd, thenLoaded = false) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let listed;
    const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let buffer = '';
    child.on('error', reject);
    const done = (figures) => {
      child.on('exit', () => resolve(figures));
      child.stdin.end();
    };
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        if (message.id === 1) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify(LIST)}\n`);
        if (message.id === 2) {
          listed = performance.now();
          check(Array.isArray(message.result?.tools), 'tools/list: no tools');
          if (!thenLoaded) done([listed - t0]);
          else child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'session_list', arguments: {} } })}\n`);
        }
        if (message.id === 3) {
          check(message.result?.content, `session_list: ${JSON.stringify(message).slice(0, 300)}`);
          done([listed - t0, performance.now() - listed]);
        }
      }
    });
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  });
}

// ---- the workflow ------------------------------------------------------------------------------

const markerLine = (file, name) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(`# BP:${name}`) || l.includes(`// BP:${name}`)) + 1;
const LANGUAGES = {
  python: { program: join(here, 'fixtures', 'fizzbuzz.py'), expression: 'n * 2 + len(lines)', settledTarget: 400 },
  node: { program: join(here, 'fixtures', 'fizzbuzz.js'), expression: 'n * 2 + lines.length', settledTarget: 250 },
};
const WAYS = {
  atOnce: { label: 'at once', think: 0, ready: '1' },
  settled: { label: `settled (${THINK_MS} ms)`, think: THINK_MS, ready: '1' },
  readyOff: { label: 'at once, ready off', think: 0, ready: '0' },
};

async function workflow(language, way) {
  const { program, expression } = LANGUAGES[language];
  const bp = markerLine(program, 'render');
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-bench-first-'));
  const env = { DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: stateDir, DEBUGBRIDGE_READY_DEBUGGEE: WAYS[way].ready };
  const server = await McpTestClient.start({ env, cwd: dirname(program) });
  const steps = {};
  const timed = async (step, tool, args) => {
    const t = performance.now();
    const r = await server.call(tool, args, { timeoutMs: 60_000 });
    steps[step] = performance.now() - t;
    check(!r.isError, `${language} ${way} ${tool}: ${r.text.slice(0, 300)}`);
    return r;
  };
  try {
    await sleep(WAYS[way].think);
    const launch = await timed('launch', 'session_launch', { program, breakpoints: [{ file: program, line: bp }], waitForStop: true });
    check(launch.structured.stop?.frame?.line === bp, `${language} launch: ${launch.text.slice(0, 300)}`);
    const { sessionId } = launch.structured;
    const start = (await server.call('session_diagnostics', { sessionId })).structured.diagnostics?.engine?.details?.start;
    await timed('stack', 'inspect_stack', { sessionId });
    await timed('locals', 'inspect_variables', { sessionId });
    await timed('evaluate', 'inspect_evaluate', { sessionId, expression });
    await timed('stepOver', 'execution_step', { sessionId, kind: 'over' });
    await timed('stepInto', 'execution_step', { sessionId, kind: 'into' });
    const next = await timed('continue', 'execution_continue', { sessionId });
    check(next.structured.stop?.frame?.line === bp, `${language} continue: ${next.text.slice(0, 300)}`);
    await timed('stop', 'session_stop', { sessionId });
    return { steps, total: WORKFLOW_STEPS.reduce((a, [k]) => a + steps[k], 0), start };
  } finally {
    await server.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

// ---- Python's floor -----------------------------------------------------------------------------

/**
 * Spawn → the debuggee connected to our socket, for a Python that does nothing but what every
 * debuggee must before its first stop: start, import debugpy and pydevd (with our prelude, as our
 * debuggees run) and connect. A launch that arrives right after tools/list cannot be ready sooner,
 * since nothing may be readied before tools/list is answered.
 */
async function pydevdConnected(preludeFile, debugpyDir, program) {
  const listener = createServer();
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address();
  const t0 = performance.now();
  const child = spawn(PYTHON, ['-X', 'frozen_modules=off', preludeFile, debugpyDir, '--connect', `127.0.0.1:${port}`, '--configure-subProcess', 'False', '--configure-qt', 'none', program], { stdio: 'ignore' });
  try {
    return await new Promise((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`the bare debuggee ended (${code}) before connecting`)));
      listener.on('connection', () => resolve(performance.now() - t0));
    });
  } finally {
    child.kill('SIGKILL');
    listener.close();
  }
}

// ---- run ---------------------------------------------------------------------------------------

const python = spawnSync(PYTHON, ['-c', 'import debugpy'], { stdio: 'ignore' }).status === 0;
const languages = python ? ['python', 'node'] : ['node'];
const scratch = mkdtempSync(join(tmpdir(), 'dbb-bench-first-list-'));
const listFile = join(scratch, 'list.json');
{
  // The bare server answers our own tool list: the same bytes on the same pipe.
  const ours = spawnSync(process.execPath, [CLI], { input: `${JSON.stringify(INITIALIZE)}\n${JSON.stringify(LIST)}\n`, encoding: 'utf8', timeout: 60_000 });
  const answer = ours.stdout.split('\n').map((l) => l && JSON.parse(l)).find((m) => m?.id === 2);
  check(answer, `debugbridge did not list its tools: ${ours.stderr}`);
  writeFileSync(listFile, JSON.stringify(answer.result));
}
const bareScript = join(scratch, 'bare.cjs');
writeFileSync(bareScript, bareServerScript(listFile));
const floorProgram = join(scratch, 'nothing.py');
writeFileSync(floorProgram, 'pass\n');
const { debuggeePreludeFile } = await import(pathToFileURL(join(root, 'dist', 'engines', 'python', 'debuggeePrelude.js')).href);
const debugpyDir = python ? spawnSync(PYTHON, ['-c', 'import debugpy, os; print(os.path.dirname(debugpy.__file__))'], { encoding: 'utf8' }).stdout.trim() : undefined;

const load = { before: loadavg().map((x) => Number(x.toFixed(2))) };
const cold = { ours: [], bare: [], loaded: [], pydevd: [] };
const results = Object.fromEntries(languages.map((l) => [l, Object.fromEntries(Object.keys(WAYS).map((w) => [w, []]))]));
try {
  for (let round = 0; round <= RUNS; round++) {
    const warmup = round === 0;
    const [ours, loaded] = await startToList(process.execPath, [CLI], scratch, true);
    const [bare] = await startToList(process.execPath, [bareScript], scratch);
    if (!warmup) cold.ours.push(ours), cold.bare.push(bare), cold.loaded.push(loaded);
    if (python && !warmup) cold.pydevd.push(await pydevdConnected(debuggeePreludeFile(), debugpyDir, floorProgram));
    for (const language of languages) {
      for (const way of Object.keys(WAYS)) {
        const r = await workflow(language, way);
        if (!warmup) results[language][way].push(r);
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
load.after = loadavg().map((x) => Number(x.toFixed(2)));

// ---- print -------------------------------------------------------------------------------------

console.log(`First call (issue 21), median of ${RUNS} rounds, fresh server each run; load average before ${load.before.join(' ')}, after ${load.after.join(' ')}`);
const ourCold = median(cold.ours);
const bareCold = median(cold.bare);
console.log(`server start → tools/list: debugbridge ${fmt(ourCold)} ms, a bare Node.js process answering the same from a file ${fmt(bareCold)} ms (ours above it: ${fmt(ourCold - bareCold)} ms); tools/list → the server loaded (a session_list answered) ${fmt(median(cold.loaded))} ms`);
const targets = [[`start → tools/list ≤ 80 ms`, ourCold <= 80, `${fmt(ourCold)} ms (bare Node.js ${fmt(bareCold)} ms)`]];
for (const language of languages) {
  const m = Object.fromEntries(Object.keys(WAYS).map((w) => [w, { launch: median(results[language][w].map((r) => r.steps.launch)), total: median(results[language][w].map((r) => r.total)) }]));
  console.log(`\n${language} workflow, ms          launch → first stop   whole workflow   ${language === 'python' ? 'launches started as' : ''}`);
  for (const [way, { label }] of Object.entries(WAYS)) {
    const starts = {};
    for (const r of results[language][way]) if (r.start) starts[r.start] = (starts[r.start] ?? 0) + 1;
    console.log(`  ${label.padEnd(28)} ${fmt(m[way].launch).padStart(14)} ${fmt(m[way].total).padStart(16)}   ${Object.entries(starts).map(([s, n]) => `${s} ×${n}`).join(', ')}`);
  }
  for (const [way, { label }] of Object.entries(WAYS)) {
    const perStep = WORKFLOW_STEPS.map(([k]) => `${k} ${fmt(median(results[language][way].map((r) => r.steps[k])))}`).join(', ');
    console.log(`    ${label}, per step: ${perStep}`);
  }
  const overSettled = m.atOnce.total / m.settled.total;
  if (language === 'python') {
    // The settled workflow after its launch, plus the least any launch right after tools/list waits.
    const floor = m.settled.total - m.settled.launch + median(cold.pydevd);
    console.log(`  at once can be no less than ${fmt(floor)} ms = ${fmt(floor / m.settled.total, 2)}× settled: the settled workflow after its launch (${fmt(m.settled.total - m.settled.launch)} ms) + a bare Python importing debugpy and pydevd and connecting, nothing else (${fmt(median(cold.pydevd))} ms)`);
  }
  const overOff = m.atOnce.total / m.readyOff.total;
  console.log(`  at once / settled ${fmt(overSettled, 2)}×, at once / ready off ${fmt(overOff, 2)}× (whole workflow)`);
  targets.push(
    [`${language}: at once ≤ 1.3× settled`, overSettled <= 1.3, `${fmt(m.atOnce.total)} / ${fmt(m.settled.total)} ms = ${fmt(overSettled, 2)}×`],
    [`${language}: at once ≤ ready off`, overOff <= 1, `${fmt(m.atOnce.total)} / ${fmt(m.readyOff.total)} ms = ${fmt(overOff, 2)}×`],
    [`${language}: settled ≤ ${LANGUAGES[language].settledTarget} ms`, m.settled.total <= LANGUAGES[language].settledTarget, `${fmt(m.settled.total)} ms`],
  );
}
if (!python) console.log(`\nno Python workflow: ${PYTHON} cannot import debugpy (set BENCH_PYTHON)`);
console.log('\ntargets:');
for (const [name, pass, figure] of targets) console.log(`  ${pass ? 'PASS' : 'MISS'}  ${name.padEnd(34)} ${figure}`);
