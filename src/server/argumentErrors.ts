/**
 * Arguments that do not fit a tool's input schema, told the one way for every tool and every
 * depth: each problem with the argument's path (`breakpoints[0].maxHit`), and for a key the tool
 * does not know, the keys that place takes (and the closest, when one is close). The SDK checks
 * arguments before a handler runs; this replaces only how it words what it found.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Schema = z.core.$ZodType;
type Def = { type: string; innerType?: Schema; in?: Schema; shape?: Record<string, Schema>; element?: Schema; valueType?: Schema; options?: Schema[]; getter?: () => Schema };

/** Wrappers that hold one schema (optional, default, …) give way to it. */
function unwrap(schema: Schema): Schema {
  for (;;) {
    const def = schema._zod.def as unknown as Def;
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : def.type === 'lazy' ? def.getter?.() : undefined);
    if (!inner) return schema;
    schema = inner;
  }
}

/** The schema at `path` of the arguments (a union's object form where the path goes into an object). */
function schemaAt(root: Schema, path: PropertyKey[]): Schema | undefined {
  let schema: Schema | undefined = root;
  for (const key of path) {
    if (!schema) return undefined;
    const def = unwrap(schema)._zod.def as unknown as Def;
    if (def.type === 'union') {
      const wanted = typeof key === 'number' ? 'array' : 'object';
      const option = def.options?.find((o) => (unwrap(o)._zod.def as unknown as Def).type === wanted);
      schema = option && schemaAt(option, [key]);
    } else if (def.type === 'object') schema = def.shape?.[String(key)];
    else if (def.type === 'array') schema = def.element;
    else if (def.type === 'record') schema = def.valueType;
    else return undefined;
  }
  if (!schema) return undefined;
  const def = unwrap(schema)._zod.def as unknown as Def;
  return def.type === 'union' ? def.options?.map(unwrap).find((o) => (o._zod.def as unknown as Def).type === 'object') : unwrap(schema);
}

/** `breakpoints[0].trace[1]`; the arguments themselves are ``. */
export function argumentPath(path: PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/** A known key that looks like the unknown one: one contains the other, or they start alike. */
function closest(unknown: string, known: string[]): string | undefined {
  const u = unknown.toLowerCase();
  return (
    known.find((k) => k.toLowerCase() === u) ??
    known.find((k) => k.toLowerCase().includes(u) || u.includes(k.toLowerCase())) ??
    known.find((k) => k.slice(0, 4).toLowerCase() === u.slice(0, 4))
  );
}

/** A union's issues: those of the form the value was meant as (the one that got past the value's own type). */
function flatten(issues: readonly Issue[], prefix: PropertyKey[] = []): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || !issue.errors.length) return [{ ...issue, path }];
    const meant = issue.errors.find((errors) => !errors.every((e) => e.code === 'invalid_type' && e.path.length === 0)) ?? issue.errors[0];
    return flatten(meant, path);
  });
}

function describeIssue(tool: string, root: Schema, issue: Issue): string[] {
  const place = argumentPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const shape = (schemaAt(root, issue.path)?._zod.def as unknown as Def | undefined)?.shape;
    const known = Object.keys(shape ?? {});
    const owner = place ? `${place} takes` : `${tool} takes`;
    return issue.keys.map((key) => {
      const near = closest(key, known);
      return `${argumentPath([...issue.path, key])}: unknown argument${near ? ` (did you mean ${near}?)` : ''}; ${owner}: ${known.join(', ') || 'nothing'}`;
    });
  }
  const message = issue.message.replace(/^Invalid input: /, '');
  return [`${place || '(arguments)'}: ${message}`];
}

/** The text of an INVALID_ARGUMENT answer for arguments that failed `schema`. */
export function describeArgumentIssues(tool: string, schema: Schema, issues: readonly Issue[]): string {
  const lines = flatten(issues).flatMap((issue) => describeIssue(tool, schema, issue));
  return `INVALID_ARGUMENT: ${tool}: ${lines.join('; ')}.\nNext: fix the arguments named above (the tool's input schema has them).`;
}

type Validator = (tool: { inputSchema?: Schema }, args: unknown, toolName: string) => Promise<unknown>;

/** Every tool's arguments checked against its (strict) input schema, failures worded by describeArgumentIssues. */
export function wordArgumentErrors(server: McpServer): void {
  const target = server as unknown as { validateToolInput: Validator };
  const original = target.validateToolInput.bind(server);
  target.validateToolInput = async (tool, args, toolName) => {
    const schema = tool.inputSchema;
    if (!schema) return original(tool, args, toolName);
    const parsed = await (schema as unknown as z.ZodType).safeParseAsync(args ?? {});
    if (parsed.success) return parsed.data;
    throw new McpError(ErrorCode.InvalidParams, describeArgumentIssues(toolName, schema, parsed.error.issues));
  };
}
