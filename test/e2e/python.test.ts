/**
 * Python through the real MCP server over stdio, debugging real programs with debugpy.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { descendants, waitGone } from '../support/processTree.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/e2e/python/', import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const line = (name: string, marker: string) => markerLine(fixture(name), `BP:${marker}`);

const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));
const run = requireRuntime('python with debugpy', hasDebugpy);

interface Stop {
  reason: string;
  threadId: number;
  frame: { name: string; file?: string; line: number };
  hitBreakpointIds: number[];
  exception?: { type?: string; message?: string };
  locals?: { name: string; value: string; type?: string }[];
  source?: { line: number; current: boolean }[];
}
interface Wait {
  sessionId: string;
  state: string;
  status: 'stopped' | 'exited' | 'timeout';
  stop?: Stop;
  exitCode?: number;
  outputTail?: string;
}

describe.runIf(run)('python end to end', () => {
  let client: McpTestClient;
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-py-state-'));

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(async () => {
    await stopAll();
  });

  async function sessionDetails(sessionId: string): Promise<Record<string, unknown>> {
    const d = await client.call<{ diagnostics: { engine: { details: Record<string, unknown> } } }>('session_diagnostics', { sessionId });
    return d.structured.diagnostics.engine.details;
  }

  async function stopAll() {
    const { structured } = await client.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
    for (const s of structured.sessions) {
      if (['running', 'stopped', 'initializing'].includes(s.state)) await client.call('session_stop', { sessionId: s.sessionId });
    }
  }

  it('runs the whole workflow: breakpoint → stack → locals → evaluate → steps → next hit → stop', async () => {
    const program = fixture('workflow.py');
    const launch = await client.call<Wait & { breakpoints: { id: number; verified: boolean }[] }>('session_launch', {
      program,
      breakpoints: [{ file: program, line: line('workflow.py', 'accumulate') }],
      waitForStop: true,
    });
    expect(launch.isError, launch.text).toBe(false);
    const sessionId = launch.structured.sessionId;
    expect(launch.structured.breakpoints[0].verified).toBe(true);
    expect(launch.structured.stop?.reason).toBe('breakpoint');
    expect(launch.structured.stop?.frame).toMatchObject({ name: 'compute_total', line: line('workflow.py', 'accumulate') });
    expect(launch.structured.stop?.hitBreakpointIds).toEqual([launch.structured.breakpoints[0].id]);
    expect(launch.text).toMatch(/Stopped at breakpoint #1 in compute_total \(workflow\.py:\d+\), thread \d+/);
    expect(launch.text).toMatch(new RegExp(`^> +${line('workflow.py', 'accumulate')} \\|`, 'm'));
    expect(launch.text).toMatch(/locals: .*total = 0/);

    const stack = await client.call<{ frames: { index: number; name: string; line: number }[] }>('inspect_stack', {});
    expect(stack.structured.frames.slice(0, 2).map((f) => f.name)).toEqual(['compute_total', 'main']);

    const locals = await client.call<{ variables: { name: string; value: string; path: string; hasChildren: boolean }[] }>('inspect_variables', {});
    const names = locals.structured.variables.map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['order', 'total', 'item']));

    const item = await client.call<{ variables: { name: string; value: string; path: string }[] }>('inspect_variables', { path: 'order.items[0]' });
    expect(item.isError, item.text).toBe(false);
    expect(item.structured.variables.find((v) => v.path.endsWith("['price']"))?.value).toBe('2');

    const callerTable = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { path: 'table["counts"]', frameIndex: 1 });
    expect(callerTable.isError, callerTable.text).toBe(false);
    expect(callerTable.structured.variables.filter((v) => /^\d+$/.test(v.name)).map((v) => v.value)).toEqual(['1', '2', '3']);

    const evaluated = await client.call<{ value: string; type?: string }>('inspect_evaluate', { expression: 'item["price"] * item["qty"] + 1' });
    expect(evaluated.structured).toMatchObject({ value: '7', type: 'int' });

    const into = await client.call<Wait>('execution_step', { kind: 'into' });
    expect(into.structured.stop?.frame.name).toBe('line_total');
    expect(into.structured.stop?.reason).toBe('step');
    const over = await client.call<Wait>('execution_step', { kind: 'over' });
    expect(over.structured.stop?.frame.line).toBe(line('workflow.py', 'line_total') + 1);
    expect(over.text).toMatch(/subtotal = 6/);
    const out = await client.call<Wait>('execution_step', { kind: 'out' });
    expect(out.structured.stop?.frame.name).toBe('compute_total');

    const next = await client.call<Wait>('execution_continue', {});
    expect(next.structured.status).toBe('stopped');
    expect(next.structured.stop?.frame.line).toBe(line('workflow.py', 'accumulate'));
    expect(next.structured.stop?.locals?.find((l) => l.name === 'total')?.value).toBe('6');

    const bps = await client.call<{ breakpoints: { hits: number }[] }>('breakpoint_list', {});
    expect(bps.structured.breakpoints[0].hits).toBe(2);

    const stopped = await client.call<{ state: string }>('session_stop', { sessionId });
    expect(stopped.isError).toBe(false);
    expect(stopped.structured.state).toBe('terminated');
  });

  it('reports the exit code and the output, and lists events', async () => {
    const program = fixture('workflow.py');
    const launch = await client.call<Wait>('session_launch', { program });
    const wait = await client.call<Wait>('breakpoint_wait', { sessionId: launch.structured.sessionId });
    expect(wait.structured).toMatchObject({ status: 'exited', exitCode: 3, state: 'exited' });
    expect(wait.text).toMatch(/exited with code 3/);
    expect(wait.text).toContain('grand total 35');
    const output = await client.call<{ output: string; cursor: number }>('session_output', { sessionId: launch.structured.sessionId });
    expect(output.structured.output).toBe('grand total 35\ncounts 3\n');
    const again = await client.call<{ output: string }>('session_output', { sessionId: launch.structured.sessionId, cursor: output.structured.cursor });
    expect(again.structured.output).toBe('');
    const events = await client.call<{ events: { type: string }[] }>('session_events', { sessionId: launch.structured.sessionId });
    expect(events.structured.events.map((e) => e.type)).toEqual(expect.arrayContaining(['started', 'exited']));
  });

  it('honours conditional, hit-count and log breakpoints', async () => {
    const program = fixture('loop.py');
    const body = line('loop.py', 'body');
    const conditional = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, condition: 'i == 7' }], waitForStop: true });
    expect(conditional.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('7');
    expect(conditional.text).not.toContain('could not be evaluated');
    await client.call('session_stop', { sessionId: conditional.structured.sessionId });

    // A condition that raises stops and says why (pydevd took it for false, silently).
    const broken = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, condition: 'idx == 7' }], waitForStop: true });
    expect(broken.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('0');
    expect(broken.text).toContain("The condition of breakpoint #1 (idx == 7) could not be evaluated: NameError: name 'idx' is not defined");
    await client.call('session_stop', { sessionId: broken.structured.sessionId });

    const hit = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, hitCondition: '4' }], waitForStop: true });
    expect(hit.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('3');
    await client.call('session_stop', { sessionId: hit.structured.sessionId });

    const log = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: body, logMessage: 'i is {i}' }], waitForStop: true });
    expect(log.structured.status).toBe('exited');
    const output = await client.call<{ output: string }>('session_output', { sessionId: log.structured.sessionId });
    expect(output.structured.output).toContain('i is 9');
    expect(output.structured.output).toContain('total=45');
  });

  it('stops on an uncaught exception with its type and message, then reports the exit', async () => {
    const program = fixture('crash.py');
    const r = await client.call<Wait>('session_launch', { program, waitForStop: true });
    expect(r.structured.stop?.reason).toBe('exception');
    expect(r.structured.stop?.exception?.type).toMatch(/ValueError/);
    expect(r.structured.stop?.exception?.message).toMatch(/invalid literal for int\(\)/);
    expect(r.text).toMatch(/Stopped on .*exception .*ValueError/);
    const end = await client.call<Wait>('execution_continue', {});
    expect(end.structured.status).toBe('exited');
    expect(end.structured.exitCode).toBe(1);
    expect(end.structured.outputTail).toContain('ValueError');
    const output = await client.call<{ output: string }>('session_output', { sessionId: r.structured.sessionId });
    expect(output.structured.output).toContain('about to fail');
  });

  it('says an exception stopped on by the "all" filter was raised (pydevd\'s mode "always")', async () => {
    const r = await client.call<Wait>('session_launch', { program: fixture('crash.py'), exceptions: 'all', waitForStop: true });
    expect(r.text).toMatch(/Stopped on raised exception ValueError: invalid literal/);
  });

  it('says which exceptions an ExceptionGroup holds', async () => {
    const r = await client.call<Wait>('session_launch', { program: fixture('groups.py'), waitForStop: true });
    expect(r.structured.stop?.exception?.type).toBe('ExceptionGroup');
    expect(r.text).toContain("holds ValueError: invalid literal for int() with base 10: 'x'\nholds ValueError: invalid literal for int() with base 10: 'y'\n");
  });

  it('runs a package as -m package, its relative imports working', async () => {
    const file = join(FIXTURES, 'shop', 'prices.py');
    const r = await client.call<Wait>('session_launch', { program: '-m shop', cwd: FIXTURES, breakpoints: [{ file, line: markerLine(file, 'BP:taxed') }], waitForStop: true });
    expect(r.structured.stop?.frame, r.text).toMatchObject({ name: 'with_tax', file });
    expect(r.text).toMatch(/locals: .*taxed = 12\.0/);
    const end = await client.call<Wait>('execution_continue', {});
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(end.structured.outputTail).toContain('total 12.0');
  });

  it('shows what reading an attribute raised in one line, and says a statement ran', async () => {
    const program = fixture('shapes.py');
    await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: line('shapes.py', 'shapes') }], waitForStop: true });
    const pixel = await client.call<{ variables: { name: string; value: string; type?: string }[] }>('inspect_variables', { path: 'pixel' });
    const color = pixel.structured.variables.find((v) => v.name === 'color');
    expect(color?.value).toBe("<raises AttributeError: 'Pixel' object has no attribute 'color'>");
    expect(color?.type).toBeUndefined();
    const account = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { path: 'account' });
    expect(account.structured.variables.find((v) => v.name === 'ratio')?.value).toBe('<raises ZeroDivisionError: no credit line>');
    const statement = await client.call('inspect_evaluate', { expression: 'doubled = account.balance * 2' });
    expect(statement.text).toBe(`[${statement.structured.sessionId}] doubled = account.balance * 2: done (a statement: no value)`);
    expect((await client.call<{ value: string }>('inspect_evaluate', { expression: 'doubled' })).structured.value).toBe('20');
  });

  it('stops at a breakpoint on the only line of a program that exits at once, 20 times out of 20', async () => {
    const program = fixture('only_line.py');
    let hits = 0;
    for (let i = 0; i < 20; i++) {
      const r = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: 1 }], waitForStop: true, timeoutMs: 20_000 });
      if (r.structured.status === 'stopped' && r.structured.stop?.frame.line === 1) hits++;
      await client.call('session_stop', { sessionId: r.structured.sessionId });
    }
    expect(hits).toBe(20);
  }, 180_000);

  it('answers a bad expression with EVALUATION_FAILED and Python\'s message', async () => {
    const program = fixture('loop.py');
    await client.call('session_launch', { program, breakpoints: [{ file: program, line: line('loop.py', 'body') }], waitForStop: true });
    const r = await client.call('inspect_evaluate', { expression: 'no_such_name + 1' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^EVALUATION_FAILED: .*NameError.*no_such_name/s);
    const syntax = await client.call('inspect_evaluate', { expression: '1 +* 2' });
    expect(syntax.text).toMatch(/^EVALUATION_FAILED: .*SyntaxError/s);
    await stopAll();
  });

  it('says where a breakpoint on a comment line went, or that it is not verified', async () => {
    const program = fixture('workflow.py');
    const comment = line('workflow.py', 'comment');
    const r = await client.call<{ breakpoints: { verified: boolean; actualLine?: number; message?: string; status: string }[] }>('session_launch', {
      program,
      breakpoints: [{ file: program, line: comment }],
      stopOnEntry: true,
    });
    const bp = r.structured.breakpoints[0];
    if (bp.verified) {
      expect(bp.actualLine).toBeDefined();
      expect(bp.actualLine).not.toBe(comment);
    } else expect(bp.message).toBeTruthy();
    expect(r.text).toMatch(/#1 workflow\.py:\d+ — (verified, moved to line \d+|unverified: .+)/);
    await stopAll();
  });

  it('changes a value while stopped and the program computes with it', async () => {
    const program = fixture('loop.py');
    const launch = await client.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: line('loop.py', 'body'), condition: 'i == 9' }], waitForStop: true });
    const set = await client.call<{ value: string }>('inspect_set_variable', { name: 'total', value: '1000' });
    expect(set.isError, set.text).toBe(false);
    expect(set.structured.value).toBe('1000');
    const state = await client.call<{ stop?: Stop }>('session_state', {});
    expect(state.structured.stop?.locals?.find((l) => l.name === 'total')?.value).toBe('1000');
    const end = await client.call<Wait>('execution_continue', {});
    expect(end.structured.outputTail).toContain('total=1009');
    await client.call('session_stop', { sessionId: launch.structured.sessionId });
  });

  it('runs to a line, and pauses a busy program', async () => {
    const program = fixture('workflow.py');
    await client.call('session_launch', { program, stopOnEntry: true, waitForStop: true });
    const runTo = await client.call<Wait>('execution_run_to', { file: program, line: line('workflow.py', 'return') });
    expect(runTo.structured.stop?.frame.line).toBe(line('workflow.py', 'return'));
    const list = await client.call<{ breakpoints: unknown[] }>('breakpoint_list', {});
    expect(list.structured.breakpoints).toEqual([]);
    await stopAll();

    const busy = fixture('busy.py');
    const launched = await client.call<Wait>('session_launch', { program: busy });
    expect(launched.structured.state).toBe('running');
    const paused = await client.call<Wait>('execution_pause', {});
    expect(paused.structured.status).toBe('stopped');
    expect(paused.structured.stop?.reason).toBe('pause');
    const threads = await client.call<{ threads: { id: number; stopped: boolean }[] }>('inspect_threads', {});
    expect(threads.structured.threads.some((t) => t.stopped)).toBe(true);
    await stopAll();
  });

  it('keeps two sessions apart and asks which one when it is ambiguous', async () => {
    const a = await client.call<Wait>('session_launch', { program: fixture('loop.py'), breakpoints: [{ file: fixture('loop.py'), line: line('loop.py', 'body') }], waitForStop: true });
    const b = await client.call<Wait>('session_launch', { program: fixture('busy.py') });
    expect(a.structured.sessionId).not.toBe(b.structured.sessionId);
    const ambiguous = await client.call('inspect_stack', {});
    expect(ambiguous.text).toMatch(/^SESSION_AMBIGUOUS: .*sessionId/s);
    const stackA = await client.call<{ frames: { name: string }[] }>('inspect_stack', { sessionId: a.structured.sessionId });
    expect(stackA.structured.frames[0].name).toBe('<module>');
    const stateB = await client.call<{ state: string }>('session_state', { sessionId: b.structured.sessionId });
    expect(stateB.structured.state).toBe('running');
    await stopAll();
  });

  it('probes a run in one call', async () => {
    const program = fixture('loop.py');
    const r = await client.call<{ status: string; hits: { stop: Stop; values: { expression: string; value?: string }[] }[]; exitCode?: number }>('debug_probe', {
      program,
      breakpoints: [{ file: program, line: line('loop.py', 'body'), condition: 'i % 4 == 0' }],
      expressions: ['i * 10', 'undefined_name'],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.status).toBe('exited');
    expect(r.structured.hits.map((h) => h.values[0].value)).toEqual(['0', '40', '80']);
    expect(r.structured.hits[0].values[1]).toMatchObject({ expression: 'undefined_name' });
    expect(r.structured.exitCode).toBe(0);
  });

  it('stops at each thread that reached a breakpoint while another thread\'s stop held the program (a probe counts every hit, as prints would)', async () => {
    const program = fixture('workers.py');
    const at = { file: program, line: line('workers.py', 'together') };
    for (let run = 0; run < 3; run++) {
      const r = await client.call<{ hits: { values: { value?: string }[] }[] }>('debug_probe', { program, breakpoints: [at], expressions: ['item'] });
      expect(r.structured.hits.map((h) => h.values[0].value).sort(), r.text).toEqual(['0', '1', '2', '3']);
    }
    const odd = await client.call<{ hits: { values: { value?: string }[] }[] }>('debug_probe', { program, breakpoints: [{ ...at, condition: 'item % 2 == 1' }], expressions: ['item'] });
    expect(odd.structured.hits.map((h) => h.values[0].value).sort(), odd.text).toEqual(['1', '3']);
  });

  it('leaves no process behind after session_stop', async () => {
    const r = await client.call<Wait>('session_launch', { program: fixture('busy.py') });
    // The session's adapter and what it started (a ready debuggee for the next launch lives on).
    const adapterPid = (await sessionDetails(r.structured.sessionId)).adapterPid as number;
    const during = [adapterPid, ...descendants(adapterPid)];
    expect(during.length).toBeGreaterThan(2);
    await client.call('session_stop', { sessionId: r.structured.sessionId });
    expect(await waitGone(during)).toEqual([]);
  });
});

describe.runIf(run)('python process hygiene and recovery', () => {
  it('leaves no process behind when the client disconnects', async () => {
    const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-py-')) } });
    await client.call('session_launch', { program: fixture('busy.py') });
    await client.call('session_launch', { program: fixture('loop.py'), breakpoints: [{ file: fixture('loop.py'), line: line('loop.py', 'body') }], waitForStop: true });
    const tree = [client.pid!, ...descendants(client.pid!)];
    expect(tree.length).toBeGreaterThan(3);
    await client.close();
    expect(await waitGone(tree, 8000)).toEqual([]);
  });

  it('leaves no process behind when the server gets SIGTERM', async () => {
    const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-py-')) } });
    await client.call('session_launch', { program: fixture('busy.py') });
    const tree = [client.pid!, ...descendants(client.pid!)];
    process.kill(client.pid!, 'SIGTERM');
    expect(await waitGone(tree, 8000)).toEqual([]);
    await client.close();
  });

  it('lists the sessions of a server that went away as recoverable and restarts one with its breakpoints', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'dbb-py-recover-'));
    const program = fixture('loop.py');
    const first = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir } });
    const launched = await first.call<Wait>('session_launch', { program, breakpoints: [{ file: program, line: line('loop.py', 'body'), condition: 'i == 5' }], waitForStop: true });
    await first.close();

    const second = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir } });
    try {
      const list = await second.call<{ recoverable: { sessionId: string; breakpoints: number }[] }>('session_list');
      expect(list.structured.recoverable).toEqual([expect.objectContaining({ sessionId: launched.structured.sessionId, breakpoints: 1 })]);
      const restarted = await second.call<Wait>('session_restart', { sessionId: launched.structured.sessionId, waitForStop: true });
      expect(restarted.isError, restarted.text).toBe(false);
      expect(restarted.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('5');
      await second.call('session_stop', {});
    } finally {
      await second.close();
    }
  });

  it('sends progress while waiting and stops waiting when the request is cancelled', async () => {
    const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-py-')) } });
    try {
      await client.call('session_launch', { program: fixture('busy.py') });
      const progress: (string | undefined)[] = [];
      const t0 = Date.now();
      const r = await client.call<Wait>('breakpoint_wait', { timeoutMs: 2500 }, { onProgress: (m) => progress.push(m) });
      expect(r.structured.status).toBe('timeout');
      expect(Date.now() - t0).toBeGreaterThanOrEqual(2400);
      expect(progress.length).toBeGreaterThan(0);

      const controller = new AbortController();
      const t1 = Date.now();
      const pending = client.client.callTool({ name: 'breakpoint_wait', arguments: { timeoutMs: 60_000 } }, undefined, { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      await expect(pending).rejects.toThrow();
      // The server is free again at once: a call answers quickly.
      const state = await client.call<{ state: string }>('session_state', {});
      expect(state.structured.state).toBe('running');
      expect(Date.now() - t1).toBeLessThan(5000);
      expect(client.logs.length).toBeGreaterThanOrEqual(0);
    } finally {
      await client.close();
    }
  });

  it('sends a logging notification when the program stops', async () => {
    const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-py-')) } });
    try {
      const program = fixture('loop.py');
      await client.call('session_launch', { program, breakpoints: [{ file: program, line: line('loop.py', 'body') }], waitForStop: true });
      const deadline = Date.now() + 3000;
      while (!client.logs.some((l) => JSON.stringify(l.data).includes('stopped')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(client.logs.some((l) => JSON.stringify(l.data).includes('stopped'))).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe.runIf(run)('python attach', () => {
  it('attaches to a program started with debugpy --listen, stops at a breakpoint, and detaches leaving it running', async () => {
    const { spawn } = await import('node:child_process');
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const program = fixture('busy.py');
    const debuggee = spawn('/usr/bin/python3', ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, program], { stdio: 'ignore' });
    const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-py-')) } });
    try {
      let attached: Awaited<ReturnType<typeof client.call<Wait>>> | undefined;
      for (let i = 0; i < 50 && !attached?.structured.stop; i++) {
        attached = await client.call<Wait>('session_attach', {
          language: 'python',
          port,
          breakpoints: [{ file: program, line: line('busy.py', 'tick') }],
          waitForStop: true,
          timeoutMs: 10_000,
        });
        if (attached.isError) await new Promise((r) => setTimeout(r, 200)); // debugpy not listening yet
      }
      expect(attached?.isError, attached?.text).toBe(false);
      expect(attached?.structured.stop?.frame.line).toBe(line('busy.py', 'tick'));
      const detached = await client.call('session_stop', { detach: true });
      expect(detached.isError).toBe(false);
      await new Promise((r) => setTimeout(r, 500));
      expect(debuggee.exitCode).toBeNull();
    } finally {
      await client.close();
      debuggee.kill('SIGKILL');
    }
  });
});
