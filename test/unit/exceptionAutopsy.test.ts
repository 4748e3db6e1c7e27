import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autopsyStack, exceptionAutopsy, MAX_CAUSES } from '../../src/core/exceptionAutopsy.js';
import type { FrameInfo } from '../../src/core/types.js';
import { summaryText } from '../../src/core/valueText.js';
import { causesFromTraceback, withoutPauseNote } from '../../src/engines/python/exceptionChain.js';

const user = (name: string, line: number, extra: Partial<FrameInfo> = {}): FrameInfo => ({ id: line, name, file: '/app/main.py', line, column: 1, ...extra });
const library = (name: string): FrameInfo => ({ id: 0, name, file: '/usr/lib/node_modules/x/index.js', line: 1, column: 1, presentationHint: 'subtle' });
const native = (name: string): FrameInfo => ({ id: 0, name, line: 0, column: 0 });

describe('autopsyStack', () => {
  it('says how many frames it did not list: past the fetched page, and past the listed user frames', () => {
    expect(autopsyStack([user('a', 1), user('b', 2)], 40).moreFrames).toBe(38);
    const many = Array.from({ length: 12 }, (_, i) => user(`f${i}`, i + 1));
    const listed = autopsyStack(many, 12);
    expect(listed.frames).toHaveLength(8);
    expect(listed.moreFrames).toBe(4);
  });

  it('counts a recursion as one listed entry and keeps the external runs between listed frames', () => {
    const frames = [user('down', 3), ...Array.from({ length: 5 }, () => user('down', 4)), library('JSON.parse'), native('map'), ...Array.from({ length: 7 }, (_, i) => user(`f${i}`, 20 + i))];
    const listed = autopsyStack(frames, frames.length);
    expect(listed.frames.map((f) => [f.name, f.times ?? f.external])).toEqual([['down', undefined], ['down', 5], ['JSON.parse', 2], ...['f0', 'f1', 'f2', 'f3', 'f4', 'f5'].map((n) => [n, undefined])]);
    expect(listed.moreFrames).toBe(1);
  });

  it('leaves out the frames of a cause\'s traceback, which end the thread\'s own stack', () => {
    const { frames, moreFrames } = autopsyStack([user('start', 23), user('<module>', 35), user('[Chained Exc: boom] load', 14, { chainedException: true })], 300);
    expect(frames.map((f) => f.name)).toEqual(['start', '<module>']);
    expect(moreFrames).toBe(0);
  });
});

describe('exceptionAutopsy', () => {
  it('caps the causes and each message, and says what it left out', () => {
    const causes = Array.from({ length: MAX_CAUSES + 2 }, (_, i) => ({ type: 'Error', message: `cause ${i} ${'x'.repeat(500)}`, relation: 'cause' as const }));
    const autopsy = exceptionAutopsy({ type: 'Error', message: 'm'.repeat(2000), stackTrace: 's'.repeat(50_000), causes }, { frames: [] }, { name: 'f', line: 1, column: 1 });
    expect(autopsy.stackTrace).toMatch(/^s+… \(\d+ more chars\)$/);
    expect(autopsy.stackTrace!.length).toBeLessThan(2_100);
    expect(autopsy.causes).toHaveLength(MAX_CAUSES);
    expect(autopsy.moreCauses).toBe(2);
    expect(autopsy.causes![0].message).toMatch(/^cause 0 x+… \(\d+ more chars\)$/);
    expect(autopsy.message!.length).toBeLessThan(500);
    expect(autopsy.frames).toBeUndefined();
    const multiLine = exceptionAutopsy({ causes: [{ message: 'first\nsecond\nthird', relation: 'inner' }] }, { frames: [] }, { name: 'f', line: 1, column: 1 });
    expect(multiLine.causes![0].message).toBe('first … (2 more lines)');
  });
});

describe('exceptionAutopsy throw site', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'dbb-autopsy-unit-')), 'thrower.js');
  writeFileSync(file, ['function make() {', "  return new Error('made here');", '}', 'function use() {', '  throw make();', '}'].join('\n'));

  it('reads the source at the throw site when the program stopped elsewhere', () => {
    const autopsy = exceptionAutopsy({ type: 'Error', thrownAt: { file, line: 2 } }, { frames: [] }, { name: 'use', file, line: 5, column: 3 });
    expect(autopsy.throwSource).toEqual([
      { line: 1, text: 'function make() {', current: false },
      { line: 2, text: "  return new Error('made here');", current: true },
      { line: 3, text: '}', current: false },
    ]);
  });

  it('leaves it out where it stopped on the throw itself', () => {
    expect(exceptionAutopsy({ thrownAt: { file, line: 5 } }, { frames: [] }, { name: 'use', file, line: 5, column: 3 }).throwSource).toBeUndefined();
  });
});

describe('causesFromTraceback (debugpy exceptionInfo text)', () => {
  // Captured from debugpy 1.6 on test/fixtures/e2e/python/chained.py.
  const text = [
    '  File "/app/chained.py", line 11, in load',
    '    return read_config(text)',
    '           ^^^^^^^^^^^^^^^^^',
    '  File "/app/chained.py", line 6, in read_config',
    '    return json.loads(text)',
    'json.decoder.JSONDecodeError: Expecting value: line 1 column 2 (char 1)',
    '',
    'The above exception was the direct cause of the following exception:',
    '',
    '  File "/app/chained.py", line 20, in start',
    '    load(text)',
    '  File "/app/chained.py", line 14, in load',
    '    raise RuntimeError("config unreadable") from error',
    'RuntimeError: config unreadable',
    'second line of the message',
    '',
    'During handling of the above exception, another exception occurred:',
    '',
    '  File "/app/chained.py", line 23, in start',
    '    raise KeyError("port")',
    "KeyError: 'port'",
    '',
  ].join('\n');

  it('answers the causes nearest first, with how each relates, its message and where it was raised', () => {
    expect(causesFromTraceback(text)).toEqual([
      { type: 'RuntimeError', message: 'config unreadable\nsecond line of the message', relation: 'context', thrownAt: { file: '/app/chained.py', line: 14 } },
      { type: 'json.decoder.JSONDecodeError', message: 'Expecting value: line 1 column 2 (char 1)', relation: 'cause', thrownAt: { file: '/app/chained.py', line: 6 } },
    ]);
  });

  it('answers no causes for a lone exception, or no traceback', () => {
    expect(causesFromTraceback('  File "/a.py", line 1, in <module>\n    f()\nValueError: x\n')).toEqual([]);
    expect(causesFromTraceback(undefined)).toEqual([]);
  });

  it('takes a message-less exception as its type alone', () => {
    const [cause] = causesFromTraceback('  File "/a.py", line 2, in f\n    raise StopIteration\nStopIteration\n\n\nDuring handling of the above exception, another exception occurred:\n\n  File "/a.py", line 5, in g\nKeyError: 1\n');
    expect(cause).toEqual({ type: 'StopIteration', message: undefined, relation: 'context', thrownAt: { file: '/a.py', line: 2 } });
  });

  it('drops the note pydevd appends to the type when it paused elsewhere', () => {
    expect(withoutPauseNote('KeyError       (note: full exception trace is shown but execution is paused at: <module>)')).toBe('KeyError');
  });
});

describe('summaryText', () => {
  it('keeps a multi-line value on one line and says how many lines it left out', () => {
    expect(summaryText('Error: boom\n    at f (a.js:1:1)\n    at g (a.js:2:1)')).toBe('Error: boom … (2 more lines)');
    expect(summaryText('plain')).toBe('plain');
  });
});
