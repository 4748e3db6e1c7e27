// What the model reads: the characters of every answer over the standard fizz workflow (Python and
// Node), debugbridge side by side in the same run with @debugmcp/mcp-debugger 0.24.2, and the size
// of each server's tool list (names + descriptions + input schemas, compact JSON — what a model
// reads before its first call).
//
//   launch with a breakpoint → first stop → stack → locals → evaluate → step over → step into →
//   continue to the next hit → stop
//
// Counted: the text content of every answer the workflow needs. debugbridge also sends
// structuredContent (for programs, not models); it is reported apart. mcp-debugger has no blocking
// wait: an agent polls list_debug_sessions until the stop is there; only the poll that sees it is
// counted (the fewest characters an agent could read), which favours mcp-debugger.
//
// Environment: BENCH_PYTHON (default /usr/bin/python3), BENCH_NO_COMPARE=1 (skip mcp-debugger),
// BENCH_CACHE (its install folder), BENCH_CALL_TIMEOUT_MS (default 30000).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { installMcpd, MCPD_PACKAGE, MCPD_VERSION } from './lib/mcpDebugger.mjs';
import { WORKFLOW_STEPS } from './lib/workflowSteps.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const CALL_TIMEOUT_MS = Number(process.env.BENCH_CALL_TIMEOUT_MS ?? 30_000);
const RESULTS = join(here, 'results', 'answer-size.json');
const TARGET_RATIO = 0.5;
const TOOL_LIST_TARGET = 14_000;

