/**
 * Seeded, repeatable fuzzed tool calls. Arguments follow each tool's input schema most of the time
 * (so calls reach the handlers and the runtimes), with values from the edges (0, -1, 2^31, huge and
 * odd strings, devices, FIFOs, paths outside everything), and are broken on purpose the rest of the
 * time (wrong types, missing or extra keys, arguments that are not an object). Waits are kept short
 * so a run measures the server, not its timeouts.
 */
export type FuzzStep =
  | { kind: 'call'; tool: string; args: unknown }
  | { kind: 'line'; line: string };

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
}

export interface FuzzContext {
  tools: { name: string; inputSchema: JsonSchema }[];
  /** Programs that run (some exit at once, some loop), with lines to break on. */
  programs: string[];
  /** Paths that must be refused or fail cleanly. */
  hostilePaths: string[];
  /** A working folder that exists. */
  cwd: string;
  sessionIds(): string[];
}

/** A small, good PRNG (mulberry32): the same seed gives the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EDGE_NUMBERS = [0, 1, 2, 3, 5, 10, 50, 100, 499, 500, 501, 1000, -1, -100, 2 ** 31, 2 ** 53, 1e12, 0.5, -0.0];
/** Mostly short, now and then long enough for a Python launch. */
const SHORT_WAITS = [0, 1, 20, 100, 250, 3000];
const STRINGS = [
  '', ' ', 'x', 'total', 'i', 'ticks', 'self', 'order.items[2]', 'table["counts"]', '1+1', 'len(big_list)', 'ticks > 3', '3', '>= 2',
  '{ticks}', 'a'.repeat(5000), 'ünïcödé ☃ 🐍', '\u0000\u0001\u001b[31m', '"unterminated', "'; DROP TABLE x; --", '${process.exit(1)}', '%s%s%n',
  '[[[[[[', ')))(((', '.a.b.c', '[0]', 'undefined', 'null', 'NaN', '\n\n\n', 'python-1', 'node-1', 'dotnet-1',
];
const WAIT_KEYS = /^(timeoutMs|waitMs)$/;
const STARTS = /^(session_launch|session_restart|debug_probe)$/;
const PATH_KEYS = /^(program|file|cwd|pythonPath|runtimeExecutable)$/;
/** Arguments that change how a run starts (or make it fail): given less often. */
const RARE_KEYS = /^(pythonPath|runtimeExecutable|exceptionTypes|functionBreakpoints|options|env|language|stopOnEntry)$/;

export class Fuzzer {
  private readonly random: () => number;

  constructor(seed: number, private readonly context: FuzzContext) {
    this.random = seededRandom(seed);
  }

  next(): FuzzStep {
    const roll = this.random();
    if (roll < 0.01) return { kind: 'line', line: this.pick(['{', 'not json', '[]', '[1,2]', '{"jsonrpc":"2.0"}', '"str"', '{"jsonrpc":"2.0","id":1}', 'null']) };
    const tool = roll < 0.03 ? this.pick(['no_such_tool', '', 'session_launch ', 'SESSION_LIST']) : this.pick(this.context.tools).name;
    const schema = this.context.tools.find((t) => t.name === tool)?.inputSchema ?? { type: 'object', properties: {} };
    if (this.random() < 0.06) return { kind: 'call', tool, args: this.pick([5, 'text', [1, 2], null, true]) };
    const args = this.object(schema, 0);
    // Starting a run needs longer than a wait: give most starts the time to succeed.
    if (STARTS.test(tool) && this.random() < 0.7) args.timeoutMs = 10_000;
    if (this.random() < 0.25) this.mutate(args, schema);
    return { kind: 'call', tool, args };
  }

  private object(schema: JsonSchema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      const required = schema.required?.includes(key);
      // Optional arguments now and then, so that most calls still do something.
      if (!required && this.random() < (RARE_KEYS.test(key) ? 0.9 : 0.65)) continue;
      out[key] = this.value(key, sub, depth + 1);
    }
    if (schema.properties?.timeoutMs && out.timeoutMs === undefined) out.timeoutMs = this.pick(SHORT_WAITS);
    return out;
  }

  private value(key: string, schema: JsonSchema, depth: number): unknown {
    if (WAIT_KEYS.test(key)) return this.pick(SHORT_WAITS);
    if (key === 'sessionId') return this.random() < 0.8 && this.context.sessionIds().length ? this.pick(this.context.sessionIds()) : this.pick(STRINGS);
    if (PATH_KEYS.test(key)) {
      if (key === 'program' || key === 'file') return this.random() < 0.7 ? this.pick(this.context.programs) : this.pick(this.context.hostilePaths);
      if (key === 'cwd') return this.random() < 0.7 ? this.context.cwd : this.pick(this.context.hostilePaths);
      return this.pick(this.context.hostilePaths);
    }
    if (key === 'language') return this.random() < 0.8 ? this.pick(['python', 'node']) : this.pick(STRINGS);
    if (key === 'line') return this.random() < 0.8 ? 1 + Math.floor(this.random() * 12) : this.pick(EDGE_NUMBERS);
    if (schema.enum) return this.pick(schema.enum);
    if (schema.anyOf) return this.value(key, this.pick(schema.anyOf), depth);
    const type = Array.isArray(schema.type) ? this.pick(schema.type) : schema.type;
    switch (type) {
      case 'integer':
      case 'number': {
        const n = this.pick(EDGE_NUMBERS);
        return type === 'integer' ? Math.trunc(n) : n;
      }
      case 'boolean':
        return this.random() < 0.5;
      case 'string':
        return this.pick(STRINGS);
      case 'array':
        return depth > 4 ? [] : Array.from({ length: Math.floor(this.random() * 4) }, () => this.value(key, schema.items ?? {}, depth + 1));
      case 'object':
        if (depth > 4) return {};
        if (schema.properties) return this.object(schema, depth);
        return Object.fromEntries(Array.from({ length: Math.floor(this.random() * 3) }, () => [this.pick(STRINGS).slice(0, 20) || 'k', this.pick(STRINGS).slice(0, 50)]));
      default:
        return this.pick([1, 'x', null, {}, []]);
    }
  }

  /** Breaks an argument object the way clients get it wrong. */
  private mutate(args: Record<string, unknown>, schema: JsonSchema): void {
    const keys = Object.keys(schema.properties ?? {});
    switch (Math.floor(this.random() * 4)) {
      case 0: {
        const required = schema.required?.[0];
        if (required) delete args[required];
        break;
      }
      case 1:
        args[this.pick(['extra', '__proto__', 'constructor', 'x'.repeat(300)])] = this.pick(STRINGS);
        break;
      default: {
        if (!keys.length) break;
        args[this.pick(keys)] = this.pick([-1, 'not a number', { nested: [1] }, [null], true, 1e300, '']);
      }
    }
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
}
