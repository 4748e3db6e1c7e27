import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineAt, sourceWindow } from '../../src/core/sourceReader.js';

describe('source lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dbb-source-'));
  const text = ['using System;', '', 'Console.WriteLine("hi");', 'return 0;'];

  // Sources checked out on Windows (git's autocrlf, Visual Studio) end their lines with CRLF.
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('read the same from a %s file', (_, ending) => {
    const file = join(dir, `Program.${ending.length}.cs`);
    writeFileSync(file, text.join(ending) + ending);
    expect(lineAt(file, 3)).toBe('Console.WriteLine("hi");');
    const window = sourceWindow(file, 3, 1, 1);
    expect(window.lines.map((l) => l.text)).toEqual(['', 'Console.WriteLine("hi");', 'return 0;']);
    expect(window.totalLines).toBe(5);
  });
});
