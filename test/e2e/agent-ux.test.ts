/**
 * What an agent stumbled on, through the real MCP server over stdio: arguments a tool does not know
 * refused at every depth; one breakpoint shape everywhere, edited in place; traces that read the
 * caller's frame and name it, on Python, Node.js and .NET; a probe that answers one compact table;
 * change marks that belong to one activation of a frame; the small ones (the scope to pass, a trace's
 * thread column).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const PY = here('../fixtures/e2e/python/workflow.py');
const JS = here('../fixtures/node/workflow.js');
const PRICING = here('../fixtures/pricing/');
const QUOTES = join(PRICING, 'Pricing', 'QuoteService.cs');
const PYTEST = here('../fixtures/testing/python/');
const ARROWS = here('../fixtures/node/arrows.js');

const hasPython = requireRuntime('python with debugpy', ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy'])));
const hasPytest = requireRuntime('python3 with debugpy and pytest', hasCommand('/usr/bin/python3', ['-c', 'import debugpy, pytest']));
// .NET launch is Linux-only so far.
const hasDotnet = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);

interface Stop {
  reason: string;
  threadId: number;
  frame: { name: string; line: number };
  locals?: { name: string; value: string; previous?: string }[];
}
interface Wait {
  sessionId: string;
  status: 'stopped' | 'exited' | 'timeout';
  stop?: Stop;
}
interface TraceAnswer {
  expressions: string[];
  rows: { hit: number; threadId: number; values: { value?: string; error?: boolean }[] }[];
}

/** Each engine with a program where a function is called from a loop of its caller, and the lines of both. */
const engines = [
  {
    language: 'python',
    run: hasPython,
    program: () => PY,
    callee: { file: PY, line: () => markerLine(PY, 'BP:line_total'), local: 'item', caller: 'compute_total' },
    loop: { file: PY, line: () => markerLine(PY, 'BP:accumulate'), local: 'total' },
    callerValue: { expression: 'order.oid', values: ['1', '1', '1', '2'] },
    callee2: 'item["qty"]',
  },
  {
    language: 'node',
    run: true,
    program: () => JS,
    callee: { file: JS, line: () => markerLine(JS, 'BP:line_total'), local: 'item', caller: 'computeTotal' },
    loop: { file: JS, line: () => markerLine(JS, 'BP:accumulate'), local: 'total' },
    callerValue: { expression: 'order.id', values: ['7', '7'] },
    callee2: 'item.qty',
  },
];

