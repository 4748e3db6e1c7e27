/** What the .NET evaluation end-to-end files ask of a stopped program over MCP. */
import { expect } from 'vitest';
import type { McpTestClient } from '../../src/demo/mcpClient.js';

export interface Frame {
  name: string;
  line: number;
}
export interface Wait {
  sessionId: string;
  status: string;
  stop?: { reason: string; frame: Frame };
  exitCode?: number;
}

/** The program launched to a breakpoint at file:line, and stopped there. */
export async function launchTo(client: McpTestClient, program: string, file: string, line: number): Promise<Wait> {
  const r = await client.call<Wait>('session_launch', { program, breakpoints: [{ file, line }], waitForStop: true, timeoutMs: 60_000 });
  expect(r.structured.status, r.text).toBe('stopped');
  return r.structured;
}

export async function evaluate(client: McpTestClient, sessionId: string, expression: string): Promise<{ isError: boolean; text: string; value?: string; type?: string }> {
  const r = await client.call<{ value: string; type?: string }>('inspect_evaluate', { sessionId, expression });
  return { isError: r.isError, text: r.text, value: r.structured.value, type: r.structured.type };
}

/** The top frame's method and line (an evaluation must leave them as they were). */
export async function topFrame(client: McpTestClient, sessionId: string): Promise<Frame | undefined> {
  const r = await client.call<{ frames: Frame[] }>('inspect_stack', { sessionId, count: 1 });
  expect(r.isError, r.text).toBe(false);
  return r.structured.frames[0] && { name: r.structured.frames[0].name, line: r.structured.frames[0].line };
}
