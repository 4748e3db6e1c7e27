// The Node debugging workflow an agent runs through MCP, on a JavaScript fizzbuzz and on the same
// program in TypeScript (compiled by tsc with a source map, breakpoints set in the .ts), side by
// side in one run with the floors under it — the program run without a debugger, and a minimal raw
// Chrome DevTools Protocol client doing the same steps (with the ACK fix, the floor of any CDP
// debugger on this machine) — and with the alternative, @debugmcp/mcp-debugger 0.24.2 (through
// vscode-js-debug), on the JavaScript program.
//
//   launch with a breakpoint → first stop → stack → locals → evaluate → step over → step into →
//   continue to the next hit → stop
//
// Each run starts a fresh server (its start is not counted: see python-workflow for cold start)
// and times each tools/call from the client's side. The server's first session is reported on its
// own line (it also pays for loading the engine); the table and the targets are the sessions after
// it, as an agent that debugs more than once sees them. Runs are interleaved; the figures are
// medians of RUNS runs (default 5) after one uncounted warm-up run. Where launch time goes is read
// from the engine's launch phases (session_diagnostics).
//
// Environment: RUNS (default 5), BENCH_CALL_TIMEOUT_MS (default 30000), BENCH_NO_COMPARE=1 (skip
// mcp-debugger), BENCH_CACHE (its install folder), BENCH_POLL_MS (its wait loop, default 5).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installMcpd, MCPD_VERSION } from './lib/mcpDebugger.mjs';
import { WORKFLOW_STEPS } from './lib/workflowSteps.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const RUNS = Math.max(1, Number(process.env.RUNS ?? 5));
const CALL_TIMEOUT_MS = Number(process.env.BENCH_CALL_TIMEOUT_MS ?? 30_000);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 5);
const RESULTS = join(here, 'results', 'node-workflow.json');
const JS = join(here, 'fixtures', 'fizzbuzz.js');
const TS = join(here, 'fixtures', 'fizzbuzz.ts');
const TS_OUT = join(here, 'fixtures', 'out');
const TS_COMPILED = join(TS_OUT, 'fizzbuzz.js');
const EXPRESSION = 'n * 2 + lines.length';
const TARGETS = { launchOverBareMs: 100, totalMs: 250, tsOverJs: 1.1 };

const STEPS = WORKFLOW_STEPS;
const WORKFLOW = STEPS.map(([k]) => k);

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return undefined;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const fmt = (x, digits = 1) => (x === undefined ? '—' : x.toFixed(digits));
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};
const markerLine = (file, name) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(`// BP:${name}`)) + 1;
const lines = (file) => ({ bp: markerLine(file, 'render'), call: markerLine(file, 'classify-call') });

/** A timer over named steps. */
function stepTimer() {
  const steps = {};
  let mark = performance.now();
  return {
    steps,
    lap(name) {
      const now = performance.now();
      steps[name] = now - mark;
      mark = now;
    },
  };
}

// ---- floors ----------------------------------------------------------------------------------

function timeSpawn(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore', timeout: 20_000 });
  check(r.status === 0, `node ${args.join(' ')} exited with ${r.status}`);
  return performance.now() - t;
}

