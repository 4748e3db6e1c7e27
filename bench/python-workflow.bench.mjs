// The issue's benchmark: the Python debugging workflow an agent runs through MCP, step by step,
// side by side in the same run with
//   - debugbridge as it starts by default (a ready debuggee prepared when the server starts),
//   - debugbridge with ready debuggees off (DEBUGBRIDGE_READY_DEBUGGEE=0: every launch the normal way),
//   - a raw DAP client talking to `python -m debugpy.adapter` itself (the floor debugpy as shipped
//     gives any client: no MCP, no server, no socket tuning; bench/lib/rawDapWorkflow.mjs),
//   - @debugmcp/mcp-debugger 0.24.2.
//
//   launch with a breakpoint → wait for the stop → stack → locals → evaluate → step over →
//   step into → continue to the next hit → stop
//
// Every MCP run starts a fresh server process (so cold start = spawn → initialize → tools/list
// answered counts), drives it through a real MCP client over stdio and times each tools/call
// from the client's side. An agent reads the tool list before its first call: every run waits
// BENCH_THINK_MS (1500) after tools/list, the same for every server (the raw client prepares
// nothing ahead, so it starts at once). Runs are interleaved; the figures are medians of RUNS
// runs (default 5) after one uncounted warm-up run each (page cache, .pyc files). For
// debugbridge, session_diagnostics (not timed) gives each launch's own steps: which way it
// started and when each step ended; after the workflow, the same launch again in the same server
// (BENCH_THINK_MS after session_stop) shows a relaunch, outside the workflow's total.
//
// mcp-debugger is installed on demand into bench/.cache/ (ignored by git). If it cannot be
// installed or started, our own figures are still printed and the comparison says why it is
// missing; the exit code is non-zero only when our own workflow fails.
//
// Environment: RUNS (default 5), BENCH_PYTHON (default /usr/bin/python3: a Python that can
// import debugpy), BENCH_CALL_TIMEOUT_MS (default 30000), BENCH_CACHE (install folder),
// BENCH_NO_COMPARE=1 (skip mcp-debugger), BENCH_POLL_MS (mcp-debugger's wait loop, default 5),
// BENCH_THINK_MS (default 1500).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installMcpd, MCPD_PACKAGE, MCPD_VERSION } from './lib/mcpDebugger.mjs';
import { runRawDap } from './lib/rawDapWorkflow.mjs';
import { WORKFLOW_STEPS } from './lib/workflowSteps.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const RUNS = Math.max(1, Number(process.env.RUNS ?? 5));
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const CALL_TIMEOUT_MS = Number(process.env.BENCH_CALL_TIMEOUT_MS ?? 30_000);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 5);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1500);
const RESULTS = join(here, 'results', 'python-workflow.json');

const PROGRAM = join(here, 'fixtures', 'fizzbuzz.py');
const SOURCE = readFileSync(PROGRAM, 'utf8').split('\n');
const marker = (name) => SOURCE.findIndex((l) => l.includes(`# BP:${name}`)) + 1;
const BP_LINE = marker('render'); // prefix = ...            (the breakpoint, hit once per number)
const CALL_LINE = marker('classify-call'); // word = classify(n) (where step over lands)
const EXPRESSION = 'n * 2 + len(lines)';

const TARGETS = {
  firstStopMs: 200,
  workflowMs: 400,
  coldStartMs: 80,
  totalRatio: 0.25,
  localsMs: 25,
  stopMs: 60,
  rssMiB: 60,
};

// The rows of the table, in order. `launch` covers "launch with a breakpoint" and "wait": our
// session_launch waits for the first stop itself (waitForStop), mcp-debugger needs
// create_debug_session + set_breakpoint + start_debugging (which also waits) — its sub-steps are
// printed below the table.
const STEPS = [['cold', 'cold start → tools/list'], ['coldClient', '  (listTools() resolved)'], ...WORKFLOW_STEPS];
const WORKFLOW = STEPS.map(([k]) => k).filter((k) => !k.startsWith('cold'));

// ---------------------------------------------------------------------------------------------
// small helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return undefined;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const fmt = (x, digits = 1) => (x === undefined ? '—' : x.toFixed(digits));
const withTimeout = (promise, ms, what) => {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
};
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};

// ---- processes: /proc is the source of truth (Linux only; elsewhere RSS figures are missing) --

function procStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const rest = s.slice(close + 2).split(' ');
    return { pid, comm, state: rest[0], ppid: Number(rest[1]), start: rest[19] };
  } catch {
    return undefined;
  }
}

function allProcs() {
  const out = [];
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const st = procStat(Number(e));
    if (st) out.push(st);
  }
  return out;
}

