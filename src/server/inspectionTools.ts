/** Inspection group: threads, stack, variables, evaluate, set variable, source. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError, toDebugError } from '../core/errors.js';
import type { Session } from '../core/session.js';
import type { SessionManager } from '../core/sessionManager.js';
import { sourceWindow, windowOf, type SourceLine } from '../core/sourceReader.js';
import { resolveFile } from './launchArgs.js';
import { renderSourceLines, renderStack, renderThreads, renderVariables } from './render.js';
import { renderHangReport } from './renderHang.js';
import { DEFAULT_MAX_CHARS, pageValue, renderEvaluations, type EvaluationView } from './renderAnswers.js';
import { hangSchema, maxCharsInput, sessionIdInput, sessionScoped, sourceLineSchema } from './schemas.js';
import { hangView } from './structured.js';
import { defineTool } from './toolKit.js';
import { samePath } from '../core/platformPaths.js';

const frameIndexInput = z.number().int().min(0).optional();
const threadIdInput = z.number().int().optional();
/** Expressions one inspect_evaluate call takes at most. */
const MAX_EXPRESSIONS = 20;
/** What a listing's text needs besides its values (header, notes of where to go on). */
const NOTES_CHARS = 400;

export function registerInspectionTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'inspect_threads',
    {
      title: 'Threads',
      description: 'Threads; * marks the stopped one. stacks: every stack, grouped, with what each waits on (hang report).',
      input: { sessionId: sessionIdInput, stacks: z.boolean().optional() },
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
      description: 'Call stack, top first, paged (start, count 20); external code and recursion folded.',
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
        text: `[${session.id}] ${renderStack(frames, tid, page.total, start === undefined)}`,
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
        'Locals of a frame, a scope (scope: "Globals"), or the children of a value by path (order.items[2]) or ref. Paged (start, count 50).',
      input: {
        sessionId: sessionIdInput,
        frameIndex: frameIndexInput,
        threadId: threadIdInput,
        path: z.string().optional(),
        ref: z.number().int().positive().optional(),
        scope: z.string().optional(),
        depth: z.number().int().min(1).max(4).optional(),
        start: z.number().int().min(0).optional(),
        count: z.number().int().min(1).max(500).optional(),
        maxChars: maxCharsInput,
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
    async ({ sessionId, frameIndex, threadId, path, ref, scope, depth, start, count, maxChars }) => {
      const session = manager.get(sessionId);
      const inspector = session.inspector();
      const frameId = await session.frameId(frameIndex, threadId);
      const budget = maxChars ?? DEFAULT_MAX_CHARS;
      const answer = await inspector.variables({ frameId, path, ref, scope, depth: depth ?? 1, start: start ?? 0, count: count ?? 50, maxChars: Math.max(100, budget - NOTES_CHARS) });
      const query = { frameIndex, threadId, path, ref, scope, depth, count, maxChars };
      return {
        text: `[${session.id}] ${renderVariables(answer, start ?? 0, query, budget - session.id.length - 3)}`,
        data: { sessionId: session.id, state: session.state, ...answer },
      };
    },
  );

  defineTool(
    server,
    'inspect_evaluate',
    {
      title: 'Evaluate',
      description: 'Evaluates an expression (or expressions) in a frame (dotnet: C#, lambdas and LINQ included).',
      input: {
        sessionId: sessionIdInput,
        expression: z.string().min(1).optional(),
        expressions: z.array(z.string().min(1)).min(1).max(MAX_EXPRESSIONS).optional(),
        frameIndex: frameIndexInput,
        threadId: threadIdInput,
        maxChars: maxCharsInput,
        sideEffects: z.boolean().optional().describe('false: refuse an expression that may change the program (dotnet; watches and conditions never run one).'),
      },
      output: {
        ...sessionScoped,
        expression: z.string().optional(),
        value: z.string().optional(),
        type: z.string().optional(),
        hasChildren: z.boolean().optional(),
        ref: z.number().optional(),
        next: z.string().optional().describe('The call that reads on where the value was cut.'),
        results: z
          .array(z.object({ expression: z.string(), value: z.string().optional(), type: z.string().optional(), hasChildren: z.boolean().optional(), ref: z.number().optional(), error: z.string().optional(), next: z.string().optional() }))
          .optional(),
      },
    },
    async ({ sessionId, expression, expressions, frameIndex, threadId, maxChars, sideEffects }) => {
      const list = expressions ?? (expression !== undefined ? [expression] : []);
      if (!list.length) throw new DebugError('INVALID_ARGUMENT', 'Nothing to evaluate.', 'Pass expression, or expressions: [...].');
      const session = manager.get(sessionId);
      const inspector = session.inspector();
      const frameId = await session.frameId(frameIndex, threadId);
      const room = Math.max(100, Math.floor(((maxChars ?? DEFAULT_MAX_CHARS) - NOTES_CHARS) / list.length) - 40);
      const slice = inspector.textSlice.bind(inspector);
      const views: EvaluationView[] = [];
      for (const e of list) {
        // One expression that fails is the call's error; in a batch it is that expression's answer.
        const r = await inspector.evaluate(frameId, e, Number.POSITIVE_INFINITY, sideEffects === undefined ? undefined : { sideEffects }).catch((error: unknown) => {
          if (!expressions) throw error;
          return toDebugError(error);
        });
        views.push(r instanceof DebugError ? { expression: e, error: r.message } : pageValue(e, r, room, slice));
      }
      const base = { sessionId: session.id, state: session.state };
      const strip = ({ cut: _cut, ...v }: EvaluationView) => v;
      return {
        text: renderEvaluations(session.id, views),
        data: expressions ? { ...base, results: views.map(strip) } : { ...base, ...strip(views[0]) },
      };
    },
  );

  defineTool(
    server,
    'inspect_set_variable',
    {
      title: 'Set a variable',
      description: 'Assigns an expression\'s value to a local, argument or field (name, or path like order.total).',
      input: {
        sessionId: sessionIdInput,
        name: z.string().optional(),
        path: z.string().optional(),
        value: z.string(),
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
      const frameId = await session.frameId(frameIndex, threadId);
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
      description: 'Source lines around file:line (default: the stop), 5 each side by default.',
      input: {
        sessionId: sessionIdInput,
        file: z.string().optional(),
        line: z.number().int().min(1).optional(),
        before: z.number().int().min(0).max(200).optional(),
        after: z.number().int().min(0).max(200).optional(),
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
      const at = line ?? (stopFrame?.file && samePath(stopFrame.file, target) ? stopFrame.line : 1);
      const { lines, totalLines } = await sourceAt(session, target, at, before ?? 5, after ?? 5);
      return {
        text: `${target}\n${renderSourceLines(lines)}`,
        data: { file: target, line: at, lines, totalLines, sessionId: session?.id, state: session?.state },
      };
    },
  );
}

/** The file here, else where the session's program runs (a target's file that exists only there). */
async function sourceAt(session: Session | undefined, file: string, line: number, before: number, after: number): Promise<{ lines: SourceLine[]; totalLines: number }> {
  try {
    return sourceWindow(file, line, before, after);
  } catch (e) {
    if (!(e instanceof DebugError) || e.code !== 'PROGRAM_NOT_FOUND') throw e;
    const there = await session?.sourceLinesThere(file).catch(() => undefined);
    if (!there) throw e;
    return windowOf(there, line, before, after);
  }
}
