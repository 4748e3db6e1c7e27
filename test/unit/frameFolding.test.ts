import { describe, expect, it } from 'vitest';
import { exceptionAutopsy } from '../../src/core/exceptionAutopsy.js';
import { foldFrames } from '../../src/core/frameFolding.js';
import { buildHangReport } from '../../src/core/hangReport.js';
import type { FrameInfo } from '../../src/core/types.js';
import { renderStack, renderStop } from '../../src/server/render.js';
import { renderHangReport } from '../../src/server/renderHang.js';

const user = (name: string, line: number, extra: Partial<FrameInfo> = {}): FrameInfo => ({ id: line, name, file: '/app/main.js', line, column: 1, ...extra });
const library = (name: string): FrameInfo => ({ id: 0, name, file: '/app/node_modules/x/index.js', line: 1, column: 1, presentationHint: 'subtle' });
const native = (name: string): FrameInfo => ({ id: 0, name, line: 7, column: 0 });
/** The .NET host's fold of frames without symbols. */
const dotnetExternal: FrameInfo = { id: 0, name: '[External Code]', line: 0, column: 0, presentationHint: 'label' };

describe('foldFrames', () => {
  it('keeps the user frames and folds each run of library or runtime frames into one entry with its count', () => {
    expect(foldFrames([user('parse', 3), library('JSON.parse'), native('map'), user('main', 9), native('load'), native('run')])).toEqual([
      { index: 0, name: 'parse', file: '/app/main.js', line: 3 },
      { index: 1, name: 'JSON.parse', file: '/app/node_modules/x/index.js', line: 1, external: 2 },
      { index: 3, name: 'main', file: '/app/main.js', line: 9 },
      { index: 4, name: 'load', file: undefined, line: 7, external: 2 },
    ]);
  });

  it('keeps the innermost frame itself, whosever code it is: it is where the thread is', () => {
    expect(foldFrames([native('wait'), native('acquire'), user('main', 9)]).map((e) => [e.name, e.external])).toEqual([
      ['wait', undefined],
      ['acquire', 1],
      ['main', undefined],
    ]);
  });

  it('folds recursion — the same function on the same line, of the same kind — into one entry with its count', () => {
    const entries = foldFrames([user('down', 3), user('down', 4), user('down', 4), user('down', 4), user('down', 4, { async: true }), user('main', 9)]);
    expect(entries.map((e) => [e.index, e.name, e.times, e.async])).toEqual([
      [0, 'down', undefined, undefined],
      [1, 'down', 3, undefined],
      [4, 'down', undefined, true],
      [5, 'main', undefined, undefined],
    ]);
  });
});

describe('one wording for a folded stack in every answer', () => {
  const frames = [user('down', 3), user('down', 4), user('down', 4), library('JSON.parse'), native('map'), native('forEach'), user('main', 9), user('tick', 2, { async: true }), dotnetExternal];
  const autopsyLine = () => {
    const exception = exceptionAutopsy({ type: 'Error', message: 'boom' }, { frames }, { name: 'down', file: '/app/main.js', line: 3, column: 1 });
    const text = renderStop({ reason: 'exception', threadId: 1, frameIndex: 0, frame: { name: 'down', file: '/app/main.js', line: 3, column: 1 }, hitBreakpointIds: [], exception, at: 0 });
    return text.split('\n').find((l) => l.startsWith('stack: '));
  };

  it('the autopsy: `[External Code] ×N` for a run, `×N` after a recursing frame, `[async]` kept', () => {
    expect(autopsyLine()).toBe('stack: down (main.js:3) ← down (main.js:4) ×2 ← [External Code] ×3 ← main (main.js:9) ← tick (main.js:2) [async] ← [External Code]');
  });

  it('inspect_stack from the top: the same entries, each at the index of its first frame, and the call that lists the external frames', () => {
    expect(renderStack(frames.map((f, index) => ({ ...f, index })), 1, 20, true)).toBe(
      [
        'Thread 1 stack:',
        '#0 down (main.js:3)',
        '#1 down (main.js:4) ×2',
        '#3 [External Code] ×3',
        '#6 main (main.js:9)',
        '#7 tick (main.js:2) [async]',
        '#8 [External Code]',
        '(inspect_stack {"start":3} lists each frame)',
        '… 11 more frames (page with start)',
      ].join('\n'),
    );
  });

  it('inspect_stack with start: every frame, an external one with source marked', () => {
    const page = renderStack(frames.slice(2, 5).map((f, i) => ({ ...f, index: i + 2 })), 1, 9);
    expect(page).toBe(['Thread 1 stack:', '#2 down (main.js:4)', '#3 JSON.parse (index.js:1) [external]', '#4 map (<no source>:7)', '… 4 more frames (page with start)'].join('\n'));
  });

  it('gives no listing call where the only folds are the runtime\'s own', () => {
    expect(renderStack([user('Main', 4), dotnetExternal].map((f, index) => ({ ...f, index })), 1, 2, true)).toBe('Thread 1 stack:\n#0 Main (main.js:4)\n#1 [External Code]');
  });

  it('the hang report: the same entries under each group', () => {
    const text = renderHangReport(buildHangReport([{ id: 4, name: 'worker', frames, totalFrames: 30 }]));
    expect(text.split('\n').slice(2)).toEqual([
      '  #0 down (main.js:3)',
      '  #1 down (main.js:4) ×2',
      '  #3 [External Code] ×3',
      '  #6 main (main.js:9)',
      '  #7 tick (main.js:2) [async]',
      '  #8 [External Code]',
      '  … 21 more frames (inspect_stack { threadId: 4, start: 9 })',
    ]);
  });
});
