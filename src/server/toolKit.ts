/**
 * Registering a tool: zod schemas beside the handler, one call into the core, a text for the
 * model plus structuredContent. Failures become `isError` results whose text starts with a stable
 * code and says what to do next.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toDebugError } from '../core/errors.js';
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
      inputSchema: spec.input,
      outputSchema: spec.output,
      annotations: { title: spec.title, openWorldHint: false, ...spec.annotations },
    },
    // The SDK infers argument types from the shape; the handler gets exactly that.
    (async (args: z.infer<z.ZodObject<I>>, extra: { signal: AbortSignal; _meta?: { progressToken?: string | number }; sendNotification: (n: never) => Promise<void> }) => {
      const ctx: ToolContext = { signal: extra.signal, progress: progressReporter(extra) };
      try {
        const answer = await handler(args, ctx);
        return { content: [{ type: 'text' as const, text: answer.text }], structuredContent: answer.data as Record<string, unknown> };
      } catch (e) {
        return { content: [{ type: 'text' as const, text: toDebugError(e).toText() }], isError: true };
      }
    }) as never,
  );
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
  target.createToolError = (message: string) => {
    if (/^[A-Z_]+: /.test(message)) return original(message);
    const code = /Input validation error|Invalid arguments/.test(message) ? 'INVALID_ARGUMENT' : /Tool .* not found/.test(message) ? 'UNKNOWN_TOOL' : 'INTERNAL';
    const next = code === 'INVALID_ARGUMENT' ? '\nNext: fix the arguments named above (see the tool\'s input schema).' : code === 'UNKNOWN_TOOL' ? '\nNext: call tools/list for the tool names.' : '';
    return original(`${code}: ${message.replace(/^MCP error -?\d+: /, '')}${next}`);
  };
}
