/** Breakpoint group: set, remove, list, exception breakpoints, and waiting for the next stop. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError } from '../core/errors.js';
import type { SessionManager } from '../core/sessionManager.js';
import { DEFAULT_WAIT_MS } from './executionTools.js';
import { breakpointRequest, exceptionConfig, resolveFile } from './launchArgs.js';
import { DEFAULT_TRACE_HITS } from '../core/traceLog.js';
import { renderBreakpoint, renderBreakpoints, renderWait } from './render.js';
import { DEFAULT_MAX_CHARS, renderTrace } from './renderAnswers.js';
import { breakpointFields, breakpointViewSchema, maxCharsInput, sessionIdInput, sessionScoped, timeoutInput, waitResultShape } from './schemas.js';
import { breakpointView, waitView } from './structured.js';
import { defineTool } from './toolKit.js';

export function registerBreakpointTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'breakpoint_set',
    {
      title: 'Set a breakpoint',
      description:
        'Line (file + line) or function breakpoint; with id, edits it (an empty value clears a field). hitCondition: "3", ">= 3", "% 2". logMessage logs {expr}. ' +
        `trace records values per hit without stopping (breakpoint_trace; maxHits default ${DEFAULT_TRACE_HITS}): expressions, {frameIndex, expression} in a caller (frames with source counted), "$CALLER".`,
      input: { sessionId: sessionIdInput, id: z.number().int().optional(), ...breakpointFields },
      output: { ...sessionScoped, breakpoint: breakpointViewSchema },
    },
    async ({ sessionId, id, ...fields }) => {
      const session = manager.get(sessionId);
      const request = breakpointRequest(manager, fields, session.config.cwd);
      const record = id === undefined ? await session.setBreakpoint(request) : await session.editBreakpoint(id, request);
      return { text: `[${session.id}] ${renderBreakpoint(record)}`, data: { sessionId: session.id, state: session.state, breakpoint: breakpointView(record) } };
    },
  );

  defineTool(
    server,
    'breakpoint_remove',
    {
      title: 'Remove breakpoints',
      description: 'Removes breakpoints by id, file (+ line) or all.',
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
      description: 'Breakpoints with state, actual line, hits; exception filters.',
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
      description: 'Break on uncaught, all or no exceptions (dotnet: typeNames narrows).',
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
    'breakpoint_trace',
    {
      title: 'Trace of a breakpoint',
      description: 'Rows a trace breakpoint recorded (hit, values), paged with start; threads: true adds the thread of each.',
      input: { sessionId: sessionIdInput, id: z.number().int(), start: z.number().int().min(0).optional(), threads: z.boolean().optional(), maxChars: maxCharsInput },
      output: {
        ...sessionScoped,
        id: z.number(),
        expressions: z.array(z.string()),
        hits: z.number(),
        maxHits: z.number(),
        rows: z.array(z.object({ hit: z.number(), threadId: z.number(), values: z.array(z.object({ value: z.string().optional(), type: z.string().optional(), error: z.boolean().optional() })) })),
        nextStart: z.number().optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, id, start, threads, maxChars }) => {
      const session = manager.get(sessionId);
      const trace = session.traces.get(id);
      if (!trace) throw new DebugError('BREAKPOINT_NOT_FOUND', `Breakpoint #${id} has no trace.`, 'breakpoint_set with trace: [...] makes one; breakpoint_list shows the ids.');
      const from = start ?? 0;
      const table = renderTrace(session.breakpoints.get(id), trace, from, (maxChars ?? DEFAULT_MAX_CHARS) - session.id.length - 3, threads);
      return {
        text: `[${session.id}] ${table.text}`,
        data: {
          sessionId: session.id,
          state: session.state,
          id,
          expressions: trace.expressions,
          hits: trace.rows.length,
          maxHits: trace.maxHits,
          rows: trace.rows.slice(from, from + table.shown),
          nextStart: table.next,
        },
      };
    },
  );

  defineTool(
    server,
    'breakpoint_wait',
    {
      title: 'Wait for a stop',
      description: 'Waits for the next stop or the exit (if stopped: answers the current stop).',
      input: { sessionId: sessionIdInput, timeoutMs: timeoutInput },
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
