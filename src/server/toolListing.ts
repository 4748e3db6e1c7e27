/**
 * The tool list a model reads before its first call: input schemas without what says nothing to it
 * (the JSON Schema dialect, integer bounds that are only the language's safe range, "keys are
 * strings"). Applied once to the SDK's tools/list answer; the build-time catalog is written from it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

type RequestHandler = (request: unknown, extra: unknown) => Promise<{ tools: { inputSchema?: unknown; outputSchema?: unknown }[] }>;

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** A JSON schema less its noise; `inputSchema` trees only hold plain JSON. */
export function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if ((key === 'maximum' || key === 'minimum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    out[key] = compactSchema(value);
  }
  return out;
}

export function compactToolList(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
  const list = handlers.get('tools/list');
  if (!list) return;
  handlers.set('tools/list', async (request, extra) => {
    const answer = await list(request, extra);
    return { ...answer, tools: answer.tools.map((t) => ({ ...t, inputSchema: compactSchema(t.inputSchema), ...(t.outputSchema ? { outputSchema: compactSchema(t.outputSchema) } : {}) })) };
  });
}
