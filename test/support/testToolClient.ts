/**
 * What the debug_test end-to-end files share: a server over stdio, the shape of its answers, and a
 * check that a finished or stopped test run leaves no process behind.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { descendants, waitGone } from './processTree.js';
import { readiedAhead } from './readiedAhead.js';
import { stopActiveSessions } from './sessions.js';

export interface DebugTestAnswer {
  sessionId: string;
  state: string;
  framework: string;
  status: 'stopped' | 'finished' | 'timeout';
  stop?: {
    reason: string;
    frameIndex: number;
    frame: { name: string; file?: string; line: number };
    hitBreakpointIds: number[];
    locals?: { name: string; value: string }[];
    exception?: { type?: string; message?: string; kind?: string; expected?: string; actual?: string };
  };
  failure?: {
    frameIndex: number;
    frame: { name: string; file?: string; line: number };
    type?: string;
    message?: string;
    expected?: string;
    actual?: string;
    locals?: { name: string; value: string }[];
  };
  result?: { status: string; counts?: string; failureSummary?: string; exitCode?: number };
}

export interface TestListAnswer {
  framework: string;
  tests: { id: string }[];
  total: number;
}

/**
 * Whether a run's counts say it ran one test (skipped ones aside): unittest's `ran 1; OK`, pytest's
 * `1 passed`, node:test's `1 failed, 0 passed, 6 skipped`, jest's `1 passed, 6 skipped, 7 total`,
 * vitest's `1 passed | 6 skipped (7)`, VSTest's `Failed: 0, Passed: 1, …`, the platform's `0 failed, 1 passed, 1 total`.
 */
export function ranAlone(counts: string | undefined): boolean {
  if (!counts) return false;
  const unittest = /^ran (\d+);/.exec(counts);
  if (unittest) return unittest[1] === '1';
  const numbers = [...counts.matchAll(/(\d+) (?:passed|failed)\b|\b(?:Passed|Failed):\s+(\d+)/g)];
  return numbers.reduce((sum, m) => sum + Number(m[1] ?? m[2]), 0) === 1;
}

export async function startTestClient(): Promise<McpTestClient> {
  return McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-test-tools-')) } });
}

/**
 * The processes under the server now (a test run's runner, debuggee and test host), less what the
 * server readies ahead for the next Python launch (a spare adapter, a ready debuggee); the
 * adapters of the server's sessions (a run may have taken a ready debuggee) stay counted.
 */
export async function runningUnder(client: McpTestClient): Promise<number[]> {
  type Diagnostics = { diagnostics: { engine?: { details?: { adapterPid?: number } } } };
  const { structured } = await client.call<{ sessions: { sessionId: string }[] }>('session_list');
  const used: number[] = [];
  for (const { sessionId } of structured.sessions) {
    const d = await client.call<Diagnostics>('session_diagnostics', { sessionId });
    const adapterPid = d.structured?.diagnostics?.engine?.details?.adapterPid;
    if (adapterPid !== undefined) used.push(adapterPid);
  }
  const all = descendants(client.pid!);
  const readied = readiedAhead(all, used);
  return all.filter((pid) => !readied.has(pid));
}

/** Ends every session still active; `during` (the processes a run had) must then all be gone. */
export async function stopAllAndCheckGone(client: McpTestClient, during: number[]): Promise<void> {
  await stopActiveSessions(client);
  expect(await waitGone(during, 10_000)).toEqual([]);
}

/**
 * A run let go (`execution_continue` with `wait: false`, or a step that did not end it) is seen
 * ending by `breakpoint_wait`, then by `session_state`: each says the test's verdict.
 */
export async function expectEndSeen(client: McpTestClient, sessionId: string, verdict: 'passed' | 'failed', timeoutMs = 60_000): Promise<{ status: string; counts?: string }> {
  const word = verdict.toUpperCase();
  const end = await client.call<{ status: string; verdict?: { status: string; counts?: string } }>('breakpoint_wait', { sessionId, timeoutMs }, { timeoutMs: timeoutMs + 10_000 });
  expect(end.structured, end.text).toMatchObject({ status: 'exited', verdict: { status: verdict } });
  expect(end.text).toMatch(new RegExp(`^\\[${sessionId}\\] The test run ended: ${word}\\b`));
  const state = await client.call<{ state: string; verdict?: { status: string } }>('session_state', { sessionId });
  expect(state.structured).toMatchObject({ state: 'exited', verdict: { status: verdict } });
  expect(state.text).toMatch(new RegExp(`^\\[${sessionId}\\] The test run ended: ${word}\\b`));
  return end.structured.verdict!;
}
