/** Inspection group: threads, stack, variables, evaluate, set variable, source. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError } from '../core/errors.js';
import type { SessionManager } from '../core/sessionManager.js';
import { sourceWindow } from '../core/sourceReader.js';
import { resolveFile } from './launchArgs.js';
import { renderSourceLines, renderStack, renderThreads, renderVariables } from './render.js';
import { renderHangReport } from './renderHang.js';
import { hangSchema, sessionIdInput, sessionScoped, sourceLineSchema } from './schemas.js';
import { hangView } from './structured.js';
import { defineTool } from './toolKit.js';

const frameIndexInput = z.number().int().min(0).optional().describe('Frame index from inspect_stack (0 = top, the default).');
const threadIdInput = z.number().int().optional().describe('Default: the thread that stopped.');

export function registerInspectionTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'inspect_threads',
    {
      title: 'Threads',
      description: 'The program\'s threads; the one that stopped is marked with *.',
      input: { sessionId: sessionIdInput, stacks: z.boolean().optional().describe('Hang report: every stack, grouped, with what each thread waits on.') },
      output: { ...sessionScoped, threads: z.array(z.object({ id: z.number(), name: z.string(), stopped: z.boolean() })), hang: hangSchema.optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, stacks }) => {
      const session = manager.get(sessionId);
      if (stacks) {
        const hang = await session.hangReport();
        const stoppedId = session.stop?.threadId;
        const threads = hang.threads.map(({ id, name }) => ({ id, name, stopped: id === stoppedId }));
        return { text: `[${session.id}] ${renderHangReport(hang)}`, data: { sessionId: session.id, state: session.state, threads, hang: hangView(hang) } };
      }
      const threads = await session.threads();
      const stoppedId = session.stop?.threadId;
      return {
        text: `[${session.id}] ${threads.length} thread${threads.length === 1 ? '' : 's'}:\n${renderThreads(threads, stoppedId)}`,
        data: { sessionId: session.id, state: session.state, threads: threads.map((t) => ({ ...t, stopped: t.id === stoppedId })) },
      };
    },
  );

  defineTool(
    server,
    'inspect_stack',
    {
      title: 'Stack',
      description: 'The call stack of a stopped thread, top first, paged with start/count (default 20 frames). Frames of callers that await (async stack traces) are marked async.',
      input: {
        sessionId: sessionIdInput,
        threadId: threadIdInput,
        start: z.number().int().min(0).optional(),
        count: z.number().int().min(1).max(500).optional(),
      },
      output: {
        ...sessionScoped,
        threadId: z.number(),
        frames: z.array(z.object({ index: z.number(), name: z.string(), file: z.string().optional(), line: z.number(), column: z.number(), async: z.boolean().optional() })),
        totalFrames: z.number().optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, threadId, start, count }) => {
      const session = manager.get(sessionId);
      const from = start ?? 0;
      const page = await session.stackPage(threadId, from, count ?? 20);
      const tid = threadId ?? session.stoppedThreadId();
      const frames = page.frames.map((f, i) => ({ ...f, index: from + i }));
      return {
        text: `[${session.id}] ${renderStack(frames, tid, page.total)}`,
        data: {
          sessionId: session.id,
          state: session.state,
          threadId: tid,
          frames: frames.map(({ index, name, file, line, column, async }) => ({ index, name, file, line, column, async })),
          totalFrames: page.total,
        },
      };
    },
  );

  defineTool(
    server,
    'inspect_variables',
    {
      title: 'Variables',
      description:
        'Values in a frame: the local scope by default, another scope by name (scope: "Globals"), or the children of a value by path ' +
        '(e.g. order.items[2], table["counts"]) or by ref. depth > 1 expands children too. Paged with start/count (default 50); long values are cut, ' +
        'and an answer past its size cap or time budget is cut, saying where to go on.',
      input: {
        sessionId: sessionIdInput,
        frameIndex: frameIndexInput,
        threadId: threadIdInput,
        path: z.string().optional().describe('A value to expand, e.g. order.items[2].'),
        ref: z.number().int().positive().optional().describe('A ref from an earlier answer (valid while stopped at the same place).'),
        scope: z.string().optional().describe('A scope name, e.g. Locals or Globals.'),
        depth: z.number().int().min(1).max(4).optional().describe('How many levels to expand (default 1).'),
        start: z.number().int().min(0).optional(),
        count: z.number().int().min(1).max(500).optional(),
      },
      output: {
        ...sessionScoped,
        container: z.string(),
        variables: z.array(
          z.object({ name: z.string(), value: z.string(), type: z.string().optional(), path: z.string(), hasChildren: z.boolean(), ref: z.number(), level: z.number() }),
        ),
        scopes: z.array(z.object({ name: z.string(), expensive: z.boolean(), count: z.number().optional() })),
        more: z.boolean(),
        total: z.number().optional(),
        cut: z
          .object({ reason: z.enum(['size', 'time']), nextStart: z.number().optional(), unexpanded: z.array(z.string()) })
          .optional()
          .describe('Set when the answer was cut to fit its size cap or time budget: where to go on (start) and what to expand (path).'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, frameIndex, threadId, path, ref, scope, depth, start, count }) => {
      const session = manager.get(sessionId);
      const inspector = session.inspector();
      const frameId = await session.frameId(frameIndex ?? 0, threadId);
      const answer = await inspector.variables({ frameId, path, ref, scope, depth: depth ?? 1, start: start ?? 0, count: count ?? 50 });
      return {
        text: `[${session.id}] ${renderVariables(answer, start ?? 0)}`,
        data: { sessionId: session.id, state: session.state, ...answer },
      };
    },
  );

  defineTool(
    server,
    'inspect_evaluate',
    {
      title: 'Evaluate',
      description: 'Evaluates an expression in the program\'s language in a frame of the stopped program (dotnet: a C# subset). Errors come back as EVALUATION_FAILED with the runtime\'s message.',
      input: { sessionId: sessionIdInput, expression: z.string().min(1), frameIndex: frameIndexInput, threadId: threadIdInput },
      output: { ...sessionScoped, expression: z.string(), value: z.string(), type: z.string().optional(), hasChildren: z.boolean(), ref: z.number() },
    },
    async ({ sessionId, expression, frameIndex, threadId }) => {
      const session = manager.get(sessionId);
      const inspector = session.inspector();
      const frameId = await session.frameId(frameIndex ?? 0, threadId);
      const r = await inspector.evaluate(frameId, expression);
      const more = r.hasChildren ? `\n(has children: inspect_variables with path "${expression}")` : '';
      return {
        text: `[${session.id}] ${expression} = ${r.value}${r.type ? ` (${r.type})` : ''}${more}`,
        data: { sessionId: session.id, state: session.state, expression, ...r },
      };
    },
  );

  defineTool(
    server,
    'inspect_set_variable',
    {
      title: 'Set a variable',
      description: 'Assigns a new value (an expression in the program\'s language) to a local, an argument or a field, named by name or path (e.g. order.total).',
      input: {
        sessionId: sessionIdInput,
        name: z.string().optional().describe('A local or argument name.'),
        path: z.string().optional().describe('A path such as order.total or items[0].'),
        value: z.string().describe('The new value, as an expression, e.g. 42 or "text".'),
        frameIndex: frameIndexInput,
        threadId: threadIdInput,
      },
      output: { ...sessionScoped, path: z.string(), value: z.string(), type: z.string().optional() },
    },
    async ({ sessionId, name, path, value, frameIndex, threadId }) => {
      const target = path ?? name;
      if (!target) throw new DebugError('INVALID_ARGUMENT', 'Say what to set.', 'Pass name (a local) or path (e.g. order.total).');
      const session = manager.get(sessionId);
      const inspector = session.inspector();
      const frameId = await session.frameId(frameIndex ?? 0, threadId);
      const r = await inspector.setVariable(frameId, target, value);
      await session.refreshStop();
      return {
        text: `[${session.id}] ${target} = ${r.value}${r.type ? ` (${r.type})` : ''}`,
        data: { sessionId: session.id, state: session.state, path: target, value: r.value, type: r.type },
      };
    },
  );

  defineTool(
    server,
    'inspect_source',
    {
      title: 'Source',
      description: 'Source lines around a location (default: where the program stopped), the current line marked with >.',
      input: {
        sessionId: sessionIdInput,
        file: z.string().optional(),
        line: z.number().int().min(1).optional(),
        before: z.number().int().min(0).max(200).optional().describe('Lines above (default 5).'),
        after: z.number().int().min(0).max(200).optional().describe('Lines below (default 5).'),
      },
      output: { file: z.string(), line: z.number(), lines: z.array(sourceLineSchema), totalLines: z.number(), sessionId: z.string().optional(), state: sessionScoped.state.optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, file, line, before, after }) => {
      let session;
      try {
        session = manager.get(sessionId);
      } catch (e) {
        if (!file) throw e;
      }
      const stopFrame = session?.stop?.frame;
      const target = file ? resolveFile(manager, file, session?.config.cwd ?? process.cwd()) : stopFrame?.file;
      if (!target) throw new DebugError('INVALID_ARGUMENT', 'No file given and the program is not stopped in a source file.', 'Pass file (and line).');
      const at = line ?? (stopFrame?.file === target ? stopFrame.line : 1);
      const { lines, totalLines } = sourceWindow(target, at, before ?? 5, after ?? 5);
      return {
        text: `${target}\n${renderSourceLines(lines)}`,
        data: { file: target, line: at, lines, totalLines, sessionId: session?.id, state: session?.state },
      };
    },
  );
}
