// The Python fizz workflow through a target reached over ssh to localhost (an sshd of the bench's
// own on 127.0.0.1, its own keys), side by side with the same workflow run locally, in one server
// and one run, interleaved:
//
//   launch with a breakpoint → wait for the stop → stack → locals → evaluate → step over →
//   step into → continue to the next hit → stop
//
// The target's files sit in another folder (a copy), so every path crosses the path map. The first
// workflow on the target also opens its connection (ssh, then `debugbridge agent` there): it is
// shown apart; the others reuse the connection, as a session after the first one does. Figures are
// medians of RUNS runs (default 3), each call timed from the MCP client, reported as the ratio
// target / local, with the load (`uptime`) at the start and at the end.
//
// Environment: RUNS (default 3), BENCH_PYTHON (default /usr/bin/python3, with debugpy).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { WORKFLOW_STEPS } from './lib/workflowSteps.mjs';
import { startSshd } from '../test/support/sshd.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const CLI = join(root, 'dist', 'cli.js');
const RUNS = Math.max(1, Number(process.env.RUNS ?? 3));
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const FIXTURE = join(here, 'fixtures', 'fizzbuzz.py');
const SOURCE = readFileSync(FIXTURE, 'utf8').split('\n');
const marker = (name) => SOURCE.findIndex((l) => l.includes(`# BP:${name}`)) + 1;
const BP_LINE = marker('render');
const CALL_LINE = marker('classify-call');

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

async function connectServer(env) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI], env: { ...getDefaultEnvironment(), ...process.env, ...env }, stderr: 'ignore' });
  const client = new Client({ name: 'remote-workflow-bench', version: '1' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

/** The fizz workflow on `program` (a local path), on `target` when given; each call's time in ms. */
async function workflow(client, program, target) {
  const times = {};
  const call = async (step, name, args) => {
    const t0 = performance.now();
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    times[step] = performance.now() - t0;
    const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    if (r.isError) throw new Error(`${name}: ${text}`);
    return { text, s: r.structuredContent ?? {} };
  };
  const expect = (ok, what) => {
    if (!ok) throw new Error(`${target ?? 'local'}: ${what}`);
  };
  const launch = await call('launch', 'session_launch', { program, breakpoints: [{ file: program, line: BP_LINE }], waitForStop: true, pythonPath: PYTHON, ...(target ? { target } : {}) });
  expect(launch.s.stop?.frame?.file === program && launch.s.stop?.frame?.line === BP_LINE, `launch: ${launch.text.slice(0, 300)}`);
  const sessionId = launch.s.sessionId;
  const stack = await call('stack', 'inspect_stack', { sessionId });
  expect(stack.s.frames?.[0]?.file === program, `stack: ${stack.text.slice(0, 200)}`);
  await call('locals', 'inspect_variables', { sessionId });
  const value = await call('evaluate', 'inspect_evaluate', { sessionId, expression: 'n * 2 + len(lines)' });
  expect(value.s.value === '2', `evaluate: ${value.text.slice(0, 200)}`);
  const over = await call('stepOver', 'execution_step', { sessionId, kind: 'over' });
  expect(over.s.stop?.frame?.line === CALL_LINE, `step over: ${over.text.slice(0, 200)}`);
  const into = await call('stepInto', 'execution_step', { sessionId, kind: 'into' });
  expect(into.s.stop?.frame?.name === 'classify', `step into: ${into.text.slice(0, 200)}`);
  const next = await call('continue', 'execution_continue', { sessionId });
  expect(next.s.stop?.frame?.line === BP_LINE, `continue: ${next.text.slice(0, 200)}`);
  await call('stop', 'session_stop', { sessionId });
  times.total = WORKFLOW_STEPS.reduce((sum, [k]) => sum + times[k], 0);
  return times;
}

const dir = mkdtempSync(join(tmpdir(), 'dbb-bench-remote-'));
const local = join(dir, 'code');
const far = join(dir, 'far');
for (const folder of [local, far]) {
  mkdirSync(folder, { recursive: true });
  copyFileSync(FIXTURE, join(folder, 'fizzbuzz.py'));
}
const program = join(local, 'fizzbuzz.py');
const loadBefore = uptime();
const sshd = await startSshd(join(dir, 'sshd'));
const targets = { box: { command: sshd.command(process.execPath, CLI, 'agent'), pathMappings: [{ local, remote: far }] } };
const client = await connectServer({ DEBUGBRIDGE_STATE_DIR: join(dir, 'state'), DEBUGBRIDGE_TARGETS: JSON.stringify(targets) });
const runs = { local: [], box: [] };
let first;
try {
  await workflow(client, program); // warm-up (page cache, .pyc), not counted
  first = await workflow(client, program, 'box');
  for (let i = 0; i < RUNS; i++) {
    runs.local.push(await workflow(client, program));
    runs.box.push(await workflow(client, program, 'box'));
  }
} finally {
  await client.close();
  sshd.stop();
  rmSync(dir, { recursive: true, force: true });
}

const rows = [...WORKFLOW_STEPS, ['total', 'workflow total']];
const fmt = (ms) => `${Math.round(ms)} ms`;
console.log(`Python fizz workflow, local vs through ssh to 127.0.0.1 (debugbridge agent there), medians of ${RUNS} runs`);
console.log(`load before: ${loadBefore}`);
console.log('| step | local | ssh target | target / local | first on target (opens the connection) |\n| --- | ---: | ---: | ---: | ---: |');
for (const [key, label] of rows) {
  const l = median(runs.local.map((r) => r[key]));
  const b = median(runs.box.map((r) => r[key]));
  console.log(`| ${label} | ${fmt(l)} | ${fmt(b)} | ${(b / l).toFixed(2)}× | ${fmt(first[key])} |`);
}
console.log(`load after: ${uptime()}`);