describe('what an agent stumbled on', () => {
  let client: McpTestClient;
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-agentux-state-'));

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(async () => {
    await stopActiveSessions(client);
  });

  describe('an argument a tool does not know is refused, at every depth', () => {
    it('on every tool, naming the key and what the tool takes', async () => {
      const { tools } = await client.client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(33);
      for (const tool of tools) {
        const r = await client.call(tool.name, { noSuchArgument: 1 });
        expect(r.isError, tool.name).toBe(true);
        expect(r.text, tool.name).toMatch(new RegExp(`^INVALID_ARGUMENT: ${tool.name}: .*noSuchArgument: unknown argument; ${tool.name} takes: `));
      }
    });

    it('breakpoint_remove {ids} names ids and the closest key, not "say which breakpoints"', async () => {
      const r = await client.call('breakpoint_remove', { ids: [1] });
      expect(r.isError).toBe(true);
      expect(r.text).toBe(
        "INVALID_ARGUMENT: breakpoint_remove: ids: unknown argument (did you mean id?); breakpoint_remove takes: sessionId, id, file, line, all.\nNext: fix the arguments named above (the tool's input schema has them).",
      );
    });

    it('in a launch: an argument, a breakpoint field, a trace column, the engine options — each by its path', async () => {
      const r = await client.call('session_launch', { program: PY, remote: 'box', breakpoints: [{ file: PY, line: 11, maxHit: 3, trace: [{ expression: 'x', frame: 1 }] }] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('remote: unknown argument; session_launch takes: program,');
      expect(r.text).toContain('breakpoints[0].maxHit: unknown argument (did you mean maxHits?); breakpoints[0] takes: file, line, column, function, condition, hitCondition, logMessage, trace, maxHits, enabled');
      expect(r.text).toContain('breakpoints[0].trace[0].frame: unknown argument (did you mean frameIndex?); breakpoints[0].trace[0] takes: expression, frameIndex');
      const options = await client.call('session_launch', { program: PY, options: { justMycode: false } });
      expect(options.text).toMatch(/^INVALID_ARGUMENT: options\.justMycode: not an option of python, which takes: pythonPath, justMyCode, socketTuning\./);
      const probe = await client.call('debug_probe', { program: PY, breakpoints: [{ file: PY, line: 11 }], expresions: ['x'] });
      expect(probe.text).toContain('expresions: unknown argument (did you mean expressions?)');
    });
  });

  describe.runIf(hasPython)('one breakpoint shape everywhere (python)', () => {
    it('a launch breakpoint takes trace and maxHits: it records without stopping, and stops recording at maxHits', async () => {
      const line = markerLine(PY, 'BP:line_total');
      const launch = await client.call<Wait>('session_launch', { program: PY, breakpoints: [{ file: PY, line, trace: ['item["qty"]'], maxHits: 3 }], waitForStop: true });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.status).toBe('exited');
      const trace = await client.call<TraceAnswer>('breakpoint_trace', { id: 1 });
      expect(trace.structured.rows.map((r) => r.values[0].value)).toEqual(['3', '1', '10']);
      expect(trace.text).toContain('full (maxHits 3), breakpoint disarmed');
    });

    it('a probe takes a conditional breakpoint beside a trace, and answers the trace\'s table too', async () => {
      const probe = await client.call<{ hits: { values: { value?: string }[] }[] }>('debug_probe', {
        program: PY,
        breakpoints: [
          { file: PY, line: markerLine(PY, 'BP:line_total'), condition: 'item["price"] > 1' },
          { file: PY, line: markerLine(PY, 'BP:return'), trace: ['total'] },
        ],
        expressions: ['item["price"]'],
      });
      expect(probe.isError, probe.text).toBe(false);
      expect(probe.structured.hits.map((h) => h.values[0].value)).toEqual(['2', '5', '7']);
      expect(probe.text).toMatch(/\nTrace #2 at workflow\.py:\d+: 2 hits \(recording, up to 100\)\nhit \| total\n1 \| 21\n2 \| 14/);
    });

    it.runIf(hasPytest)('a debug_test breakpoint takes a trace', async () => {
      const line = markerLine(join(PYTEST, 'calc.py'), 'BP:subtotal');
      const test = await client.call<{ sessionId: string; status: string }>('debug_test', { path: join(PYTEST, 'test_calc.py'), test: 'test_total', breakpoints: [{ file: join(PYTEST, 'calc.py'), line, trace: ['prices'] }] });
      expect(test.isError, test.text).toBe(false);
      expect(test.structured.status).toBe('finished');
      const trace = await client.call<TraceAnswer>('breakpoint_trace', { sessionId: test.structured.sessionId, id: 1 });
      expect(trace.structured.rows[0]?.values[0].value).toBe('[10, 20, 5]');
    });

    it('breakpoint_set with an id edits that breakpoint in place: condition, trace, enabled', async () => {
      const line = markerLine(PY, 'BP:line_total');
      await client.call('session_launch', { program: PY, breakpoints: [{ file: PY, line }], waitForStop: true });
      const edited = await client.call<{ breakpoint: { id: number; condition?: string } }>('breakpoint_set', { id: 1, condition: 'item["qty"] == 10' });
      expect(edited.structured.breakpoint).toMatchObject({ id: 1, condition: 'item["qty"] == 10' });
      const next = await client.call<Wait>('execution_continue', {});
      expect(next.text).toMatch(/locals: item = \{'price': 1, 'qty': 10\}/);

      const traced = await client.call('breakpoint_set', { id: 1, condition: '', trace: ['item["qty"]'] });
      expect(traced.text).toMatch(/^\[python-\d+\] #1 workflow\.py:\d+ \(trace item\["qty"\]\) — verified/);
      const disabled = await client.call('breakpoint_set', { id: 1, enabled: false });
      expect(disabled.text).toMatch(/#1 workflow\.py:\d+ \(trace item\["qty"\]\) — disabled/);
      const list = await client.call<{ breakpoints: { id: number; enabled?: boolean }[] }>('breakpoint_list', {});
      expect(list.structured.breakpoints).toEqual([expect.objectContaining({ id: 1, enabled: false })]);
      const end = await client.call<Wait>('execution_continue', {});
      expect(end.structured.status).toBe('exited');
      const trace = await client.call<TraceAnswer>('breakpoint_trace', { id: 1 });
      expect(trace.structured.rows).toEqual([]);

      const missing = await client.call('breakpoint_set', { id: 9, condition: 'x' });
      expect(missing.text).toMatch(/^BREAKPOINT_NOT_FOUND: No breakpoint #9\./);
    });
  });

  describe.each(engines)('traces see the caller ($language)', ({ language, run, program, callee, callerValue, callee2 }) => {
    it.runIf(run)('a column in a caller\'s frame (frameIndex) and the caller\'s name and line ($CALLER)', async () => {
      const launch = await client.call<Wait>('session_launch', {
        program: program(),
        breakpoints: [{ file: callee.file, line: callee.line(), trace: [callee2, '$CALLER', { frameIndex: 1, expression: callerValue.expression }, { frameIndex: 9, expression: 'x' }] }],
        waitForStop: true,
      });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.status).toBe('exited');
      const trace = await client.call<TraceAnswer>('breakpoint_trace', { id: 1 });
      expect(trace.structured.expressions).toEqual([callee2, '$CALLER', `${callerValue.expression} (frame 1)`, 'x (frame 9)']);
      const accumulate = markerLine(callee.file, 'BP:accumulate');
      for (const row of trace.structured.rows) expect(row.values[1].value).toBe(`${callee.caller} (${callee.file.split('/').pop()}:${accumulate})`);
      expect(trace.structured.rows.map((r) => r.values[2].value)).toEqual(callerValue.values);
      expect(trace.structured.rows[0].values[3]).toMatchObject({ error: true, value: expect.stringMatching(/^no frame 9 with source/) });
      expect(trace.text).toContain(`| ${callee.caller} (`);
      expect(language).toBeDefined();
    });
  });

  describe.each(engines)('change marks belong to one activation ($language)', ({ run, program, callee, loop }) => {
    it.runIf(run)('a new call of the function has no marks; the next iteration of a loop in the same call has', async () => {
      const first = await client.call<Wait>('session_launch', { program: program(), breakpoints: [{ file: callee.file, line: callee.line() }], waitForStop: true });
      expect(first.structured.stop?.frame.line).toBe(callee.line());
      const second = await client.call<Wait>('execution_continue', {});
      const item = second.structured.stop?.locals?.find((l) => l.name === callee.local);
      expect(item?.previous, second.text).toBeUndefined();
      expect(second.text).not.toContain('→');

      await client.call('session_stop', {});

      // The loop that calls it: the same activation at every iteration.
      await client.call<Wait>('session_launch', { program: program(), breakpoints: [{ file: loop.file, line: loop.line() }], waitForStop: true });
      const nextIteration = await client.call<Wait>('execution_continue', {});
      expect(nextIteration.structured.stop?.frame.line).toBe(loop.line());
      expect(nextIteration.structured.stop?.locals?.find((l) => l.name === loop.local), nextIteration.text).toMatchObject({ previous: '0', value: '6' });
    });
  });

  describe.runIf(hasDotnet)('.NET: the planted cache-key bug (async)', () => {
    let program: string;
    const rated = () => markerLine(QUOTES, 'BP:rated');
    beforeAll(() => {
      program = buildFixture('Pricing', PRICING);
    }, 300_000);

    it('debug_probe answers one table: 8 hits of 3 expressions in at most 1,500 characters, locals only on request', async () => {
      const probe = await client.call<{ hits: { stop: { locals?: unknown[] }; values: { value?: string }[] }[] }>('debug_probe', {
        program,
        breakpoints: [{ file: QUOTES, line: rated() }],
        expressions: ['customer.Name', 'key', 'rate'],
        maxHits: 8,
      });
      expect(probe.isError, probe.text).toBe(false);
      expect(probe.text.length).toBeLessThanOrEqual(1500);
      const lines = probe.text.split('\n');
      expect(lines[0]).toMatch(/^\[dotnet-\d+\] 8 hits at Pricing\.QuoteService\.Rate \(QuoteService\.cs:\d+\): return rate; \/\/ BP:rated\. Stopped after 8 hits\.$/);
      expect(lines[1]).toBe('hit | customer.Name | key | rate');
      expect(lines[2]).toBe('1 | "vip-bo" | "rate:1" | 0.80');
      expect(lines[3]).toBe('2 | "ed" | "rate:1" | 0.80');
      expect(probe.text).not.toContain('locals:');
      expect(probe.structured.hits[0].stop.locals).toBeUndefined();

      const withLocals = await client.call('debug_probe', { program, breakpoints: [{ file: QUOTES, line: rated() }], expressions: ['key'], locals: true, maxHits: 2 });
      expect(withLocals.text).toMatch(/\n1 \| "rate:1"\n {2}locals: this = .*customer = Customer \{ Name = vip-bo, Tier = Vip \}/);
    });

    it('a trace reads the caller\'s invoice across the async hop, names the caller, and leaves out the thread column', async () => {
      const launch = await client.call<Wait>('session_launch', {
        program,
        breakpoints: [{ file: QUOTES, line: rated(), trace: ['customer.Name', 'key', '$CALLER', { frameIndex: 1, expression: 'invoice.Id' }] }],
        waitForStop: true,
      });
      expect(launch.structured.status, launch.text).toBe('exited');
      const trace = await client.call<TraceAnswer>('breakpoint_trace', { id: 1 });
      const caller = `Pricing.QuoteService.QuoteAsync (QuoteService.cs:${markerLine(QUOTES, 'BP:quote') - 1})`;
      expect(trace.structured.rows).toHaveLength(8);
      expect(trace.structured.rows.slice(0, 3).map((r) => r.values.map((v) => v.value))).toEqual([
        ['"vip-bo"', '"rate:1"', caller, '1001'],
        ['"ed"', '"rate:1"', caller, '1002'],
        ['"ann"', '"rate:0"', caller, '1003'],
      ]);
      expect(trace.text.split('\n')[1]).toBe('hit | customer.Name | key | $CALLER | invoice.Id (frame 1)');
      const threads = new Set(trace.structured.rows.map((r) => r.threadId)).size;
      if (threads > 1) expect(trace.text.split('\n')[0]).toContain(`; ${threads} threads (threads: true shows which)`);
      const withThreads = await client.call('breakpoint_trace', { id: 1, threads: true });
      expect(withThreads.text.split('\n')[1]).toBe('hit | thread | customer.Name | key | $CALLER | invoice.Id (frame 1)');
    });

    it('change marks: none at a new call of Rate, but a step in the same call marks what changed', async () => {
      const volume = markerLine(QUOTES, 'BP:rate') - 2;
      await client.call<Wait>('session_launch', { program, breakpoints: [{ file: QUOTES, line: volume }], waitForStop: true });
      const second = await client.call<Wait>('execution_continue', {});
      expect(second.text).toMatch(/customer = Customer \{ Name = ed, Tier = Standard \}/);
      expect(second.text).not.toContain('→');
      const stepped = await client.call<Wait>('execution_step', { kind: 'over' });
      expect(stepped.structured.stop?.locals?.find((l) => l.name === 'volumeTier')).toMatchObject({ previous: '0', value: '1' });
    });
  });

  describe('what the shell\'s agent asked for', () => {
    it('breakpoint_set and breakpoint_list show the column: a statement and the arrow function in it differ', async () => {
      const line = markerLine(ARROWS, 'BP:arrow');
      const column = readFileSync(ARROWS, 'utf8').split('\n')[line - 1].indexOf('Math.round') + 1;
      await client.call('session_launch', { program: ARROWS, breakpoints: [{ file: ARROWS, line }], stopOnEntry: true });
      const set = await client.call<{ breakpoint: { column?: number; actualColumn?: number } }>('breakpoint_set', { file: ARROWS, line, column });
      // V8 binds at the nearest place it can break at, and the answer says where.
      const bound = set.structured.breakpoint.actualColumn!;
      expect(bound).toBeGreaterThanOrEqual(column);
      expect(set.text).toMatch(new RegExp(`#2 arrows\\.js:${line}:${column} — verified${bound === column ? '' : `, moved to ${line}:${bound}`}$`));
      const list = await client.call('breakpoint_list', {});
      expect(list.text).toMatch(new RegExp(`#1 arrows\\.js:${line} — verified\n#2 arrows\\.js:${line}:${column} — verified`));
    });

    it.runIf(hasPython)('the program\'s last output has one form after execution_continue and session_stop', async () => {
      const launched = await client.call<Wait>('session_launch', { program: PY, breakpoints: [{ file: PY, line: markerLine(PY, 'BP:comment') + 1 }], waitForStop: true });
      const stopped = await client.call('session_stop', { sessionId: launched.structured.sessionId });
      expect(stopped.text).toMatch(/\noutput \(last lines\):\n {2}grand total 35$/);
      await client.call<Wait>('session_launch', { program: PY, stopOnEntry: true, waitForStop: true });
      const exited = await client.call('execution_continue', {});
      expect(exited.text).toMatch(/\noutput \(last lines\):\n {2}grand total 35\n {2}counts 3$/);
    });
  });

  describe.runIf(hasPython)('the small ones', () => {
    it('the other scopes come with the exact call that reads one', async () => {
      await client.call('session_launch', { program: PY, breakpoints: [{ file: PY, line: markerLine(PY, 'BP:line_total') }], waitForStop: true });
      const locals = await client.call('inspect_variables', {});
      expect(locals.text).toContain('\nother scopes: Globals (inspect_variables {"scope":"Globals"})');
      const byPath = await client.call('inspect_variables', { path: 'item' });
      expect(byPath.text).not.toContain('other scopes');
    });
  });
});