/** The process and all its live descendants, with their start times (to avoid killing a reused pid). */
function processTree(rootPid) {
  if (!rootPid) return [];
  const procs = allProcs();
  const children = new Map();
  for (const p of procs) {
    if (!children.has(p.ppid)) children.set(p.ppid, []);
    children.get(p.ppid).push(p);
  }
  const self = procs.find((p) => p.pid === rootPid);
  if (!self) return [];
  const tree = [];
  const queue = [self];
  while (queue.length) {
    const p = queue.shift();
    tree.push(p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return tree;
}

function rssKiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** A short label for a process: node script or python module. */
function describe(p) {
  const argv = cmdline(p.pid);
  const base = (s) => s.split('/').pop();
  if (p.comm === 'node' || base(argv[0] ?? '') === 'node') {
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    return `node ${script ? base(script) : ''}`.trim();
  }
  if (/python/.test(p.comm)) {
    if (argv.includes('-c')) return 'python -c …';
    const m = argv.indexOf('-m');
    if (m >= 0) return `python -m ${argv[m + 1]}`;
    const script = argv.slice(1).find((a) => a.endsWith('.py'));
    return `python ${script ? base(script) : ''}`.trim();
  }
  return p.comm;
}

/** RSS of a process tree, split into the server itself, its node helpers and the rest. */
function memorySnapshot(serverPid) {
  const tree = processTree(serverPid);
  const procs = tree.map((p) => ({ pid: p.pid, what: describe(p), rssKiB: rssKiB(p.pid) ?? 0 }));
  const sum = (xs) => xs.reduce((a, p) => a + p.rssKiB, 0) / 1024;
  const isNode = (p) => p.what.startsWith('node');
  return {
    serverMiB: (procs.find((p) => p.pid === serverPid)?.rssKiB ?? 0) / 1024,
    nodeTreeMiB: sum(procs.filter(isNode)),
    treeMiB: sum(procs),
    procs,
  };
}

// Every process we saw belong to a run; killed at the end if still alive.
const seen = new Map(); // pid → start time
function remember(serverPid) {
  for (const p of processTree(serverPid)) seen.set(p.pid, p.start);
}
function survivors(pids) {
  return [...pids].filter((pid) => {
    const st = procStat(pid);
    return st && st.start === seen.get(pid) && st.state !== 'Z';
  });
}
async function reap(pids, graceMs = 3000) {
  const deadline = Date.now() + graceMs;
  let left = survivors(pids);
  while (left.length && Date.now() < deadline) {
    await sleep(50);
    left = survivors(left);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  return left;
}
function killAllSync() {
  for (const pid of survivors(seen.keys())) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}
process.on('exit', killAllSync);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    killAllSync();
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// MCP clients

const sdkClient = await import('@modelcontextprotocol/sdk/client/index.js');
const sdkStdio = await import('@modelcontextprotocol/sdk/client/stdio.js');

/** A plain SDK client (used for mcp-debugger) with the same call shape as McpTestClient. */
async function startSdkServer({ command, args, env, cwd }) {
  const transport = new sdkStdio.StdioClientTransport({
    command,
    args,
    env: { ...sdkStdio.getDefaultEnvironment(), ...env },
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const client = new sdkClient.Client({ name: 'debugbridge-bench', version: '1.0.0' });
  const handle = {
    client,
    transport,
    get pid() {
      return transport.pid ?? undefined;
    },
    get stderr() {
      return stderr;
    },
    async call(name, callArgs = {}) {
      const result = await client.callTool({ name, arguments: callArgs }, undefined, { timeout: CALL_TIMEOUT_MS });
      const text = (result.content ?? [])
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('\n');
      let json;
      try {
        json = JSON.parse(text);
      } catch {}
      return { text, structured: result.structuredContent ?? json ?? {}, isError: result.isError === true };
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
  try {
    await withTimeout(client.connect(transport), CALL_TIMEOUT_MS, 'initialize');
  } catch (error) {
    await handle.close();
    const tail = stderr.trim().split('\n').slice(-5).join('\n  ');
    throw new Error(`could not start ${command} ${args.join(' ')}: ${error.message}${tail ? `\n  server stderr (tail): ${tail}` : ''}`);
  }
  return handle;
}

/** Times each call; `lap` records into the run's step table. */
function timer() {
  const steps = {};
  const calls = [];
  return {
    steps,
    calls,
    async timed(server, name, args, { label } = {}) {
      const t = performance.now();
      const r = await withTimeout(server.call(name, args, { timeoutMs: CALL_TIMEOUT_MS }), CALL_TIMEOUT_MS + 1000, name);
      const ms = performance.now() - t;
      calls.push({ tool: name, ms, label });
      if (r.isError) throw new Error(`${name} failed: ${r.text.slice(0, 400)}`);
      return { ...r, ms };
    },
    add(step, ms) {
      steps[step] = (steps[step] ?? 0) + ms;
    },
  };
}

/**
 * Cold start: spawn → initialize → tools/list answered. Timed to the arrival of the tools/list
 * answer on the client's transport, not to listTools() resolving: the SDK client then validates
 * the list with zod and compiles an ajv validator for every outputSchema, client-side work that
 * grows with the number of tools (both figures are kept; the client's is `coldClient`).
 */
async function listToolsTimed(server, t0, t) {
  const transport = server.transport;
  const delivered = transport.onmessage;
  let arrived;
  transport.onmessage = (message, extra) => {
    if (arrived === undefined && 'result' in message && Array.isArray(message.result?.tools)) arrived = performance.now();
    delivered?.call(transport, message, extra);
  };
  try {
    await withTimeout(server.client.listTools(), CALL_TIMEOUT_MS, 'tools/list');
  } finally {
    transport.onmessage = delivered;
  }
  const done = performance.now();
  t.add('cold', (arrived ?? done) - t0);
  t.add('coldClient', done - t0);
}

// ---------------------------------------------------------------------------------------------
// debugbridge

const ourClientModule = join(root, 'dist', 'demo', 'mcpClient.js');

async function runOurs(stateDir, { ready }) {
  const { McpTestClient } = await import(pathToFileURL(ourClientModule).href);
  const t = timer();
  const t0 = performance.now();
  const env = { DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: stateDir, DEBUGBRIDGE_READY_DEBUGGEE: ready ? '1' : '0' };
  let server;
  try {
    // In the program's folder, as an agent in a Python project runs it: Python is in play (core/readiness.ts).
    server = await withTimeout(McpTestClient.start({ env, cwd: dirname(PROGRAM), listTools: false }), CALL_TIMEOUT_MS, 'debugbridge initialize');
  } catch (error) {
    // The client hides the server's stderr until it has connected: start it once more by hand to show why.
    const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js')], {
      input: `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 10_000,
    });
    const tail = (r.stderr ?? '').trim().split('\n').slice(-5).join('\n  ');
    error.message += `\n  a second start by hand answered ${r.stdout ? 'something' : 'nothing'}${tail ? `; its stderr:\n  ${tail}` : ''}`;
    throw error;
  }
  const pid = server.pid;
  remember(pid);
  const memory = {};
  let launchSteps;
  let relaunch;
  try {
    await listToolsTimed(server, t0, t);
    await sleep(THINK_MS);

    const launch = await t.timed(server, 'session_launch', {
      program: PROGRAM,
      breakpoints: [{ file: PROGRAM, line: BP_LINE }],
      waitForStop: true,
    });
    remember(pid);
    t.add('launch', launch.ms);
    check(launch.structured.stop?.frame?.line === BP_LINE, `launch: expected a stop at line ${BP_LINE}, got ${launch.text.slice(0, 300)}`);
    const sessionId = launch.structured.sessionId;
    launchSteps = await launchStepsOf(server, sessionId);

    const stack = await t.timed(server, 'inspect_stack', { sessionId });
    t.add('stack', stack.ms);
    check(stack.structured.frames?.[0]?.name === 'render', `stack: ${stack.text.slice(0, 200)}`);

    const locals = await t.timed(server, 'inspect_variables', { sessionId });
    t.add('locals', locals.ms);
    check((locals.structured.variables ?? []).some((v) => v.name === 'n'), `locals: ${locals.text.slice(0, 200)}`);

    const evaluated = await t.timed(server, 'inspect_evaluate', { sessionId, expression: EXPRESSION });
    t.add('evaluate', evaluated.ms);
    check(evaluated.structured.value === '2', `evaluate: ${evaluated.text.slice(0, 200)}`);

    const over = await t.timed(server, 'execution_step', { sessionId, kind: 'over' });
    t.add('stepOver', over.ms);
    check(over.structured.stop?.frame?.line === CALL_LINE, `step over: ${over.text.slice(0, 200)}`);

    const into = await t.timed(server, 'execution_step', { sessionId, kind: 'into' });
    t.add('stepInto', into.ms);
    check(into.structured.stop?.frame?.name === 'classify', `step into: ${into.text.slice(0, 200)}`);

    const next = await t.timed(server, 'execution_continue', { sessionId });
    t.add('continue', next.ms);
    check(next.structured.stop?.frame?.line === BP_LINE, `continue: ${next.text.slice(0, 200)}`);
    remember(pid);
    memory.atLastStop = memorySnapshot(pid);

    const stopped = await t.timed(server, 'session_stop', { sessionId });
    t.add('stop', stopped.ms);
    memory.afterStop = memorySnapshot(pid);

    // The agent reads the answer, then launches the program again (not part of the workflow's total).
    await sleep(THINK_MS);
    const again = await t.timed(server, 'session_launch', { program: PROGRAM, breakpoints: [{ file: PROGRAM, line: BP_LINE }], waitForStop: true });
    check(again.structured.stop?.frame?.line === BP_LINE, `relaunch: ${again.text.slice(0, 300)}`);
    relaunch = { ms: again.ms, ...(await launchStepsOf(server, again.structured.sessionId)) };
    await server.call('session_stop', { sessionId: again.structured.sessionId });
  } finally {
    await server.close();
  }
  const lingering = await reap([...seen.keys()]);
  return { steps: t.steps, calls: t.calls, memory, lingering, launchSteps, relaunch };
}

/** How the launch went inside the server (session_diagnostics, not timed): its way and its steps. */
async function launchStepsOf(server, sessionId) {
  const d = (await server.call('session_diagnostics', { sessionId })).structured.diagnostics ?? {};
  const details = d.engine?.details ?? {};
  return { start: details.start, startNote: details.startNote, ...details.launchSteps, firstStopBuilt: d.timings?.firstStopBuiltMs };
}

// ---------------------------------------------------------------------------------------------
// the raw DAP client

async function runRaw() {
  const t0 = performance.now();
  const { steps } = await runRawDap({ python: PYTHON, program: PROGRAM, bpLine: BP_LINE, expression: EXPRESSION, timeoutMs: CALL_TIMEOUT_MS });
  await reap([...seen.keys()]);
  return { steps, totalMs: performance.now() - t0 };
}

// ---------------------------------------------------------------------------------------------
// mcp-debugger

async function runMcpd(entry, cwd) {
  const t = timer();
  const t0 = performance.now();
  const server = await startSdkServer({ command: process.execPath, args: [entry, 'stdio'], env: { PYTHON_PATH: PYTHON }, cwd });
  const pid = server.pid;
  remember(pid);
  const memory = {};
  const sub = {};
  const note = (k, ms) => (sub[k] = (sub[k] ?? 0) + ms);
  let polls = 0;
  /** mcp-debugger has no blocking wait: poll list_debug_sessions until the session is paused with a new stop. */
  const waitPaused = async (sessionId, after) => {
    const deadline = performance.now() + CALL_TIMEOUT_MS;
    for (;;) {
      const r = await t.timed(server, 'list_debug_sessions', {});
      polls++;
      const s = (r.structured.sessions ?? []).find((x) => x.id === sessionId);
      if (s?.state === 'paused' && s.lastStop && s.lastStop.timestamp !== after) return { ms: r.ms, lastStop: s.lastStop };
      if (!s || ['stopped', 'terminated', 'exited', 'error'].includes(s.state)) throw new Error(`session ended while waiting: ${r.text.slice(0, 300)}`);
      if (performance.now() > deadline) throw new Error('timed out waiting for the session to pause');
      await sleep(POLL_MS);
    }
  };
  const lastStopOf = async (sessionId) => {
    const r = await server.call('list_debug_sessions', {});
    return (r.structured.sessions ?? []).find((x) => x.id === sessionId)?.lastStop?.timestamp;
  };
  try {
    await listToolsTimed(server, t0, t);
    await sleep(THINK_MS);

    // launch with a breakpoint, and wait for the first stop
    let mark = performance.now();
    const created = await t.timed(server, 'create_debug_session', { language: 'python', executablePath: PYTHON });
    note('create_debug_session', created.ms);
    const sessionId = created.structured.sessionId;
    check(sessionId, `create_debug_session: ${created.text.slice(0, 200)}`);
    const bp = await t.timed(server, 'set_breakpoint', { sessionId, file: PROGRAM, line: BP_LINE });
    note('set_breakpoint', bp.ms);
    const started = await t.timed(server, 'start_debugging', { sessionId, scriptPath: PROGRAM });
    note('start_debugging', started.ms);
    remember(pid);
    const waitStart = performance.now();
    if (started.structured.state !== 'paused') await waitPaused(sessionId, undefined);
    note('wait (poll list_debug_sessions)', performance.now() - waitStart);
    t.add('launch', performance.now() - mark);

    const stack = await t.timed(server, 'get_stack_trace', { sessionId });
    t.add('stack', stack.ms);
    check(stack.structured.stackFrames?.[0]?.line === BP_LINE, `get_stack_trace: ${stack.text.slice(0, 200)}`);

    const locals = await t.timed(server, 'get_local_variables', { sessionId });
    t.add('locals', locals.ms);
    check((locals.structured.variables ?? []).some((v) => v.name === 'n'), `get_local_variables: ${locals.text.slice(0, 200)}`);

    const evaluated = await t.timed(server, 'evaluate_expression', { sessionId, expression: EXPRESSION });
    t.add('evaluate', evaluated.ms);
    check(String(evaluated.structured.result) === '2', `evaluate_expression: ${evaluated.text.slice(0, 200)}`);

    // step_over / step_into wait for the stop themselves (up to ~5 s, else pending: poll)
    for (const [step, tool, line] of [
      ['stepOver', 'step_over', CALL_LINE],
      ['stepInto', 'step_into', undefined],
    ]) {
      const before = await lastStopOf(sessionId);
      mark = performance.now();
      const r = await t.timed(server, tool, { sessionId });
      if (r.structured.state !== 'paused' || r.structured.pending) await waitPaused(sessionId, before);
      t.add(step, performance.now() - mark);
      // step into lands in classify(), which is above render() in the file
      if (line !== undefined) check(r.structured.location?.line === line, `${tool}: ${r.text.slice(0, 200)}`);
      else check(r.structured.location?.line < BP_LINE, `${tool}: ${r.text.slice(0, 200)}`);
    }

    // continue_execution returns at once: wait for the next hit by polling
    const before = await lastStopOf(sessionId);
    mark = performance.now();
    await t.timed(server, 'continue_execution', { sessionId });
    await waitPaused(sessionId, before);
    t.add('continue', performance.now() - mark);
    remember(pid);
    memory.atLastStop = memorySnapshot(pid);
    const hit = await server.call('get_stack_trace', { sessionId });
    check(hit.structured.stackFrames?.[0]?.line === BP_LINE, `next hit: ${hit.text.slice(0, 200)}`);

    const closed = await t.timed(server, 'close_debug_session', { sessionId });
    t.add('stop', closed.ms);
    memory.afterStop = memorySnapshot(pid);
  } catch (error) {
    error.message += server.stderr ? `\n  server stderr (tail): ${server.stderr.trim().split('\n').slice(-5).join('\n  ')}` : '';
    throw error;
  } finally {
    await server.close();
  }
  const lingering = await reap([...seen.keys()]);
  return { steps: t.steps, calls: t.calls, sub, polls, memory, lingering };
}

// ---------------------------------------------------------------------------------------------
// main

function pythonStatus() {
  const r = spawnSync(PYTHON, ['-c', 'import debugpy, sys; print(debugpy.__version__, sys.version.split()[0])'], { encoding: 'utf8', timeout: 20_000 });
  if (r.status === 0) return { ok: true, version: r.stdout.trim() };
  return { ok: false, reason: r.error ? r.error.message : (r.stderr || '').trim().split('\n').pop() };
}

if (!existsSync(ourClientModule)) {
  console.log(`python-workflow: ${ourClientModule} is missing: run \`npm run build\` first`);
  process.exit(1);
}
const py = pythonStatus();
if (!py.ok) {
  console.log(`python-workflow: skipped: ${PYTHON} cannot import debugpy (${py.reason}); set BENCH_PYTHON`);
  process.exit(0);
}

const load = { before: loadavg().map((x) => Number(x.toFixed(2))) };
// Whether dist/ holds a current build-time tool catalog (initialize and tools/list answered before
// the SDK loads); a stale one (dist rebuilt by tsc alone) means the slower path through the SDK.
let catalogCurrent;
try {
  const { loadCatalog } = await import(pathToFileURL(join(root, 'dist', 'server', 'toolCatalog.js')).href);
  const { VERSION } = await import(pathToFileURL(join(root, 'dist', 'version.js')).href);
  catalogCurrent = loadCatalog(VERSION) !== undefined;
} catch {
  catalogCurrent = undefined;
}
// The floor under any cold start on this machine right now: a node process that does nothing.
const nodeFloorMs = median(
  Array.from({ length: 5 }, () => {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore', timeout: 20_000 });
    return performance.now() - t;
  }),
);
let mcpd = { reason: undefined, entry: undefined };
if (process.env.BENCH_NO_COMPARE === '1') mcpd.reason = 'BENCH_NO_COMPARE=1';
else {
  try {
    mcpd = installMcpd();
  } catch (error) {
    mcpd = { reason: `could not install ${MCPD_PACKAGE}@${MCPD_VERSION}: ${error.message}` };
  }
}

const stateDir = mkdtempSync(join(tmpdir(), 'dbb-bench-state-'));
const mcpdCwd = mkdtempSync(join(tmpdir(), 'dbb-bench-mcpd-'));
const previous = (() => {
  try {
    return JSON.parse(readFileSync(RESULTS, 'utf8'));
  } catch {
    return undefined;
  }
})();
const ours = [];
const oursOff = [];
const raw = [];
const theirs = [];
let ourFailure;
let rawFailure;
try {
  for (let i = 0; i <= RUNS; i++) {
    const warmup = i === 0;
    try {
      const r = await runOurs(stateDir, { ready: true });
      if (!warmup) ours.push(r);
      const off = await runOurs(stateDir, { ready: false });
      if (!warmup) oursOff.push(off);
    } catch (error) {
      ourFailure = error;
      break;
    }
    if (!rawFailure) {
      try {
        const r = await runRaw();
        if (!warmup) raw.push(r);
      } catch (error) {
        rawFailure = error;
      }
    }
    if (mcpd.entry && !mcpd.reason) {
      try {
        const r = await runMcpd(mcpd.entry, mcpdCwd);
        if (!warmup) theirs.push(r);
      } catch (error) {
        mcpd.reason = `mcp-debugger's workflow failed on run ${i}${warmup ? ' (warm-up)' : ''}: ${error.message}`;
      }
    }
  }
} finally {
  killAllSync();
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(mcpdCwd, { recursive: true, force: true });
}
load.after = loadavg().map((x) => Number(x.toFixed(2)));

if (ourFailure) {
  console.log(`python-workflow: FAILED: debugbridge's workflow failed: ${ourFailure.stack ?? ourFailure.message}`);
  process.exit(1);
}
const compared = theirs.length === RUNS && !mcpd.reason;
if (!compared && !mcpd.reason) mcpd.reason = 'mcp-debugger did not complete every run';

// ---- aggregate ----
const totalOf = (r) => WORKFLOW.reduce((a, k) => a + (r.steps[k] ?? 0), 0);
const summarize = (runs) => {
  if (runs.length === 0) return undefined;
  const steps = {};
  for (const [k] of STEPS) steps[k] = median(runs.map((r) => r.steps[k]));
  const mem = (when, field) => median(runs.map((r) => r.memory?.[when]?.[field]));
  return {
    steps,
    total: median(runs.map(totalOf)),
    totalWithCold: median(runs.map((r) => totalOf(r) + (r.steps.cold ?? 0))),
    memory: runs[0].memory && {
      atLastStop: { serverMiB: mem('atLastStop', 'serverMiB'), nodeTreeMiB: mem('atLastStop', 'nodeTreeMiB'), treeMiB: mem('atLastStop', 'treeMiB') },
      afterStop: { serverMiB: mem('afterStop', 'serverMiB'), nodeTreeMiB: mem('afterStop', 'nodeTreeMiB'), treeMiB: mem('afterStop', 'treeMiB') },
      processesAtLastStop: runs.at(-1).memory.atLastStop?.procs.map((p) => `${p.what} ${fmt(p.rssKiB / 1024)} MiB`),
      processesAfterStop: runs.at(-1).memory.afterStop?.procs.map((p) => `${p.what} ${fmt(p.rssKiB / 1024)} MiB`),
    },
    lingering: runs.flatMap((r) => r.lingering ?? []),
    launchSteps: runs[0].launchSteps && summarizeLaunchSteps(runs.map((r) => r.launchSteps)),
    perRun: runs.map((r) => ({ ...r.steps, total: totalOf(r) })),
  };
};
/** Median end of each launch step, and which ways the launches started. */
function summarizeLaunchSteps(all) {
  const ways = {};
  for (const r of all) ways[r.start ?? '?'] = (ways[r.start ?? '?'] ?? 0) + 1;
  const keys = [...new Set(all.flatMap((r) => Object.keys(r).filter((k) => typeof r[k] === 'number')))];
  const medians = Object.fromEntries(keys.map((k) => [k, median(all.map((r) => r[k]))]).sort((x, y) => x[1] - y[1]));
  return { ways, notes: [...new Set(all.map((r) => r.startNote).filter(Boolean))], medians };
}
const a = summarize(ours);
const off = summarize(oursOff);
const floor = summarize(raw);
const b = compared ? summarize(theirs) : undefined;
const ratio = (x, y) => (x !== undefined && y ? x / y : undefined);

// ---- print ----
const W = [26, 12, 12, 12, 13, 8];
const row = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(W[0]) : String(c).padStart(W[i]))).join(' ');
console.log(`Python workflow (${PYTHON}, debugpy ${py.version}), median of ${RUNS} runs, fresh server each run, ${THINK_MS} ms after tools/list, ms`);
console.log(`load average before ${load.before.join(' ')}, after ${load.after.join(' ')}; \`node -e 0\` takes ${fmt(nodeFloorMs)} ms here (the floor of any cold start)`);
console.log(`debugbridge's build-time tool catalog: ${catalogCurrent === undefined ? 'not in this build' : catalogCurrent ? 'current' : 'STALE (npm run build rewrites it): cold start went through the SDK'}`);
console.log(row(['step', 'debugbridge', 'ready off', 'raw DAP', 'mcp-debugger', 'ratio']));
console.log(row(['', '', '', '(floor)', '', 'to mcpd']));
for (const [k, label] of STEPS) {
  console.log(row([label, fmt(a.steps[k]), fmt(off.steps[k]), fmt(floor?.steps[k]), fmt(b?.steps[k]), b?.steps[k] ? fmt(ratio(a.steps[k], b.steps[k]), 3) : '—']));
}
console.log(row(['total (launch → stop)', fmt(a.total), fmt(off.total), fmt(floor?.total), fmt(b?.total), b ? fmt(ratio(a.total, b.total), 3) : '—']));
console.log(row(['total incl. cold start', fmt(a.totalWithCold), fmt(off.totalWithCold), '', fmt(b?.totalWithCold), b ? fmt(ratio(a.totalWithCold, b.totalWithCold), 3) : '—']));
console.log(row(['server RSS after stop, MiB', fmt(a.memory.afterStop.serverMiB), fmt(off.memory.afterStop.serverMiB), '', fmt(b?.memory.afterStop.nodeTreeMiB), b ? fmt(ratio(a.memory.afterStop.serverMiB, b.memory.afterStop.nodeTreeMiB), 3) : '—']));
if (floor) {
  console.log(`\nlaunch → first stop against the raw DAP floor: ${fmt(ratio(a.steps.launch, floor.steps.launch), 3)}× with a ready debuggee, ${fmt(ratio(off.steps.launch, floor.steps.launch), 3)}× without`);
} else {
  console.log(`\nno raw DAP floor: ${rawFailure?.message}`);
}
// Under heavy load the first ready debuggee may still be preparing when the launch comes (the launch
// then waits for the rest of its preparation): say how often it was already waiting.
const waitingAtLaunch = ours.filter((r) => (r.launchSteps?.ready ?? Infinity) < 5);
console.log(
  `the ready debuggee was already waiting when the launch came in ${waitingAtLaunch.length} of ${ours.length} runs` +
    (waitingAtLaunch.length ? ` (launch → first stop median over those: ${fmt(median(waitingAtLaunch.map((r) => r.steps.launch)))} ms)` : ''),
);
for (const [name, runs] of [['debugbridge', ours], ['ready off', oursOff]]) {
  const again = runs.map((r) => r.relaunch).filter(Boolean);
  const ways = [...new Set(again.map((r) => r.start))].map((w) => `${w} ×${again.filter((r) => r.start === w).length}`).join(', ');
  console.log(`${name}, the same launch again ${THINK_MS} ms after session_stop (same server): launch → first stop median ${fmt(median(again.map((r) => r.ms)))} ms (${ways})`);
}
const prevLaunch = previous?.debugbridge?.steps?.launch;
if (prevLaunch !== undefined) console.log(`previous run of this benchmark (${previous.date}): debugbridge launch → first stop ${fmt(prevLaunch)} ms`);
for (const [name, s] of [['debugbridge', a], ['ready off', off]]) {
  const l = s.launchSteps;
  if (!l) continue;
  console.log(`${name}: launches started as ${Object.entries(l.ways).map(([w, n]) => `${w} ×${n}`).join(', ')}${l.notes.length ? ` (${l.notes.join('; ')})` : ''}`);
  console.log(`  inside session_launch, median ms from its start to the end of each step: ${Object.entries(l.medians).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
}
if (b) {
  console.log('\nmcp-debugger mapping: launch = create_debug_session + set_breakpoint + start_debugging (waits for the');
  console.log('  first stop) [+ list_debug_sessions polls if not yet paused]; stack = get_stack_trace; locals =');
  console.log('  get_local_variables; evaluate = evaluate_expression; step over/into = step_over/step_into (they wait');
  console.log(`  for the stop); continue = continue_execution + list_debug_sessions polled every ${POLL_MS} ms until paused`);
  console.log('  (it has no blocking continue); stop = close_debug_session. Our launch is one session_launch with');
  console.log('  waitForStop, our continue one execution_continue (waits for the next stop).');
  const subs = Object.keys(theirs[0].sub);
  console.log(`  launch sub-steps (median ms): ${subs.map((k) => `${k} ${fmt(median(theirs.map((r) => r.sub[k])))}`).join(', ')}`);
  console.log(`  list_debug_sessions polls per run (median): ${median(theirs.map((r) => r.polls))}`);
} else {
  console.log(`\nno comparison with mcp-debugger: ${mcpd.reason}`);
}
console.log('raw DAP: the same steps straight over DAP to `python -m debugpy.adapter` (launch = spawn → first `stopped`;');
console.log('  locals = scopes + variables; stop = disconnect with terminateDebuggee), without MCP or any server.');
const memLine = (name, s) =>
  `${name}: at the last stop server ${fmt(s.memory.atLastStop.serverMiB)} MiB, node processes ${fmt(s.memory.atLastStop.nodeTreeMiB)} MiB, whole tree ${fmt(s.memory.atLastStop.treeMiB)} MiB [${(s.memory.processesAtLastStop ?? []).join('; ')}]; after stop server ${fmt(s.memory.afterStop.serverMiB)} MiB, node processes ${fmt(s.memory.afterStop.nodeTreeMiB)} MiB [${(s.memory.processesAfterStop ?? []).join('; ')}]`;
console.log('\nRSS (VmRSS, median):');
console.log(`  ${memLine('debugbridge', a)}`);
console.log(`  ${memLine('debugbridge, ready off', off)}`);
if (b) console.log(`  ${memLine('mcp-debugger', b)}`);
console.log('  (mcp-debugger figure in the table = its node processes: the server and its DAP proxy child if alive;');
console.log('   python processes — debugpy adapter, launcher, debuggee, a ready debuggee — are not counted for either server)');
for (const [name, s] of [['debugbridge', a], ['debugbridge, ready off', off], ['mcp-debugger', b]]) {
  if (s?.lingering.length) console.log(`  note: ${name} left ${s.lingering.length} process(es) alive after closing; killed: ${s.lingering.join(', ')}`);
}

const targets = [
  ['launch → first stop, ready debuggee', a.steps.launch, `≤ ${TARGETS.firstStopMs} ms`, a.steps.launch <= TARGETS.firstStopMs, `${fmt(a.steps.launch)} ms`],
  ['workflow total, ready debuggee', a.total, `≤ ${TARGETS.workflowMs} ms`, a.total <= TARGETS.workflowMs, `${fmt(a.total)} ms`],
  [
    'launch without one ≤ raw DAP floor',
    floor ? ratio(off.steps.launch, floor.steps.launch) : undefined,
    '≤ 1 ×',
    floor ? off.steps.launch <= floor.steps.launch : undefined,
    floor ? `${fmt(off.steps.launch)} / ${fmt(floor.steps.launch)} ms = ${fmt(ratio(off.steps.launch, floor.steps.launch), 3)} ×` : 'no floor',
  ],
  ['cold start to tools/list', a.steps.cold, `≤ ${TARGETS.coldStartMs} ms`, a.steps.cold <= TARGETS.coldStartMs, `${fmt(a.steps.cold)} ms`],
  [
    'workflow total vs mcp-debugger',
    b ? ratio(a.total, b.total) : undefined,
    `≤ ${TARGETS.totalRatio} ×`,
    b ? ratio(a.total, b.total) <= TARGETS.totalRatio : undefined,
    b ? `${fmt(a.total)} / ${fmt(b.total)} ms = ${fmt(ratio(a.total, b.total), 3)} ×` : `${fmt(a.total)} ms (no comparison)`,
  ],
  ['top-frame locals', a.steps.locals, `≤ ${TARGETS.localsMs} ms`, a.steps.locals <= TARGETS.localsMs, `${fmt(a.steps.locals)} ms`],
  ['session_stop', a.steps.stop, `≤ ${TARGETS.stopMs} ms`, a.steps.stop <= TARGETS.stopMs, `${fmt(a.steps.stop)} ms`],
  [
    'server RSS after the workflow',
    a.memory.afterStop.serverMiB,
    `≤ ${TARGETS.rssMiB} MiB`,
    a.memory.afterStop.serverMiB ? a.memory.afterStop.serverMiB <= TARGETS.rssMiB : undefined,
    `${fmt(a.memory.afterStop.serverMiB)} MiB`,
  ],
];
console.log('\ntargets:');
for (const [name, , goal, pass, figure] of targets) {
  console.log(`  ${pass === undefined ? 'N/A ' : pass ? 'PASS' : 'MISS'}  ${name.padEnd(36)} ${goal.padEnd(10)} ${figure}`);
}

// ---- JSON ----
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(
  RESULTS,
  JSON.stringify(
    {
      benchmark: 'python-workflow',
      date: new Date().toISOString(),
      node: process.version,
      python: { path: PYTHON, debugpyAndVersion: py.version },
      runs: RUNS,
      thinkMs: THINK_MS,
      unit: 'ms (RSS in MiB)',
      loadAverage: load,
      nodeFloorMs,
      toolCatalogCurrent: catalogCurrent ?? null,
      workflow: WORKFLOW,
      fixture: 'bench/fixtures/fizzbuzz.py',
      debugbridge: a,
      debugbridgeReadyOff: off,
      readyWaitingAtLaunch: { runs: waitingAtLaunch.length, launchMedian: median(waitingAtLaunch.map((r) => r.steps.launch)) ?? null },
      relaunch: { debugbridge: median(ours.map((r) => r.relaunch?.ms)) ?? null, readyOff: median(oursOff.map((r) => r.relaunch?.ms)) ?? null },
      rawDap: floor ?? { missing: rawFailure?.message },
      mcpDebugger: b ? { version: MCPD_VERSION, pollMs: POLL_MS, ...b, launchSubSteps: Object.fromEntries(Object.keys(theirs[0].sub).map((k) => [k, median(theirs.map((r) => r.sub[k]))])) } : { version: MCPD_VERSION, missing: mcpd.reason },
      ratios: b
        ? { ...Object.fromEntries(STEPS.map(([k]) => [k, ratio(a.steps[k], b.steps[k])])), total: ratio(a.total, b.total), totalWithCold: ratio(a.totalWithCold, b.totalWithCold) }
        : undefined,
      targets: targets.map(([name, value, goal, pass]) => ({ name, value, goal, pass: pass ?? null })),
    },
    null,
    2,
  ) + '\n',
);
console.log(`\nwrote ${RESULTS.slice(root.length + 1)}`);
process.exit(0);
