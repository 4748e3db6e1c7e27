/** Breakpoint group: set, remove, list, exception breakpoints, and waiting for the next stop. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError } from '../core/errors.js';
import type { SessionManager } from '../core/sessionManager.js';
import { DEFAULT_WAIT_MS } from './executionTools.js';
import { exceptionConfig, resolveFile } from './launchArgs.js';
import { renderBreakpoint, renderBreakpoints, renderWait } from './render.js';
import { breakpointViewSchema, sessionIdInput, sessionScoped, timeoutInput, waitResultShape } from './schemas.js';
import { breakpointView, waitView } from './structured.js';
import { defineTool } from './toolKit.js';

export function registerBreakpointTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'breakpoint_set',
    {
      title: 'Set a breakpoint',
      description:
        'Sets a line breakpoint (file + line, optional condition / hitCondition / logMessage) or a function breakpoint (function). ' +
        'Answers whether the runtime verified it, the line it actually landed on, or why not.',
      input: {
        sessionId: sessionIdInput,
        file: z.string().optional().describe('Source file (absolute, or relative to the program\'s cwd).'),
        line: z.number().int().min(1).optional(),
        column: z.number().int().min(1).optional(),
        function: z.string().optional().describe('Break when this function is entered (instead of file + line).'),
        condition: z.string().optional().describe('Stop only when this expression is true.'),
        hitCondition: z.string().optional().describe('Stop on the Nth hit, e.g. "3" or ">= 3".'),
        logMessage: z.string().optional().describe('Log instead of stopping; {expr} is interpolated.'),
      },
      output: { ...sessionScoped, breakpoint: breakpointViewSchema },
    },
    async ({ sessionId, file, line, column, function: fn, condition, hitCondition, logMessage }) => {
      const session = manager.get(sessionId);
      if (!fn && (!file || !line)) {
        throw new DebugError('INVALID_ARGUMENT', 'A breakpoint needs file and line, or function.', 'Pass file + line (1-based), or function.');
      }
      const record = await session.setBreakpoint(
        fn ? { function: fn, condition, hitCondition } : { file: resolveFile(manager, file!, session.config.cwd, 'breakpoint file'), line, column, condition, hitCondition, logMessage },
      );
      return { text: `[${session.id}] ${renderBreakpoint(record)}`, data: { sessionId: session.id, state: session.state, breakpoint: breakpointView(record) } };
    },
  );

  defineTool(
    server,
    'breakpoint_remove',
    {
      title: 'Remove breakpoints',
      description: 'Removes a breakpoint by id, the breakpoints of a file (or of one line of it), or all of them.',
      input: {
        sessionId: sessionIdInput,
        id: z.number().int().optional(),
        file: z.string().optional(),
        line: z.number().int().min(1).optional(),
        all: z.boolean().optional(),
      },
      output: { ...sessionScoped, removed: z.array(z.number()) },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    async ({ sessionId, id, file, line, all }) => {
      const session = manager.get(sessionId);
      if (id === undefined && !file && !all) {
        throw new DebugError('INVALID_ARGUMENT', 'Say which breakpoints to remove.', 'Pass id, or file (+ line), or all: true.');
      }
      const removed = await session.removeBreakpoints({ id, file: file ? resolveFile(manager, file, session.config.cwd) : undefined, line, all });
      return {
        text: `[${session.id}] Removed ${removed.map((b) => `#${b.id}`).join(', ')}.`,
        data: { sessionId: session.id, state: session.state, removed: removed.map((b) => b.id) },
      };
    },
  );

  defineTool(
    server,
    'breakpoint_list',
    {
      title: 'List breakpoints',
      description: 'Every breakpoint of the session with its verified state, actual line and hit count, and the exception filters.',
      input: { sessionId: sessionIdInput },
      output: { ...sessionScoped, breakpoints: z.array(breakpointViewSchema), exceptionFilters: z.array(z.string()) },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId }) => {
      const session = manager.get(sessionId);
      const list = session.breakpoints.all(false);
      const filters = session.config.exceptions.filters;
      return {
        text: `[${session.id}] ${renderBreakpoints(list)}\nexceptions: ${filters.length ? filters.join(', ') : 'none'}`,
        data: { sessionId: session.id, state: session.state, breakpoints: list.map(breakpointView), exceptionFilters: filters },
      };
    },
  );

  defineTool(
    server,
    'breakpoint_exceptions',
    {
      title: 'Exception breakpoints',
      description: 'Break on uncaught exceptions, on all exceptions (every raise/throw), or none. dotnet: typeNames limits it to those exception types.',
      input: {
        sessionId: sessionIdInput,
        mode: z.enum(['none', 'uncaught', 'all']),
        typeNames: z.array(z.string()).optional(),
      },
      output: { ...sessionScoped, filters: z.array(z.string()) },
    },
    async ({ sessionId, mode, typeNames }) => {
      const session = manager.get(sessionId);
      const config = exceptionConfig(mode, typeNames);
      await session.setExceptionBreakpoints(config);
      return { text: `[${session.id}] Exception breakpoints: ${mode}${typeNames?.length ? ` (${typeNames.join(', ')})` : ''}.`, data: { sessionId: session.id, state: session.state, filters: config.filters } };
    },
  );

  defineTool(
    server,
    'breakpoint_wait',
    {
      title: 'Wait for a stop',
      description: `Waits for the next stop (breakpoint, step, exception, pause) or the exit, and answers it with source context and locals; if the program is already stopped, answers the current stop at once. Default timeout ${DEFAULT_WAIT_MS} ms; on timeout it says the state.`,
      input: { sessionId: sessionIdInput, timeoutMs: timeoutInput(DEFAULT_WAIT_MS) },
      output: waitResultShape,
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, timeoutMs }, ctx) => {
      const session = manager.get(sessionId);
      const r = await session.waitForStop({ timeoutMs: timeoutMs ?? DEFAULT_WAIT_MS, signal: ctx.signal, onProgress: ctx.progress });
      return { text: renderWait(session.id, r, timeoutMs ?? DEFAULT_WAIT_MS), data: waitView(session, r) };
    },
  );
}
