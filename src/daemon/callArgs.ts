/**
 * `debugbridge call <tool> [--name value …] ['{json}']`: shell words to a tool's arguments, typed by
 * the tool's own input schema (from tools/list): numbers, booleans (`--flag` alone is true), repeated
 * or JSON arrays, JSON objects, `file:line` for breakpoint lists. `--kebab-case` names are accepted
 * for camelCase ones. A JSON object word gives any arguments at once; flags after it override.
 */
import { DebugError } from '../core/errors.js';

interface PropertySchema {
  type?: string | string[];
  items?: PropertySchema;
  enum?: unknown[];
  properties?: Record<string, PropertySchema>;
  description?: string;
}

export interface InputSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

export interface CallCommand {
  tool?: string;
  /** The words after the tool name, options of the shell command removed. */
  words: string[];
  json: boolean;
  help: boolean;
}

/** The shell command's own options (`--json`, `--help`) and the tool name; the rest is for the tool. */
export function splitCallArgv(argv: string[]): CallCommand {
  const command: CallCommand = { words: [], json: false, help: false };
  for (const word of argv) {
    if (word === '--json') command.json = true;
    else if (word === '--help' || word === '-h') command.help = true;
    else if (command.tool === undefined && !word.startsWith('-')) command.tool = word;
    else command.words.push(word);
  }
  return command;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function typeOf(schema: PropertySchema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  return type ?? 'string';
}

function fail(message: string, tool: string): never {
  throw new DebugError('INVALID_ARGUMENT', message, `debugbridge call ${tool} --help lists its arguments.`);
}

function parseJson(text: string, what: string, tool: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    return fail(`${what} is not valid JSON (${(e as Error).message}).`, tool);
  }
}

/** One shell value as the property's type. */
function convert(name: string, raw: string, schema: PropertySchema, tool: string): unknown {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || Number.isNaN(n)) fail(`--${name} takes a number, not "${raw}".`, tool);
      return n;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') fail(`--${name} takes true or false, not "${raw}".`, tool);
      return raw === 'true';
    case 'object':
      return parseJson(raw, `--${name}`, tool);
    default:
      return raw;
  }
}

/** An array item: JSON, `file:line` where items have file and line, else the item type. */
function convertItem(name: string, raw: string, items: PropertySchema | undefined, tool: string): unknown {
  const itemSchema = items ?? {};
  if (typeOf(itemSchema) !== 'object') return convert(name, raw, itemSchema, tool);
  if (/^\s*\{/.test(raw)) return parseJson(raw, `--${name}`, tool);
  const fileLine = /^(.+):(\d+)$/.exec(raw);
  if (fileLine && itemSchema.properties?.file && itemSchema.properties.line) return { file: fileLine[1], line: Number(fileLine[2]) };
  return fail(`--${name} takes JSON objects${itemSchema.properties?.file ? ' or file:line' : ''}, not "${raw}".`, tool);
}

export function buildArguments(tool: string, words: string[], schema: InputSchema): Record<string, unknown> {
  const properties = schema.properties ?? {};
  const args: Record<string, unknown> = {};
  const flags: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (!word.startsWith('--')) {
      if (!/^\s*\{/.test(word)) fail(`Unexpected "${word}": pass arguments as --name value or as one JSON object.`, tool);
      const object = parseJson(word, 'The JSON arguments', tool);
      if (typeof object !== 'object' || object === null || Array.isArray(object)) fail('The JSON arguments must be an object.', tool);
      Object.assign(args, object);
      continue;
    }
    const eq = word.indexOf('=');
    const name = camel(eq > 0 ? word.slice(2, eq) : word.slice(2));
    const property = properties[name];
    if (!property) fail(`${tool} has no argument --${name}. It takes: ${Object.keys(properties).map((p) => `--${p}`).join(', ') || 'nothing'}.`, tool);
    let raw: string | undefined = eq > 0 ? word.slice(eq + 1) : undefined;
    if (raw === undefined) {
      const next = words[i + 1];
      if (typeOf(property) === 'boolean' && (next === undefined || (next !== 'true' && next !== 'false'))) raw = 'true';
      else if (next === undefined) fail(`--${name} needs a value.`, tool);
      else raw = words[++i];
    }
    if (typeOf(property) === 'array') {
      const list = /^\s*\[/.test(raw) ? (parseJson(raw, `--${name}`, tool) as unknown[]) : [convertItem(name, raw, property.items, tool)];
      flags[name] = [...((flags[name] as unknown[] | undefined) ?? []), ...list];
    } else {
      flags[name] = convert(name, raw, property, tool);
    }
  }
  return { ...args, ...flags };
}

/** `debugbridge call <tool> --help`: the description and each argument with its type. */
export function describeTool(tool: { name: string; description?: string; inputSchema: InputSchema }): string {
  const properties = Object.entries(tool.inputSchema.properties ?? {});
  const required = new Set(tool.inputSchema.required ?? []);
  const lines = properties.map(([name, p]) => {
    const type = p.enum ? p.enum.join('|') : typeOf(p) === 'array' ? `${typeOf(p.items ?? {})}[]` : typeOf(p);
    return `  --${name} <${type}>${required.has(name) ? ' (required)' : ''}${p.description ? `  ${p.description}` : ''}`;
  });
  return `debugbridge call ${tool.name} [--name value …] ['{json}'] [--json]\n\n${tool.description ?? ''}\n\nArguments:\n${lines.join('\n') || '  (none)'}\n`;
}
