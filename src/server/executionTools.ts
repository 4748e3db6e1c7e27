/** Execution group: continue, step, pause, run to line. Each answers the next stop (or the exit). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError } from '../core/errors.js';
import type { SessionManager } from '../core/sessionManager.js';
import { resolveFile } from './launchArgs.js';
import { renderWait } from './render.js';
import { renderHangReport } from './renderHang.js';
import { sessionIdInput, timeoutInput, waitResultShape } from './schemas.js';
import { waitView } from './structured.js';
import { defineTool } from './toolKit.js';

export const DEFAULT_WAIT_MS = 30_000;
const STEP_WAIT_MS = 10_000;

export function registerExecutionTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'execution_continue',
    {
      title: 'Continue',
      description: 'Resumes and waits for the next stop or the exit (wait: false returns at once).',
      input: {
        sessionId: sessionIdInput,
        threadId: z.number().int().optional(),
        wait: z.boolean().optional(),
        timeoutMs: timeoutInput,
      },
      output: waitResultShape,
    },
    async ({ sessionId, threadId, wait, timeoutMs }, ctx) => {
      const session = manager.get(sessionId);
      const waitFor = wait ?? true;
      const r = await session.continue({ wait: waitFor, threadId, timeoutMs: timeoutMs ?? DEFAULT_WAIT_MS, signal: ctx.signal, onProgress: ctx.progress });
      const text = waitFor ? renderWait(session.id, r, timeoutMs ?? DEFAULT_WAIT_MS) : `[${session.id}] Continued; ${r.state}. breakpoint_wait answers the next stop.`;
      return { text, data: waitView(session, r) };
    },
  );

  defineTool(
    server,
    'execution_step',
    {
      title: 'Step',
      description: 'Steps over, into or out; answers the new stop.',
      input: {
        sessionId: sessionIdInput,
        kind: z.enum(['over', 'into', 'out']),
        threadId: z.number().int().optional(),
        timeoutMs: timeoutInput,
      },
      output: waitResultShape,
    },
    async ({ sessionId, kind, threadId, timeoutMs }, ctx) => {
      const session = manager.get(sessionId);
      const r = await session.step(kind, { threadId, timeoutMs: timeoutMs ?? STEP_WAIT_MS, signal: ctx.signal, onProgress: ctx.progress });
      return { text: renderWait(session.id, r, timeoutMs ?? STEP_WAIT_MS), data: waitView(session, r) };
    },
  );

  defineTool(
    server,
    'execution_pause',
    {
      title: 'Pause',
      description: 'Interrupts the program; answers where it stopped, and every thread\'s stack (hang report).',
      input: { sessionId: sessionIdInput, threadId: z.number().int().optional(), timeoutMs: timeoutInput },
      output: waitResultShape,
    },
    async ({ sessionId, threadId, timeoutMs }, ctx) => {
      const session = manager.get(sessionId);
      const r = await session.pause({ threadId, timeoutMs: timeoutMs ?? STEP_WAIT_MS, signal: ctx.signal, onProgress: ctx.progress });
      // Where every other thread is, in the same answer: a hang shows at once.
      if (r.status === 'stopped' && !r.hang) r.hang = await session.hangReport().then((h) => (h.threads.length > 1 ? h : undefined), () => undefined);
      const report = r.hang ? `\n${renderHangReport(r.hang)}` : '';
      return { text: renderWait(session.id, r, timeoutMs ?? STEP_WAIT_MS) + report, data: waitView(session, r) };
    },
  );

  defineTool(
    server,
    'execution_jump',
    {
      title: 'Set next statement',
      description: 'Sets the next statement: line in the top frame (Python, .NET; skipped code does not run), or restartFrame: a frame index to rerun (Node).',
      input: {
        sessionId: sessionIdInput,
        line: z.number().int().min(1).optional(),
        restartFrame: z.number().int().min(0).optional(),
        threadId: z.number().int().optional(),
      },
      output: waitResultShape,
    },
    async ({ sessionId, line, restartFrame, threadId }, ctx) => {
      if ((line === undefined) === (restartFrame === undefined)) throw new DebugError('INVALID_ARGUMENT', 'Give line or restartFrame (one of them).', 'e.g. execution_jump { line: 12 }.');
      const session = manager.get(sessionId);
      const target = line !== undefined ? { line } : { restartFrame: restartFrame! };
      const r = await session.jump(target, { threadId, timeoutMs: STEP_WAIT_MS, signal: ctx.signal, onProgress: ctx.progress });
      return { text: renderWait(session.id, r, STEP_WAIT_MS), data: waitView(session, r) };
    },
  );

  defineTool(
    server,
    'execution_run_to',
    {
      title: 'Run to line',
      description: 'Runs to file:line (or an earlier stop).',
      input: {
        sessionId: sessionIdInput,
        file: z.string(),
        line: z.number().int().min(1),
        timeoutMs: timeoutInput,
      },
      output: waitResultShape,
    },
    async ({ sessionId, file, line, timeoutMs }, ctx) => {
      const session = manager.get(sessionId);
      const r = await session.runTo(resolveFile(manager, file, session.config.cwd), line, { timeoutMs: timeoutMs ?? DEFAULT_WAIT_MS, signal: ctx.signal, onProgress: ctx.progress });
      return { text: renderWait(session.id, r, timeoutMs ?? DEFAULT_WAIT_MS), data: waitView(session, r) };
    },
  );
}
