/**
 * Answers built for an agent, through the real MCP server on Python, Node and .NET: watches across
 * three stops with their changes marked (and changed locals), a batch evaluation, a trace of 100
 * hits read as a paged table, and a 1,000,000-element list and a 10 MB string read within the
 * answer budget by following the exact calls the answers name.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const E2E = fileURLToPath(new URL('../fixtures/e2e/answers/', import.meta.url));
const DOTNET_SOURCE = fileURLToPath(new URL('../fixtures/dotnet/answers/Program.cs', import.meta.url));
/** The default answer budget (maxChars) every answer here must fit. */
const BUDGET = 4000;
/** Per test: a 10 MB string and a million-element list cost seconds on a loaded machine. */
const TEST_MS = 240_000;

interface Runtime {
  name: string;
  available: () => boolean;
  /** The program to launch (built first for .NET) and the source its markers are in. */
  program: () => string;
  source: string;
  /** `total` as the runtime shows 0. */
  zero: string;
}

const runtimes: Runtime[] = [
  {
    name: 'python',
    available: () => requireRuntime('python with debugpy', ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']))),
    program: () => join(E2E, 'answers.py'),
    source: join(E2E, 'answers.py'),
    zero: '0.0',
  },
  { name: 'node', available: () => true, program: () => join(E2E, 'answers.js'), source: join(E2E, 'answers.js'), zero: '0' },
  {
    name: 'dotnet',
    available: () => process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined),
    program: () => buildFixture('answers'),
    source: DOTNET_SOURCE,
    zero: '0',
  },
];

interface Stop {
  frame: { line: number };
  locals?: { name: string; value: string; previous?: string }[];
  watches?: { expression: string; value?: string; previous?: string; error?: boolean }[];
}
interface Wait {
  sessionId: string;
  status: string;
  stop?: Stop;
}
interface Evaluation {
  value?: string;
  next?: string;
  error?: string;
  results?: { expression: string; value?: string; error?: string }[];
}

/** The tool and arguments of a `tool {json}` call an answer names. */
function parseCall(call: string): [string, Record<string, unknown>] {
  const space = call.indexOf(' ');
  return [call.slice(0, space), JSON.parse(call.slice(space + 1)) as Record<string, unknown>];
}

/** The characters of a quoted string value up to its closing quote (or the end of what is shown). */
function stringContent(value: string): string {
  const quote = value[0];
  let out = '';
  for (let i = 1; i < value.length; i++) {
    if (value[i] === quote) break;
    out += value[i];
  }
  return out;
}

