/** Pure parts of the answers built for an agent: value cuts, watches, changed locals, trace tables. */
import { describe, expect, it } from 'vitest';
import { LocalChanges } from '../../src/core/localChanges.js';
import { TraceLog } from '../../src/core/traceLog.js';
import { cutValue, unescapedLength } from '../../src/core/valueCut.js';
import { WatchList } from '../../src/core/watchList.js';
import type { Engine } from '../../src/core/engine.js';
import { pageValue, renderTrace, withWatches } from '../../src/server/renderAnswers.js';

const pySlice = (e: string, a: number, b: number) => `(${e})[${a}:${b}]`;

describe('cutValue', () => {
  it('leaves a value that fits alone', () => {
    expect(cutValue("'abc'", 10)).toEqual({ text: "'abc'" });
  });
  it('says how much of a quoted string the shown part covers, escapes counted once', () => {
    const { text, cut } = cutValue(String.raw`'a\nb\x41c\u00e9d\\e'`, 12);
    expect(text).toBe(String.raw`'a\nb\x41c\u`);
    expect(cut).toMatchObject({ shown: 12, stringOffset: 5, stringLength: 9 });
  });
  it('treats a quoted string the runtime cut (no closing quote at the end) as cut', () => {
    const { cut } = cutValue('"abcdef"… (100 chars)', 1000);
    expect(cut).toMatchObject({ stringOffset: 6 });
    expect(cut?.stringLength).toBeUndefined();
  });
  it('counts raw characters', () => {
    expect(unescapedLength(String.raw`\u{1F600}x`)).toBe(2);
  });
});

describe('pageValue', () => {
  it('names the slice that reads on from where the text was cut', () => {
    const view = pageValue('s', { value: `'${'ab'.repeat(100)}'`, type: 'str', hasChildren: false, ref: 0 }, 51, pySlice);
    expect(view.value).toHaveLength(51);
    expect(view.next).toBe('inspect_evaluate {"expression":"(s)[50:150]"}');
  });
  it('sends a cut container to its children', () => {
    const view = pageValue('xs', { value: `[${'1, '.repeat(100)}]`, hasChildren: true, ref: 7 }, 20, pySlice);
    expect(view.next).toBe('inspect_variables {"path":"xs"}');
  });
});

function fakeEngine(values: Record<string, string>): Engine {
  return {
    evaluate: async (expression: string) => {
      if (!(expression in values)) throw new Error(`${expression} is not defined`);
      return { value: values[expression], ref: 0 };
    },
  } as unknown as Engine;
}

describe('WatchList', () => {
  it('marks a value that changed since the stop before, not a re-read of the same stop', async () => {
    const watches = new WatchList(['total', 'missing']);
    await watches.evaluate(fakeEngine({ total: '1' }), 1, true);
    const second = await watches.evaluate(fakeEngine({ total: '2' }), 1, true);
    expect(second[0]).toMatchObject({ value: '2', previous: '1' });
    expect(second[1]).toMatchObject({ error: true });
    const reread = await watches.evaluate(fakeEngine({ total: '5' }), 1, false);
    expect(reread[0]).toMatchObject({ value: '5', previous: '1' });
    const third = await watches.evaluate(fakeEngine({ total: '5' }), 1, true);
    expect(third[0].previous).toBeUndefined();
  });
  it('refuses an unknown watch with a code', () => {
    expect(() => new WatchList().remove({ ids: [3] })).toThrow(/No watch/);
  });
});

describe('LocalChanges', () => {
  it('compares with the last stop in the same function only', () => {
    const changes = new LocalChanges();
    const f = { name: 'f', file: '/a.py', line: 1, column: 1 };
    const g = { name: 'g', file: '/a.py', line: 9, column: 1 };
    changes.mark(f, [{ name: 'i', value: '0' }], true);
    expect(changes.mark(g, [{ name: 'i', value: '7' }], true)[0].previous).toBeUndefined();
    expect(changes.mark(f, [{ name: 'i', value: '1' }], true)[0]).toEqual({ name: 'i', value: '1', previous: '0' });
  });
});

describe('trace tables', () => {
  it('keep maxHits rows and page with the exact call', () => {
    const log = new TraceLog();
    log.arm(4, ['i'], 30);
    for (let k = 0; k < 40; k++) log.record(4, 1, [{ value: String(k) }]);
    const trace = log.get(4)!;
    expect(trace.rows).toHaveLength(30);
    const page = renderTrace(undefined, trace, 0, 300);
    expect(page.next).toBeGreaterThan(0);
    expect(page.text).toContain(`breakpoint_trace {"id":4,"start":${page.next}}`);
    expect(page.text.length).toBeLessThanOrEqual(300);
  });
});

describe('stop text with watches', () => {
  it('shortens watch values to fit and says so', () => {
    const text = withWatches('Stopped', [{ id: 1, expression: 'big', value: 'x'.repeat(5000) }], 1000);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text).toContain('values cut to fit');
  });
});
