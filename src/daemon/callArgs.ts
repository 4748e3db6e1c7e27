/**
 * `debugbridge call <tool> [--name value …] ['{json}']`: shell words to a tool's arguments, typed by
 * the tool's own input schema (from tools/list). One rule, told in every tool's --help (VALUE_RULE):
 * a value is taken as written; a number or true/false only where the argument is one (`--flag`
 * alone is true); a list takes one item per flag, repeated; JSON only where the argument is an
 * object or a list of objects (breakpoints also take `file:line`). A JSON object word gives any
 * arguments at once; flags after it override. `--kebab-case` names are accepted for camelCase ones.
 */
import { DebugError } from '../core/errors.js';

export interface PropertySchema {
  type?: string | string[];
  items?: PropertySchema;
  anyOf?: PropertySchema[];
  enum?: unknown[];
  properties?: Record<string, PropertySchema>;
  required?: string[];
  description?: string;
  examples?: unknown[];
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

export const VALUE_RULE = `Values are taken as written: --expression '[1, 2].sort()' is that text. Numbers and true/false only where the
argument is one (--flag alone is true). A list takes one item per flag: --expressions a --expressions 'b + 1'.
JSON only where the argument is an object or a list of objects: --env '{"A":"1"}', --breakpoints '{"file":"app.py","line":12}'
(or app.py:12). One JSON object word gives any arguments at once: '{"expressions":["[1, 2].sort()"]}'.`;

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
  if (schema.anyOf) return schema.anyOf.map(typeOf).join('|');
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  return type ?? 'string';
}

/** The object form of a schema that is one, or has one among its forms. */
function objectForm(schema: PropertySchema): PropertySchema | undefined {
  return typeOf(schema) === 'object' ? schema : schema.anyOf?.find((s) => typeOf(s) === 'object');
}

function fail(message: string, tool: string): never {
  throw new DebugError('INVALID_ARGUMENT', message, `debugbridge call ${tool} --help lists its arguments and how values are read.`);
}

function parseJson(text: string, what: string, tool: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    return fail(`${what} is not valid JSON (${(e as Error).message}).`, tool);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One shell value as the property's type: scalars as written, JSON for an object. */
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
    case 'object': {
      const value = parseJson(raw, `--${name}`, tool);
      if (!isObject(value)) fail(`--${name} takes a JSON object.`, tool);
      return value;
    }
    default:
      return raw;
  }
}

/**
 * The items one flag of a list gives: a scalar item as written; an object item as JSON (a list of
 * them too) or `file:line` where items have file and line; an item that is text or an object (a
 * trace column) is the object when the value is a JSON object, else the text.
 */
function listItems(name: string, raw: string, items: PropertySchema | undefined, tool: string): unknown[] {
  const item = items ?? {};
  const form = objectForm(item);
  if (!form) return [convert(name, raw, item, tool)];
  const text = typeOf(item) !== 'object';
  if (text) {
    if (!/^\s*\{/.test(raw)) return [raw];
    try {
      const value = JSON.parse(raw) as unknown;
      return [isObject(value) ? value : raw];
    } catch {
      return [raw];
    }
  }
  if (/^\s*\[/.test(raw)) {
    const list = parseJson(raw, `--${name}`, tool);
    if (!Array.isArray(list) || !list.every(isObject)) fail(`--${name} takes JSON objects, not a list of other values.`, tool);
    return list;
  }
  if (/^\s*\{/.test(raw)) return [convert(name, raw, form, tool)];
  const fileLine = /^(.+):(\d+)$/.exec(raw);
  if (fileLine && form.properties?.file && form.properties.line) return [{ file: fileLine[1], line: Number(fileLine[2]) }];
  return fail(`--${name} takes JSON objects${form.properties?.file ? ' or file:line' : ''}, not "${raw}".`, tool);
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
      if (!isObject(object)) fail('The JSON arguments must be an object.', tool);
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
    if (typeOf(property) === 'array') flags[name] = [...((flags[name] as unknown[] | undefined) ?? []), ...listItems(name, raw, property.items, tool)];
    else flags[name] = convert(name, raw, property, tool);
  }
  return { ...args, ...flags };
}

/** An argument's type as --help writes it: `string`, `none|uncaught|all`, `object[]`. */
function typeText(p: PropertySchema): string {
  if (p.enum) return p.enum.join('|');
  if (typeOf(p) === 'array') return `${p.items?.anyOf ? `(${typeText(p.items)})` : typeText(p.items ?? {})}[]`;
  return typeOf(p);
}

/** The fields of an object argument (or of a list's objects), with their types, and its first example. */
function nestedFields(name: string, p: PropertySchema): string[] {
  const form = objectForm(typeOf(p) === 'array' ? (p.items ?? {}) : p);
  if (!form?.properties) return [];
  const required = new Set(form.required ?? []);
  const fields = Object.entries(form.properties).map(([field, f]) => `${field}${required.has(field) ? '' : '?'}: ${typeText(f)}`);
  const lines = [`      { ${fields.join(', ')} }`];
  const example = form.examples?.[0];
  if (example !== undefined) lines.push(`      e.g. --${name} '${JSON.stringify(example)}'`);
  return lines;
}

/** `debugbridge call <tool> --help`: the description, each argument with its type, the fields of nested objects, and the value rule. */
export function describeTool(tool: { name: string; description?: string; inputSchema: InputSchema }): string {
  const properties = Object.entries(tool.inputSchema.properties ?? {});
  const required = new Set(tool.inputSchema.required ?? []);
  const lines = properties.flatMap(([name, p]) => {
    const list = typeOf(p) === 'array' ? ' (repeatable)' : '';
    return [`  --${name} <${typeText(p)}>${list}${required.has(name) ? ' (required)' : ''}${p.description ? `  ${p.description}` : ''}`, ...nestedFields(name, p)];
  });
  return `debugbridge call ${tool.name} [--name value …] ['{json}'] [--json]\n\n${tool.description ?? ''}\n\nArguments:\n${lines.join('\n') || '  (none)'}\n\n${VALUE_RULE}\n`;
}