/** The same steps over raw CDP with the engine's own CDP client (TCP_NODELAY and the ACK carrier): the floor. */
async function rawCdp(CdpClient) {
  const { bp, call } = lines(JS);
  const t = stepTimer();
  const child = spawn(process.execPath, ['--inspect-brk=127.0.0.1:0', JS], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (d) => {
      text += d;
      const m = /ws:\/\/\S+/.exec(text);
      if (m) resolve(m[0]);
    });
    child.once('exit', () => reject(new Error(`node exited: ${text}`)));
  });
  const cdp = await CdpClient.connect(url);
  let waiting;
  const pauses = [];
  cdp.on('Debugger.paused', (e) => {
    pauses.push(e);
    waiting?.();
  });
  const nextPause = async (n) => {
    const deadline = performance.now() + CALL_TIMEOUT_MS;
    while (pauses.length < n) {
      if (performance.now() > deadline) throw new Error(`raw CDP: no pause #${n} within ${CALL_TIMEOUT_MS} ms`);
      await new Promise((r) => {
        waiting = r;
        setTimeout(r, 100);
      });
    }
    return pauses[n - 1];
  };
  const send = (method, params) => {
    cdp.expectEvent('Debugger.paused');
    return cdp.send(method, params);
  };
  // Node may miss a run request sent before it has answered these: the engine waits for them too.
  await Promise.all([cdp.send('Runtime.enable'), cdp.send('Debugger.enable', {}), cdp.send('Debugger.setBreakpointByUrl', { url: pathToFileURL(JS).href, lineNumber: bp - 1 })]);
  await send('Runtime.runIfWaitingForDebugger');
  await nextPause(1); // Break on start
  await send('Debugger.resume');
  let stop = await nextPause(2);
  t.lap('launch');
  check(stop.callFrames[0].location.lineNumber === bp - 1, `raw: first stop ${pauses.map((p) => p.reason + ':' + p.callFrames[0].location.lineNumber).join(', ')}`);
  t.lap('stack'); // the paused event carries the frames
  const local = stop.callFrames[0].scopeChain.find((s) => s.type === 'local');
  const props = await cdp.send('Runtime.getProperties', { objectId: local.object.objectId, ownProperties: true, generatePreview: true });
  check(props.result.some((p) => p.name === 'n'), 'raw: locals');
  t.lap('locals');
  const value = await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId: stop.callFrames[0].callFrameId, expression: EXPRESSION });
  check(value.result.value === 2, 'raw: evaluate');
  t.lap('evaluate');
  await send('Debugger.stepOver');
  stop = await nextPause(3);
  check(stop.callFrames[0].location.lineNumber === call - 1, 'raw: step over');
  t.lap('stepOver');
  await send('Debugger.stepInto');
  stop = await nextPause(4);
  check(stop.callFrames[0].functionName === 'classify', 'raw: step into');
  t.lap('stepInto');
  await send('Debugger.resume');
  stop = await nextPause(5);
  check(stop.callFrames[0].location.lineNumber === bp - 1, 'raw: next hit');
  t.lap('continue');
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  cdp.close();
  t.lap('stop');
  return { steps: t.steps };
}

// ---- debugbridge through MCP -----------------------------------------------------------------

async function debugbridge(client, program, source) {
  const { bp, call } = lines(source);
  {
    const t = stepTimer();
    const callTool = async (name, args) => {
      const r = await client.call(name, args, { timeoutMs: CALL_TIMEOUT_MS });
      check(!r.isError, `${name}: ${r.text.slice(0, 300)}`);
      return r;
    };
    const launch = await callTool('session_launch', { program, breakpoints: [{ file: source, line: bp }], waitForStop: true });
    check(launch.structured.stop?.frame?.line === bp && launch.structured.stop.frame.file === source, `launch: ${launch.text.slice(0, 300)}`);
    t.lap('launch');
    const stack = await callTool('inspect_stack', {});
    check(stack.structured.frames[0].name === 'render', `stack: ${stack.text.slice(0, 200)}`);
    t.lap('stack');
    const locals = await callTool('inspect_variables', {});
    check(locals.structured.variables.some((v) => v.name === 'n'), `locals: ${locals.text.slice(0, 200)}`);
    t.lap('locals');
    const value = await callTool('inspect_evaluate', { expression: EXPRESSION });
    check(value.structured.value === '2', `evaluate: ${value.text.slice(0, 200)}`);
    t.lap('evaluate');
    const over = await callTool('execution_step', { kind: 'over' });
    check(over.structured.stop?.frame?.line === call, `step over: ${over.text.slice(0, 200)}`);
    t.lap('stepOver');
    const into = await callTool('execution_step', { kind: 'into' });
    check(into.structured.stop?.frame?.name === 'classify', `step into: ${into.text.slice(0, 200)}`);
    t.lap('stepInto');
    const next = await callTool('execution_continue', {});
    check(next.structured.stop?.frame?.line === bp, `continue: ${next.text.slice(0, 200)}`);
    t.lap('continue');
    const diagnostics = await client.call('session_diagnostics', {});
    t.lap('diagnostics'); // not part of the workflow
    await callTool('session_stop', {});
    t.lap('stop');
    delete t.steps.diagnostics;
    return { steps: t.steps, phases: diagnostics.structured.diagnostics?.engine?.details?.launchPhasesMs ?? {} };
  }
}

