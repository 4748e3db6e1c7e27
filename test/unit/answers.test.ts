/** Pure parts of the answers built for an agent: value cuts, watches, changed locals, trace tables. */
import { describe, expect, it } from 'vitest';
import { activationKey, LocalChanges, nearestCaller } from '../../src/core/localChanges.js';
import type { FrameInfo } from '../../src/core/types.js';
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
  const frame = (name: string, line: number, extra: Partial<FrameInfo> = {}): FrameInfo => ({ id: line, name, file: '/a.py', line, column: 1, ...extra });
  const f = [frame('f', 3), frame('main', 20)];
  const g = [frame('g', 9), frame('main', 21)];

  it('compares with the last stop in the same activation only', () => {
    const changes = new LocalChanges();
    changes.mark(activationKey(1, f, 0), '[["i",0]]', [{ name: 'i', value: '0' }], true);
    expect(changes.mark(activationKey(1, g, 0), '[["i",0]]', [{ name: 'i', value: '7' }], true)[0].previous).toBeUndefined();
    expect(changes.mark(activationKey(1, f, 0), '[["i",0]]', [{ name: 'i', value: '1' }], true)[0]).toEqual({ name: 'i', value: '1', previous: '0' });
  });

  it('has nothing to compare at a new call: the caller moved on (its values changed), or it calls from another line or depth', () => {
    const changes = new LocalChanges();
    changes.mark(activationKey(1, f, 0), '[["n",1]]', [{ name: 'x', value: '"vip-bo"' }], true);
    expect(changes.mark(activationKey(1, f, 0), '[["n",2]]', [{ name: 'x', value: '"ed"' }], true)[0].previous).toBeUndefined();
    const deeper = [frame('f', 3), frame('f', 4), frame('main', 20)];
    expect(changes.mark(activationKey(1, deeper, 0), '[["n",2]]', [{ name: 'x', value: '"al"' }], true)[0].previous).toBeUndefined();
    expect(activationKey(2, f, 0)).not.toBe(activationKey(1, f, 0));
  });

  it('a stop read again compares with the same stop before', () => {
    const changes = new LocalChanges();
    const key = activationKey(1, f, 0);
    changes.mark(key, '', [{ name: 'i', value: '0' }], true);
    changes.mark(key, '', [{ name: 'i', value: '1' }], true);
    expect(changes.mark(key, '', [{ name: 'i', value: '5' }], false)[0]).toEqual({ name: 'i', value: '5', previous: '0' });
  });

  it('counts the callers with source: external frames between do not make another activation', () => {
    const withRuntime = [frame('f', 3), { id: 0, name: '[External Code]', line: 0, column: 0, presentationHint: 'label' as const }, frame('main', 20)];
    expect(activationKey(1, withRuntime, 0)).toBe(activationKey(1, f, 0));
    expect(nearestCaller(withRuntime, 0)?.name).toBe('main');
    expect(nearestCaller([frame('f', 3), frame('main', 20, { async: true })], 0)).toBeUndefined();
  });
});

describe('trace tables', () => {
  it('keep maxHits rows and page with the exact call', () => {
    const log = new TraceLog();
    log.arm(4, [{ expression: 'i', frameIndex: 0 }], 30);
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