const PROGRAMS = {
  python: { file: join(here, 'fixtures', 'fizzbuzz.py'), expression: 'n * 2 + len(lines)' },
  node: { file: join(here, 'fixtures', 'fizzbuzz.js'), expression: 'n * 2 + lines.length' },
};
/** The line with the marker comment `# BP:name` / `// BP:name` (the docstrings name markers too). */
const markerLine = (file, name) => readFileSync(file, 'utf8').split('\n').findIndex((l) => new RegExp(`(#|//) BP:${name}\\b`).test(l)) + 1;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function connect(command, args, env, cwd) {
  const transport = new StdioClientTransport({ command, args, env: { ...getDefaultEnvironment(), ...env }, cwd, stderr: 'pipe' });
  const client = new Client({ name: 'debugbridge-bench', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const toolList = tools.map(({ name, description, inputSchema }) => JSON.stringify({ name, description, inputSchema }).length).reduce((a, b) => a + b, 0);
  return { client, toolList, toolListFull: JSON.stringify(tools).length, tools: tools.length };
}

/** Calls a tool; records the characters of its text (and of its structured content apart). */
function recorder(client) {
  const steps = {};
  return {
    steps,
    async call(step, name, args, { count = true } = {}) {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
      const text = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
      if (result.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
      if (count) {
        const s = (steps[step] ??= { text: 0, structured: 0, calls: 0 });
        s.text += text.length;
        s.structured += result.structuredContent ? JSON.stringify(result.structuredContent).length : 0;
        s.calls++;
      }
      let json;
      try {
        json = JSON.parse(text);
      } catch {}
      return { text, structured: result.structuredContent ?? json ?? {} };
    },
  };
}

async function runOurs(language) {
  const { file, expression } = PROGRAMS[language];
  const server = await connect(process.execPath, [join(root, 'dist', 'cli.js')], { DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-size-')) });
  const r = recorder(server.client);
  try {
    const launch = await r.call('launch', 'session_launch', { program: file, breakpoints: [{ file, line: markerLine(file, 'render') }], waitForStop: true });
    const sessionId = launch.structured.sessionId;
    await r.call('stack', 'inspect_stack', { sessionId });
    await r.call('locals', 'inspect_variables', { sessionId });
    await r.call('evaluate', 'inspect_evaluate', { sessionId, expression });
    await r.call('stepOver', 'execution_step', { sessionId, kind: 'over' });
    await r.call('stepInto', 'execution_step', { sessionId, kind: 'into' });
    const next = await r.call('continue', 'execution_continue', { sessionId });
    if (next.structured.stop?.frame?.line !== markerLine(file, 'render')) throw new Error(`continue: ${next.text.slice(0, 200)}`);
    await r.call('stop', 'session_stop', { sessionId });
  } finally {
    await server.client.close();
  }
  return { steps: r.steps, toolList: server.toolList, toolListFull: server.toolListFull, tools: server.tools };
}

async function runMcpd(entry, language) {
  const { file, expression } = PROGRAMS[language];
  const cwd = mkdtempSync(join(tmpdir(), 'dbb-bench-mcpd-'));
  const server = await connect(process.execPath, [entry, 'stdio'], { PYTHON_PATH: PYTHON }, cwd);
  const r = recorder(server.client);
  /** Polls until the session shows a new stop; only the answer that shows it is counted. */
  const waitPaused = async (step, sessionId, after) => {
    const deadline = Date.now() + CALL_TIMEOUT_MS;
    for (;;) {
      const seen = await r.call(step, 'list_debug_sessions', {}, { count: false });
      const s = (seen.structured.sessions ?? []).find((x) => x.id === sessionId);
      if (s?.state === 'paused' && s.lastStop && s.lastStop.timestamp !== after) {
        await r.call(step, 'list_debug_sessions', {});
        return s.lastStop.timestamp;
      }
      if (Date.now() > deadline) throw new Error(`${step}: no stop`);
      await sleep(20);
    }
  };
  const lastStop = async (sessionId) => {
    const seen = await r.call('', 'list_debug_sessions', {}, { count: false });
    return (seen.structured.sessions ?? []).find((x) => x.id === sessionId)?.lastStop?.timestamp;
  };
  try {
    const created = await r.call('launch', 'create_debug_session', { language: language === 'node' ? 'javascript' : language, ...(language === 'python' ? { executablePath: PYTHON } : {}) });
    const sessionId = created.structured.sessionId;
    await r.call('launch', 'set_breakpoint', { sessionId, file, line: markerLine(file, 'render') });
    const started = await r.call('launch', 'start_debugging', { sessionId, scriptPath: file });
    if (started.structured.state !== 'paused') await waitPaused('launch', sessionId, undefined);
    await r.call('stack', 'get_stack_trace', { sessionId });
    await r.call('locals', 'get_local_variables', { sessionId });
    await r.call('evaluate', 'evaluate_expression', { sessionId, expression });
    for (const [step, tool] of [
      ['stepOver', 'step_over'],
      ['stepInto', 'step_into'],
    ]) {
      const before = await lastStop(sessionId);
      const answer = await r.call(step, tool, { sessionId });
      if (answer.structured.state !== 'paused' || answer.structured.pending) await waitPaused(step, sessionId, before);
    }
    const before = await lastStop(sessionId);
    await r.call('continue', 'continue_execution', { sessionId });
    await waitPaused('continue', sessionId, before);
    // continue_execution answers before the stop: the agent reads where it stopped from the stack.
    await r.call('continue', 'get_stack_trace', { sessionId });
    await r.call('stop', 'close_debug_session', { sessionId });
  } finally {
    await server.client.close();
  }
  return { steps: r.steps, toolList: server.toolList, toolListFull: server.toolListFull, tools: server.tools };
}

const total = (steps, key = 'text') => Object.values(steps).reduce((a, s) => a + s[key], 0);
const pad = (s, n) => String(s).padEnd(n);
const num = (x) => (x === undefined ? '—' : String(x)).padStart(9);

let mcpd = { reason: process.env.BENCH_NO_COMPARE === '1' ? 'BENCH_NO_COMPARE=1' : undefined };
if (!mcpd.reason) {
  try {
    mcpd = installMcpd();
  } catch (error) {
    mcpd = { reason: error.message };
  }
}

const results = { benchmark: 'answer-size', date: new Date().toISOString(), unit: 'characters the model reads (text content)', languages: {} };
let failed = false;
for (const language of Object.keys(PROGRAMS)) {
  let ours;
  let theirs;
  try {
    ours = await runOurs(language);
  } catch (error) {
    console.log(`${language}: debugbridge failed: ${error.message}`);
    failed = true;
    continue;
  }
  if (mcpd.entry) {
    try {
      theirs = await runMcpd(mcpd.entry, language);
    } catch (error) {
      theirs = { reason: error.message };
    }
  }
  results.languages[language] = { debugbridge: ours, mcpDebugger: theirs };
  console.log(`\n${language} fizz workflow: characters the model reads per step`);
  console.log(`${pad('step', 28)}${num('ours')}${num('mcp-dbg')}${num('ratio')}`);
  for (const [key, label] of WORKFLOW_STEPS) {
    const a = ours.steps[key]?.text;
    const b = theirs?.steps?.[key]?.text;
    console.log(`${pad(label, 28)}${num(a)}${num(b)}${num(a && b ? (a / b).toFixed(2) : undefined)}`);
  }
  const ratio = theirs?.steps ? total(ours.steps) / total(theirs.steps) : undefined;
  console.log(`${pad('total', 28)}${num(total(ours.steps))}${num(theirs?.steps ? total(theirs.steps) : undefined)}${num(ratio?.toFixed(2))}  (target ≤ ${TARGET_RATIO})`);
  console.log(`(debugbridge's structuredContent, for programs: ${total(ours.steps, 'structured')} chars)`);
  if (theirs?.reason) console.log(`mcp-debugger: ${theirs.reason}`);
  results.languages[language].ratio = ratio;
}
const any = Object.values(results.languages)[0];
if (any) {
  console.log(`\ntools/list (names + descriptions + input schemas, compact JSON):`);
  console.log(`  debugbridge ${any.debugbridge.toolList} chars for ${any.debugbridge.tools} tools (target ≤ ${TOOL_LIST_TARGET}); whole answer with output schemas ${any.debugbridge.toolListFull}`);
  if (any.mcpDebugger?.toolList) console.log(`  ${MCPD_PACKAGE} ${MCPD_VERSION}: ${any.mcpDebugger.toolList} chars for ${any.mcpDebugger.tools} tools; whole answer ${any.mcpDebugger.toolListFull}`);
}
if (mcpd.reason) console.log(`\n(no comparison: ${mcpd.reason})`);
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
process.exit(failed ? 1 : 0);