// ---- mcp-debugger through MCP ----------------------------------------------------------------

/**
 * The same workflow through mcp-debugger: launch = create_debug_session + set_breakpoint +
 * start_debugging (+ list_debug_sessions polled until paused); steps and continue poll the same
 * way when they answer before the stop (it has no blocking wait). Its tools answer JSON text.
 */
async function mcpDebugger(McpTestClient, entry, cwd) {
  const { bp, call } = lines(JS);
  const client = await McpTestClient.start({ command: process.execPath, args: [entry, 'stdio'], cwd });
  try {
    await client.client.listTools();
    const tool = async (name, args) => {
      const r = await client.call(name, args, { timeoutMs: CALL_TIMEOUT_MS });
      let answer = {};
      try {
        answer = JSON.parse(r.text);
      } catch {}
      check(!r.isError && answer.success !== false, `mcp-debugger ${name}: ${r.text.slice(0, 300)}`);
      return answer;
    };
    const sessionOf = async (id) => (await tool('list_debug_sessions', {})).sessions?.find((s) => s.id === id);
    const waitPaused = async (id, after) => {
      const deadline = performance.now() + CALL_TIMEOUT_MS;
      for (;;) {
        const s = await sessionOf(id);
        if (s?.state === 'paused' && s.lastStop && s.lastStop.timestamp !== after) return;
        check(s && !['stopped', 'terminated', 'exited', 'error'].includes(s.state), `mcp-debugger: the session ended while waiting (${s?.state})`);
        check(performance.now() < deadline, 'mcp-debugger: no pause in time');
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    };
    const t = stepTimer();
    const { sessionId } = await tool('create_debug_session', { language: 'javascript', executablePath: process.execPath });
    await tool('set_breakpoint', { sessionId, file: JS, line: bp });
    const started = await tool('start_debugging', { sessionId, scriptPath: JS });
    if (started.state !== 'paused') await waitPaused(sessionId, undefined);
    t.lap('launch');
    const stack = await tool('get_stack_trace', { sessionId });
    check(stack.stackFrames?.[0]?.line === bp, 'mcp-debugger: stack');
    t.lap('stack');
    const locals = await tool('get_local_variables', { sessionId });
    check(locals.variables?.some((v) => v.name === 'n'), 'mcp-debugger: locals');
    t.lap('locals');
    const value = await tool('evaluate_expression', { sessionId, expression: EXPRESSION });
    check(String(value.result) === '2', 'mcp-debugger: evaluate');
    t.lap('evaluate');
    for (const [step, name] of [
      ['stepOver', 'step_over'],
      ['stepInto', 'step_into'],
      ['continue', 'continue_execution'],
    ]) {
      const before = (await sessionOf(sessionId))?.lastStop?.timestamp;
      t.lap('polls'); // reading where it stopped before is not part of the step
      const r = await tool(name, { sessionId });
      if (r.state !== 'paused' || r.pending) await waitPaused(sessionId, before);
      t.lap(step);
    }
    const at = await tool('get_stack_trace', { sessionId });
    check(at.stackFrames?.[0]?.line === bp, 'mcp-debugger: next hit');
    t.lap('polls');
    await tool('close_debug_session', { sessionId });
    t.lap('stop');
    delete t.steps.polls;
    return { steps: t.steps };
  } finally {
    await client.close();
  }
}

// ---- main ------------------------------------------------------------------------------------

const dist = join(root, 'dist');
if (!existsSync(join(dist, 'demo', 'mcpClient.js'))) {
  console.log('node-workflow: dist/ is missing: run `npm run build` first');
  process.exit(1);
}
const { McpTestClient } = await import(pathToFileURL(join(dist, 'demo', 'mcpClient.js')).href);
const { CdpClient } = await import(pathToFileURL(join(dist, 'engines', 'node', 'cdpClient.js')).href);

const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--target', 'ES2022', '--module', 'commonjs', '--strict', '--sourceMap', '--outDir', TS_OUT, TS], { encoding: 'utf8' });
check(tsc.status === 0, `tsc: ${tsc.stdout}${tsc.stderr}`);

let mcpd = process.env.BENCH_NO_COMPARE === '1' ? { reason: 'BENCH_NO_COMPARE=1' } : installMcpd();
const mcpdCwd = mkdtempSync(join(tmpdir(), 'dbb-bench-mcpd-'));
const load = { before: loadavg().map((x) => Number(x.toFixed(2))) };
const stateDir = mkdtempSync(join(tmpdir(), 'dbb-bench-node-'));
const runs = { nodeStart: [], bare: [], raw: [], first: [], js: [], ts: [], mcpd: [] };
try {
  for (let i = 0; i <= RUNS; i++) {
    const keep = i > 0;
    const nodeStart = timeSpawn(['-e', '0']);
    const bare = timeSpawn([JS]);
    const raw = await rawCdp(CdpClient);
    const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir }, cwd: dirname(JS) });
    let first, js, ts;
    try {
      await client.client.listTools();
      first = await debugbridge(client, JS, JS);
      // Which of the two goes first alternates: neither always meets the machine in the same state.
      if (i % 2) {
        ts = await debugbridge(client, TS_COMPILED, TS);
        js = await debugbridge(client, JS, JS);
      } else {
        js = await debugbridge(client, JS, JS);
        ts = await debugbridge(client, TS_COMPILED, TS);
      }
    } finally {
      await client.close();
    }
    if (mcpd.entry) {
      try {
        const r = await mcpDebugger(McpTestClient, mcpd.entry, mcpdCwd);
        if (keep) runs.mcpd.push(r);
      } catch (error) {
        mcpd = { reason: `mcp-debugger's workflow failed on run ${i}: ${error.message}` };
      }
    }
    if (keep) {
      runs.first.push(first);
      runs.nodeStart.push(nodeStart);
      runs.bare.push(bare);
      runs.raw.push(raw);
      runs.js.push(js);
      runs.ts.push(ts);
    }
  }
} catch (error) {
  console.log(`node-workflow: FAILED: ${error.stack ?? error.message}`);
  process.exit(1);
} finally {
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(mcpdCwd, { recursive: true, force: true });
}
load.after = loadavg().map((x) => Number(x.toFixed(2)));

