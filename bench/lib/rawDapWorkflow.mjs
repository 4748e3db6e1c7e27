// The floor any DAP client gets from debugpy as shipped: `python -m debugpy.adapter` spoken to
// directly over stdio, no MCP, no server, no socket tuning, no process prepared ahead. The same
// workflow as the MCP benchmark, each step timed from the client's side:
//   launch (spawn the adapter → initialize → launch → breakpoints → configurationDone → first
//   `stopped`) → stack → locals (scopes + variables of the top frame) → evaluate → step over →
//   step into → continue to the next hit → stop (disconnect, terminating the debuggee).
// Framing comes from debugbridge's own DAP client (dist/), which adds nothing of its own.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (file) => pathToFileURL(join(root, 'dist', file)).href;

export async function runRawDap({ python, program, bpLine, expression, timeoutMs }) {
  const { DapClient } = await import(dist('dap/dapClient.js'));
  const { StdioTransport } = await import(dist('dap/stdioTransport.js'));
  const steps = {};
  let mark = performance.now();
  const lap = (name) => {
    const now = performance.now();
    steps[name] = now - mark;
    mark = now;
  };
  const adapter = spawn(python, ['-m', 'debugpy.adapter'], { stdio: 'pipe' });
  const client = new DapClient(new StdioTransport(adapter, 'debugpy adapter'), { timeoutMs });
  const stops = [];
  let wake = () => {};
  client.on('stopped', (body) => {
    stops.push(body);
    wake();
  });
  const nextStop = async (n) => {
    const deadline = performance.now() + timeoutMs;
    while (stops.length < n) {
      if (performance.now() > deadline) throw new Error(`raw DAP: no stop #${n} within ${timeoutMs} ms`);
      await new Promise((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
    return stops[n - 1];
  };
  try {
    await client.request('initialize', { clientID: 'bench', adapterID: 'debugpy', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const initialized = client.once('initialized');
    const launched = client.request('launch', {
      program,
      cwd: dirname(program),
      python: [python],
      console: 'internalConsole',
      redirectOutput: true,
      justMyCode: true,
    });
    await initialized;
    await client.request('setBreakpoints', { source: { path: program }, breakpoints: [{ line: bpLine }] });
    await client.request('setExceptionBreakpoints', { filters: ['uncaught'] });
    await client.request('configurationDone', undefined);
    await launched;
    const stop = await nextStop(1);
    lap('launch');
    const { stackFrames } = await client.request('stackTrace', { threadId: stop.threadId, startFrame: 0, levels: 20 });
    lap('stack');
    if (stackFrames[0]?.line !== bpLine) throw new Error(`raw DAP: stopped at line ${stackFrames[0]?.line}, not ${bpLine}`);
    const { scopes } = await client.request('scopes', { frameId: stackFrames[0].id });
    await client.request('variables', { variablesReference: scopes[0].variablesReference });
    lap('locals');
    await client.request('evaluate', { expression, frameId: stackFrames[0].id, context: 'repl' });
    lap('evaluate');
    await client.request('next', { threadId: stop.threadId });
    await nextStop(2);
    lap('stepOver');
    await client.request('stepIn', { threadId: stop.threadId });
    await nextStop(3);
    lap('stepInto');
    await client.request('continue', { threadId: stop.threadId });
    await nextStop(4);
    lap('continue');
    await client.request('disconnect', { terminateDebuggee: true }).catch(() => undefined);
    lap('stop');
    return { steps };
  } finally {
    client.close();
    if (adapter.exitCode === null) adapter.kill('SIGKILL');
  }
}
