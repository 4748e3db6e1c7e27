/**
 * The tool list a model reads before its first call: input schemas without what says nothing to it
 * (the JSON Schema dialect, upper bounds, lower bounds that are only the language's safe range or the
 * obvious 0 / 1, "keys are strings", "no other keys": every tool refuses a key it does not know, which the
 * server's instructions say once). Arguments are still checked against the full schema: a value
 * out of bounds is an INVALID_ARGUMENT that names the bound. Applied once to the SDK's tools/list answer;
 * the build-time catalog is written from it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

type RequestHandler = (request: unknown, extra: unknown) => Promise<{ tools: { name: string; inputSchema?: unknown; outputSchema?: unknown }[] }>;

const UPPER_BOUNDS = new Set(['maximum', 'maxItems', 'maxLength']);
const SAFE_INTEGER_BOUNDS = new Set([Number.MIN_SAFE_INTEGER]);
/** Lower bounds that say nothing an agent would get wrong (a count from 1, an index from 0, a non-empty string). */
const OBVIOUS_LOWER_BOUNDS: Record<string, number[]> = { minimum: [0, 1], exclusiveMinimum: [0], minLength: [1], minItems: [1] };

/** A JSON schema less its noise; `inputSchema` trees only hold plain JSON. */
export function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (UPPER_BOUNDS.has(key) || (key === 'minimum' && SAFE_INTEGER_BOUNDS.has(value as number))) continue;
    if (key === 'examples') continue; // for `debugbridge call <tool> --help`, which reads the whole schema
    if (OBVIOUS_LOWER_BOUNDS[key]?.includes(value as number)) continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    if (key === 'additionalProperties' && JSON.stringify(value) === '{}') continue; // any value: the default
    if (key === 'additionalProperties' && value === false) continue; // every object is strict: the instructions say so once
    // Under `properties` the keys are argument names, not keywords: each one's schema is compacted.
    out[key] = key === 'properties' && value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([name, v]) => [name, compactSchema(v)])) : compactSchema(value);
  }
  return out;
}

/**
 * An output schema as tools/list shows it: every top-level field with its type, nested objects only
 * by their kind and what they are. The full shapes (a stop with its exception autopsy, a hang report)
 * would be repeated by every tool that answers one — most of the list — while the server still checks
 * each answer against them in full (enums and required fields too); the stop's shape is told once,
 * in the instructions.
 */
export function outlineOutputSchema(schema: unknown): unknown {
  if (!isObject(schema) || !isObject(schema.properties)) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, field]) => [name, outlineField(name, field)]));
  const { additionalProperties: _closed, required: _required, ...open } = schema;
  return { ...open, properties };
}

function outlineField(name: string, field: unknown): unknown {
  if (!isObject(field)) return field;
  const described = (kind: Record<string, unknown>) => ({ ...kind, ...(field.description ? { description: field.description } : NESTED_DESCRIPTIONS[name] ? { description: NESTED_DESCRIPTIONS[name] } : {}) });
  if (field.type === 'object' || field.properties) return described({ type: 'object' });
  if (field.type === 'array' && isObject(field.items) && (field.items.type === 'object' || field.items.properties)) return described({ type: 'array', items: { type: 'object' } });
  if (Array.isArray(field.anyOf)) return described({});
  // A value's enum and wording are the server's to keep (every answer is checked against them);
  // listed, its type says enough.
  return 'type' in field ? { type: field.type } : field;
}

/** What a nested shape is, where its schema says nothing itself. */
const NESTED_DESCRIPTIONS: Record<string, string> = {
  stop: 'A stop: see the instructions.',
  hang: 'Why the program does not stop: threads grouped by stack, what each waits on, deadlocks.',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Breakpoints given with a launch, attach, probe or test take what breakpoint_set takes: listed once
 * there, and here as a reference naming the first fields (the same schema still checks them all).
 */
export function referBreakpointFields(tool: string, schema: unknown): unknown {
  if (tool === 'breakpoint_set' || !isObject(schema) || !isObject(schema.properties)) return schema;
  const list = schema.properties.breakpoints;
  if (!isObject(list) || !isObject(list.items) || !isObject(list.items.properties)) return schema;
  const fields = Object.keys(list.items.properties);
  const items = { type: 'object', description: `{${fields.slice(0, 2).join(', ')}, …}: breakpoint_set's fields.` };
  return { ...schema, properties: { ...schema.properties, breakpoints: { ...list, items } } };
}

export function compactToolList(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
  const list = handlers.get('tools/list');
  if (!list) return;
  handlers.set('tools/list', async (request, extra) => {
    const answer = await list(request, extra);
    return {
      ...answer,
      tools: answer.tools.map((t) => ({
        ...t,
        inputSchema: referBreakpointFields(t.name, compactSchema(t.inputSchema)),
        ...(t.outputSchema ? { outputSchema: outlineOutputSchema(compactSchema(t.outputSchema)) } : {}),
      })),
    };
  });
}

/** A tool's whole input schema, examples and bounds included (what `debugbridge call <tool> --help` shows); undefined for an unknown tool. */
export function fullInputSchema(server: McpServer, name: string): Record<string, unknown> | undefined {
  const tool = (server as unknown as { _registeredTools: Record<string, { inputSchema?: z.ZodType }> })._registeredTools[name];
  return tool?.inputSchema && (z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
}