const totalOf = (r) => WORKFLOW.reduce((a, k) => a + (r.steps[k] ?? 0), 0);
const summary = (list) => ({
  steps: Object.fromEntries(WORKFLOW.map((k) => [k, median(list.map((r) => r.steps[k]))])),
  total: median(list.map(totalOf)),
});
const raw = summary(runs.raw);
const js = summary(runs.js);
const ts = summary(runs.ts);
const alt = mcpd.entry && runs.mcpd.length === RUNS ? summary(runs.mcpd) : undefined;
const bare = median(runs.bare);
const nodeStart = median(runs.nodeStart);
const phaseNames = [...new Set(runs.js.flatMap((r) => Object.keys(r.phases)))];
const phases = (list) => Object.fromEntries(phaseNames.map((k) => [k, median(list.map((r) => r.phases[k]))]));

const W = [26, 9, 15, 15, 8, 13, 8];
const row = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(W[0]) : String(c).padStart(W[i]))).join(' ');
console.log(`Node workflow through MCP (node ${process.version}), median of ${RUNS} runs, fresh server each run, ms`);
console.log(`load average before ${load.before.join(' ')}, after ${load.after.join(' ')}; \`node -e 0\` takes ${fmt(nodeStart)} ms here`);
console.log(row(['step', 'raw CDP', 'debugbridge JS', 'debugbridge TS', 'TS / JS', 'mcp-debugger', 'JS / it']));
const ratio = (x, y) => (x !== undefined && y ? fmt(x / y, 3) : '—');
for (const [k, label] of STEPS) console.log(row([label, fmt(raw.steps[k]), fmt(js.steps[k]), fmt(ts.steps[k]), ratio(ts.steps[k], js.steps[k]), fmt(alt?.steps[k]), ratio(js.steps[k], alt?.steps[k])]));
console.log(row(['total (launch → stop)', fmt(raw.total), fmt(js.total), fmt(ts.total), ratio(ts.total, js.total), fmt(alt?.total), ratio(js.total, alt?.total)]));
if (!alt) console.log(`no comparison with mcp-debugger ${MCPD_VERSION}: ${mcpd.reason ?? 'it did not complete every run'}`);
console.log(`\nthe program run without a debugger (spawn → exit): ${fmt(bare)} ms`);
const first = summary(runs.first);
console.log(`a fresh server's first session (loads the engine): launch ${fmt(first.steps.launch)} ms, workflow ${fmt(first.total)} ms`);
const phaseLine = (name, p) => `  ${name}: ${phaseNames.map((k) => `${k} ${fmt(p[k])}`).join(', ')}`;
console.log('where debugbridge\'s launch goes (engine, ms from the launch call, median):');
console.log(phaseLine('JS', phases(runs.js)));
console.log(phaseLine('TS', phases(runs.ts)));

