/**
 * Registering a tool: zod schemas beside the handler, one call into the core, a text for the
 * model plus structuredContent. Failures become `isError` results whose text starts with a stable
 * code and says what to do next.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { callSignal } from '../core/callSignal.js';
import { DebugError, toDebugError } from '../core/errors.js';
import type { ProgressReporter } from '../core/sessionTypes.js';

export interface ToolContext {
  signal: AbortSignal;
  progress: ProgressReporter;
}

export interface ToolAnswer<O> {
  text: string;
  data: O;
}

export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  title: string;
  description: string;
  input: I;
  output: O;
  annotations?: ToolAnnotations;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  server: McpServer,
  name: string,
  spec: ToolSpec<I, O>,
  handler: (args: z.infer<z.ZodObject<I>>, ctx: ToolContext) => Promise<ToolAnswer<z.infer<z.ZodObject<O>>>>,
): void {
  server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      // Strict: a key the tool does not know is refused (argumentErrors.ts words it), never dropped.
      inputSchema: z.strictObject(spec.input),
      outputSchema: spec.output,
      annotations: { title: spec.title, openWorldHint: false, ...spec.annotations },
    },
    // The SDK infers argument types from the shape; the handler gets exactly that.
    (async (args: z.infer<z.ZodObject<I>>, extra: { signal: AbortSignal; _meta?: { progressToken?: string | number }; sendNotification: (n: never) => Promise<void> }) => {
      const budgetMs = callBudgetMs(args as Record<string, unknown>);
      const call = callSignal([extra.signal], budgetMs);
      const ctx: ToolContext = { signal: call.signal, progress: progressReporter(extra) };
      const late = new Promise<never>((_, reject) =>
        call.signal.addEventListener('abort', () => {
          if (call.timedOut) reject(new DebugError('TIMEOUT', `${name} did not finish within its ${Math.round(budgetMs / 1000)} s budget; it may still complete in the background.`, 'Check session_state and session_diagnostics before calling again.'));
        }),
      );
      try {
        const answer = await Promise.race([handler(args, ctx), late]);
        return fitted(name, { content: [{ type: 'text' as const, text: answer.text }], structuredContent: answer.data as Record<string, unknown> });
      } catch (e) {
        return { content: [{ type: 'text' as const, text: toDebugError(e).toText() }], isError: true };
      } finally {
        call.dispose();
      }
    }) as never,
  );
}

/** Every answer fits this many characters (text and structured content together). */
export const MAX_ANSWER_CHARS = 512 * 1024;
/** The time a call may take beyond the wait it asks for (timeoutMs / waitMs). */
const CALL_BUDGET_MS = 60_000;

function callBudgetMs(args: Record<string, unknown>): number {
  const asked = [args.timeoutMs, args.waitMs].filter((v): v is number => typeof v === 'number');
  return CALL_BUDGET_MS + Math.max(0, ...asked);
}

/**
 * The last line of defence of the size cap: tools cap their own answers and say how to page; one
 * that still comes out too big becomes an error that says how to ask for less.
 */
function fitted(name: string, result: { content: { type: 'text'; text: string }[]; structuredContent: Record<string, unknown> }) {
  const size = result.content[0].text.length + JSON.stringify(result.structuredContent).length;
  if (size <= MAX_ANSWER_CHARS) return result;
  const error = new DebugError(
    'RESULT_TOO_LARGE',
    `The answer of ${name} would be ${Math.round(size / 1024)} KB, over the ${MAX_ANSWER_CHARS / 1024} KB cap; nothing of it was sent.`,
    'Ask for less: a smaller count, depth or maxChars, a start further on, or a narrower path.',
  );
  return { content: [{ type: 'text' as const, text: error.toText() }], isError: true };
}

function progressReporter(extra: { _meta?: { progressToken?: string | number }; sendNotification: (n: never) => Promise<void> }): ProgressReporter {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  let progress = 0;
  return (message) => {
    progress++;
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } } as never)
      .catch(() => undefined);
  };
}

/**
 * Errors the SDK raises before a handler runs (bad arguments, unknown tool) get a stable code too.
 * The SDK keeps its error builder private, so this wraps it at one place.
 */
export function codeSdkErrors(server: McpServer): void {
  const target = server as unknown as { createToolError: (message: string) => { content: { type: 'text'; text: string }[]; isError: true } };
  const original = target.createToolError.bind(server);
  target.createToolError = (raw: string) => {
    const message = raw.replace(/^MCP error -?\d+: /, '');
    if (/^[A-Z_]+: /.test(message)) return original(message);
    const code = /Input validation error|Invalid arguments/.test(message) ? 'INVALID_ARGUMENT' : /Tool .* not found/.test(message) ? 'UNKNOWN_TOOL' : 'INTERNAL';
    const next = code === 'INVALID_ARGUMENT' ? '\nNext: fix the arguments named above (see the tool\'s input schema).' : code === 'UNKNOWN_TOOL' ? '\nNext: call tools/list for the tool names.' : '';
    return original(`${code}: ${message}${next}`);
  };
}

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Requests whose params do not fit the method's schema (e.g. tools/call with `arguments: 5`) are
 * JSON-RPC "Invalid params" (-32602); the SDK lets the schema's error through as an internal error.
 * Wraps every request handler registered so far, at one place (the SDK keeps the map private).
 */
export function codeInvalidParams(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (e) {
        const issues = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
        if (!Array.isArray(issues)) throw e;
        const detail = issues.map((i) => `${i.path.map(String).join('.') || '(params)'}: ${i.message}`).join('; ');
        throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${detail}`);
      }
    });
  }
}
