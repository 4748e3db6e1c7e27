/**
 * Workflows in a row on one server, Python and Node in turn (launch → breakpoint → stack → locals →
 * evaluate → step → continue → stop): the server's live heap after a forced GC grows less than 5 %
 * from the baseline workflow to the last, and no file descriptor or process is left over.
 * The heap is read from outside, through the inspector of the server's own Node process.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../../src/demo/mcpClient.js';
import { CdpClient } from '../../src/engines/node/cdpClient.js';
import { SCALE } from './support/scale.js';
import { fixture, line, sleep, startServer, type TestServer } from './support/server.js';
import { descendants } from '../support/processTree.js';

const WORKFLOWS = [
  { program: 'e2e/python/workflow.py', at: 'line_total', expression: 'item["price"] * 10' },
  { program: 'node/workflow.js', at: 'line_total', expression: 'item.price * 10' },
];

describe('workflow soak', () => {
  let server: TestServer;
  let inspector: CdpClient;

  beforeAll(async () => {
    server = await startServer({}, ['--inspect=127.0.0.1:0', CLI_PATH]);
    const url = /Debugger listening on (ws:\/\/\S+)/.exec(server.stderr())?.[1];
    if (!url) throw new Error(`no inspector URL in the server's stderr: ${server.stderr().slice(0, 500)}`);
    inspector = await CdpClient.connect(url, { ackCarrier: false });
  });
  afterAll(async () => {
    inspector?.close();
    await server?.close();
  });

  /** The server's live heap after full garbage collections. */
  async function liveHeap(): Promise<number> {
    for (let i = 0; i < 3; i++) await inspector.send('HeapProfiler.collectGarbage');
    return (await inspector.send('Runtime.getHeapUsage')).usedSize;
  }

  const openFds = () => readdirSync(`/proc/${server.pid}/fd`).length;

  async function workflow(n: number): Promise<void> {
    const w = WORKFLOWS[n % WORKFLOWS.length];
    const program = fixture(w.program);
    const call = <T = Record<string, unknown>>(tool: string, args: Record<string, unknown>) => server.client.call<T>(tool, args, { timeoutMs: 60_000 });
    const r = await call<{ sessionId: string; status: string }>('session_launch', { program, breakpoints: [{ file: program, line: line(w.program, w.at) }], waitForStop: true });
    expect(r.structured.status, r.text).toBe('stopped');
    const sessionId = r.structured.sessionId;
    expect((await call('inspect_stack', { sessionId })).isError).toBe(false);
    expect((await call('inspect_variables', { sessionId })).isError).toBe(false);
    expect((await call<{ value: string }>('inspect_evaluate', { sessionId, expression: w.expression })).structured.value).toBe('20');
    expect((await call<{ status: string }>('execution_step', { sessionId, kind: 'over' })).structured.status).toBe('stopped');
    expect((await call<{ status: string }>('execution_continue', { sessionId })).structured.status).toBe('stopped');
    expect((await call('session_stop', { sessionId })).isError).toBe(false);
  }

  it(`${SCALE.soakWorkflows} workflows: live heap grows < 5 % after workflow ${SCALE.soakBaseline}, no fd or process left`, async () => {
    for (let n = 1; n <= SCALE.soakBaseline; n++) await workflow(n);
    await sleep(1500); // the last run's adapter and launcher end just after its stop
    const base = { heap: await liveHeap(), fds: openFds(), processes: descendants(server.pid).length };
    for (let n = SCALE.soakBaseline + 1; n <= SCALE.soakWorkflows; n++) await workflow(n);
    await sleep(1500);
    const end = { heap: await liveHeap(), fds: openFds(), processes: descendants(server.pid).length };
    const growth = (end.heap - base.heap) / base.heap;
    console.log(`soak: ${SCALE.soakWorkflows} workflows; live heap ${(base.heap / 1e6).toFixed(2)} MB at ${SCALE.soakBaseline} → ${(end.heap / 1e6).toFixed(2)} MB (${(growth * 100).toFixed(2)} %); fds ${base.fds} → ${end.fds}; processes ${base.processes} → ${end.processes}`);
    expect(growth).toBeLessThan(0.05);
    expect(end.fds).toBeLessThanOrEqual(base.fds);
    expect(end.processes).toBeLessThanOrEqual(base.processes);
  }, SCALE.longTestTimeoutMs);
});
