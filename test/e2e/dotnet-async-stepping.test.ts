/**
 * Stepping out of .NET async methods through the real MCP server, when the caller has not awaited the
 * method's task yet: the method still runs synchronously inside its caller's call, or it resumed on
 * the thread pool while its caller is busy before its `await`. Either way the step ends where the
 * caller picks up the method's result, once the method has finished (as Visual Studio does); so too
 * for a ValueTask, a caller blocking on `.Result`, and a step over the method's closing brace.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Stop {
  reason: string;
  threadId: number;
  frame: { name: string; file?: string; line: number };
}
interface Wait {
  sessionId: string;
  status: 'stopped' | 'exited' | 'timeout';
  stop?: Stop;
  exitCode?: number;
}

describe.runIf(run)('.NET async step out before the caller awaits', () => {
  let client: McpTestClient;
  let lab: string;
  const awaiting = fixtureSource('lab', 'Awaiting.cs');

  beforeAll(async () => {
    lab = buildFixture('lab');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-async-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => stopActiveSessions(client));

  async function launchAt(marker: string): Promise<Wait> {
    const r = await client.call<Wait>('session_launch', {
      program: lab,
      args: ['awaiting'],
      breakpoints: [{ file: awaiting.path, line: awaiting.line(marker) }],
      waitForStop: true,
      timeoutMs: 30_000,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.stop?.frame.line, r.text).toBe(awaiting.line(marker));
    return r.structured;
  }

  async function step(sessionId: string, kind: 'over' | 'out'): Promise<Stop> {
    const r = await client.call<Wait>('execution_step', { sessionId, kind, timeoutMs: 20_000 });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.status, r.text).toBe('stopped');
    return r.structured.stop!;
  }

  async function evaluate(sessionId: string, expression: string): Promise<string> {
    const r = await client.call<{ value: string }>('inspect_evaluate', { sessionId, expression });
    expect(r.isError, r.text).toBe(false);
    return r.structured.value;
  }

  it('steps out of an async method still running inside its caller: stops in the caller once the method has finished', async () => {
    const { sessionId, stop } = await launchAt('count-sync');
    expect(stop?.frame.name).toBe('Lab.Awaiting.CountAsync');
    // Past the await's hidden plumbing: the caller's next statement, the result taken.
    const out = await step(sessionId, 'out');
    expect(out.frame).toMatchObject({ name: 'Lab.Awaiting.Run', line: awaiting.line('after-early-await') });
    expect(await evaluate(sessionId, 'early')).toBe('5');
    // The rest of CountAsync, after its await, ran before the stop.
    expect(await evaluate(sessionId, 'counted')).toBe('5');
  });

  it('steps out of an async method resumed before its caller awaits it: stops where the caller takes its result', async () => {
    const { sessionId, stop } = await launchAt('measure-resumed');
    expect(stop?.frame.name).toBe('Lab.Awaiting.MeasureWhenOpenAsync');
    const out = await step(sessionId, 'out');
    expect(out.frame).toMatchObject({ name: 'Lab.Awaiting.Run', line: awaiting.line('after-late-await') });
    expect(await evaluate(sessionId, 'late')).toBe('8');
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 20_000 });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
  });

  it('steps out of an async method that returns a ValueTask', async () => {
    const { sessionId } = await launchAt('halve');
    const out = await step(sessionId, 'out');
    expect(out.frame).toMatchObject({ name: 'Lab.Awaiting.Run', line: awaiting.line('after-halve-await') });
    expect(await evaluate(sessionId, 'half')).toBe('4');
  });

  it('steps out of an async method into a caller that blocks on its Result', async () => {
    const { sessionId } = await launchAt('double');
    const out = await step(sessionId, 'out');
    expect(out.frame).toMatchObject({ name: 'Lab.Awaiting.WaitFor', line: awaiting.line('wait-result') });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 20_000 });
    expect(end.structured).toMatchObject({ status: 'exited', exitCode: 0 });
  });

  it('steps over the end of a resumed async method into the caller that takes its result', async () => {
    const { sessionId } = await launchAt('measure-return');
    const brace = await step(sessionId, 'over');
    expect(brace.frame).toMatchObject({ name: 'Lab.Awaiting.MeasureWhenOpenAsync', line: awaiting.line('measure-return') + 1 });
    const back = await step(sessionId, 'over');
    expect(back.frame).toMatchObject({ name: 'Lab.Awaiting.Run', line: awaiting.line('after-late-await') });
  });
});