describe.each(runtimes)('answers for an agent: $name', (runtime) => {
  const run = runtime.available();
  let client: McpTestClient;
  const line = (marker: string) => markerLine(runtime.source, `BP:${marker}`);

  beforeAll(async () => {
    if (!run) return;
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-answers-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(async () => {
    await client?.stopActiveSessions();
  });

  async function call<T>(tool: string, args: Record<string, unknown>) {
    const r = await client.call<T>(tool, args);
    expect(r.isError, `${tool}: ${r.text}`).toBe(false);
    expect(r.text.length, `${tool} answered ${r.text.length} chars`).toBeLessThanOrEqual(BUDGET);
    return r;
  }

  /** Launches the program with a breakpoint at the marker and waits for the stop there. */
  async function launchTo(marker: string): Promise<void> {
    const launch = await call<Wait>('session_launch', { program: runtime.program(), breakpoints: [{ file: runtime.source, line: line(marker) }], waitForStop: true, timeoutMs: 60_000 });
    expect(launch.structured.stop?.frame.line).toBe(line(marker));
  }

  it.runIf(run)('watches across three stops, changed locals, a batch evaluation, a trace of 100 hits', async () => {
    await launchTo('add');

    const added = await call<{ watches: { id: number }[]; values?: { expression: string; value?: string }[] }>('watch_add', { expressions: ['total', 'i * 2', 'nosuch'] });
    expect(added.structured.watches).toHaveLength(3);
    expect(added.structured.values?.[0]).toMatchObject({ expression: 'total', value: runtime.zero });

    const second = await call<Wait>('execution_continue', {});
    const [total, double, missing] = second.structured.stop!.watches!;
    expect(total).toMatchObject({ value: '2.5', previous: runtime.zero });
    expect(double).toMatchObject({ value: '2', previous: '0' });
    expect(missing.error).toBe(true);
    expect(second.text).toContain(`watch: total = ${runtime.zero} → 2.5, i * 2 = 0 → 2, nosuch = <error:`);
    expect(second.text).toMatch(/locals: .*i = 0 → 1 /);
    expect(second.structured.stop!.locals!.find((l) => l.name === 'total')).toMatchObject({ value: '2.5', previous: runtime.zero });

    const third = await call<Wait>('execution_continue', {});
    expect(third.text).toContain('watch: total = 2.5 → 7.5, i * 2 = 2 → 4');
    expect(third.text).toMatch(/locals: .*i = 1 → 2 /);

    const batch = await call<Evaluation>('inspect_evaluate', { expressions: ['total', 'i + 1', 'nosuch'] });
    expect(batch.structured.results?.map((r) => r.value)).toEqual(['7.5', '3', undefined]);
    expect(batch.structured.results?.[2].error).toBeTruthy();
    expect(batch.text.split('\n')).toHaveLength(3);

    // The trace is armed for the whole of the next run: 100 hits, i = 0 … 99, without a stop.
    await call('breakpoint_remove', { all: true });
    const traced = await call<{ breakpoint: { id: number } }>('breakpoint_set', { file: runtime.source, line: line('add'), trace: ['i', 'total'], maxHits: 100 });
    await call('breakpoint_set', { file: runtime.source, line: line('big') });
    const rerun = await call<Wait>('session_restart', { waitForStop: true, timeoutMs: 120_000 });
    expect(rerun.structured.stop?.frame.line, rerun.text).toBe(line('big'));

    const id = traced.structured.breakpoint.id;
    type Table = { hits: number; rows: { hit: number; values: { value?: string }[] }[]; nextStart?: number };
    const table = await call<Table>('breakpoint_trace', { id });
    expect(table.structured.hits).toBe(100);
    expect(table.text).toContain('full (maxHits 100)');
    const page = await call<Table>('breakpoint_trace', { id, maxChars: 600 });
    expect(page.structured.nextStart).toBeGreaterThan(0);
    const [tool, args] = parseCall(/breakpoint_trace \{[^}]+\}/.exec(page.text)![0]);
    const rest = await call<Table>(tool, args);
    expect(rest.structured.rows[0].hit).toBe(page.structured.nextStart! + 1);
    const all: Table['rows'] = [];
    for (let start: number | undefined = 0; start !== undefined; ) {
      const r: { structured: Table } = await call<Table>('breakpoint_trace', { id, start, maxChars: 1500 });
      all.push(...r.structured.rows);
      start = r.structured.nextStart;
    }
    expect(all.map((r) => r.values[0].value)).toEqual(Array.from({ length: 100 }, (_, k) => String(k)));
    expect(all[99].values[1].value).toBe('982.5'); // the total before the last addition
    const listed = await call<{ breakpoints: { id: number; hits: number }[] }>('breakpoint_list', {});
    expect(listed.structured.breakpoints.find((b) => b.id === id)?.hits).toBe(100);
  }, TEST_MS);

  it.runIf(run)('reads a 1,000,000-element list and a 10 MB string within the budget, by the calls the answers name', async () => {
    await launchTo('big');

    const first = await call<{ variables: { value: string }[] }>('inspect_variables', { path: 'big' });
    const pageCall = /inspect_variables (\{"path":"big","start":50\})/.exec(first.text);
    expect(pageCall, first.text).not.toBeNull();
    const second = await call<{ variables: { value: string }[] }>(...parseCall(`inspect_variables ${pageCall![1]}`));
    expect(second.structured.variables[0].value).toBe('50');
    const last = await call<{ variables: { value: string }[] }>('inspect_variables', { path: 'big', start: 999_990, count: 10 });
    expect(last.structured.variables.map((v) => v.value)).toContain('999999');

    const whole = 'ab'.repeat(5_000_000) + 'END';
    const text = await call<Evaluation>('inspect_evaluate', { expression: 'text' });
    expect(text.text).toMatch(/cut at \d+ chars/);
    expect(text.structured.next, text.text).toBeDefined();
    let read = stringContent(text.structured.value!);
    let next = text.structured.next;
    for (let k = 0; k < 2 && next; k++) {
      const [tool, args] = parseCall(next);
      // The read-on call starts exactly where what was shown ends.
      expect(String(args.expression)).toContain(String(read.length));
      const part = await call<Evaluation>(tool, args);
      read += stringContent(part.structured.value!);
      next = part.structured.next;
    }
    expect(read.length).toBeGreaterThan(1500);
    expect(read).toBe(whole.slice(0, read.length));
  }, TEST_MS);
});