const targets = [
  ['launch → first stop ≤ bare run + 100 ms', js.steps.launch <= bare + TARGETS.launchOverBareMs, `${fmt(js.steps.launch)} ms vs ${fmt(bare)} + ${TARGETS.launchOverBareMs} ms`],
  [`workflow total ≤ ${TARGETS.totalMs} ms`, js.total <= TARGETS.totalMs, `${fmt(js.total)} ms (raw CDP floor ${fmt(raw.total)} ms)`],
  [`TypeScript total ≤ ${TARGETS.tsOverJs} × JS`, ts.total <= js.total * TARGETS.tsOverJs, `${fmt(ts.total)} / ${fmt(js.total)} ms = ${fmt(ts.total / js.total, 3)} ×`],
];
console.log('\ntargets:');
for (const [name, pass, figure] of targets) console.log(`  ${pass ? 'PASS' : 'MISS'}  ${name.padEnd(42)} ${figure}`);

mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(
  RESULTS,
  `${JSON.stringify(
    {
      benchmark: 'node-workflow',
      date: new Date().toISOString(),
      node: process.version,
      runs: RUNS,
      unit: 'ms',
      loadAverage: load,
      workflow: WORKFLOW,
      fixtures: ['bench/fixtures/fizzbuzz.js', 'bench/fixtures/fizzbuzz.ts'],
      nodeStartMs: nodeStart,
      bareRunMs: bare,
      rawCdp: raw,
      debugbridgeFirstSession: first,
      debugbridgeJs: { ...js, launchPhasesMs: phases(runs.js) },
      debugbridgeTs: { ...ts, launchPhasesMs: phases(runs.ts) },
      mcpDebugger: alt ? { version: MCPD_VERSION, pollMs: POLL_MS, ...alt } : { version: MCPD_VERSION, missing: mcpd.reason ?? 'incomplete runs' },
      targets: targets.map(([name, pass, figure]) => ({ name, pass, figure })),
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwrote ${RESULTS.slice(root.length + 1)}`);
