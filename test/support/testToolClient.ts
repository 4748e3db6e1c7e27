/**
 * What the debug_test end-to-end files share: a server over stdio, the shape of its answers, and a
 * check that a finished or stopped test run leaves no process behind.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { commandLine, descendants, waitGone } from './processTree.js';

export interface DebugTestAnswer {
  sessionId: string;
  state: string;
  framework: string;
  status: 'stopped' | 'finished' | 'timeout';
  stop?: { reason: string; frame: { name: string; file?: string; line: number }; hitBreakpointIds: number[]; locals?: { name: string; value: string }[] };
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

export async function startTestClient(): Promise<McpTestClient> {
  return McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-test-tools-')) } });
}

/**
 * The processes under the server now (a test run's runner, debuggee and test host), less the
 * debugpy adapter the server keeps ready for the next Python launch (idle: no child of its own).
 */
export function runningUnder(client: McpTestClient): number[] {
  const all = descendants(client.pid!);
  return all.filter((pid) => !(commandLine(pid).includes('debugpy.adapter') && descendants(pid).length === 0));
}

/** Ends every session still active; `during` (the processes a run had) must then all be gone. */
export async function stopAllAndCheckGone(client: McpTestClient, during: number[]): Promise<void> {
  const { structured } = await client.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
  for (const s of structured.sessions) {
    if (['running', 'stopped', 'initializing'].includes(s.state)) await client.call('session_stop', { sessionId: s.sessionId });
  }
  expect(await waitGone(during, 10_000)).toEqual([]);
}
