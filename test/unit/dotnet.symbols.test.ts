/**
 * The metadata and Portable PDB readers against the lab fixture as `dotnet build` writes it: a
 * standalone PDB (lab.dll) and one embedded in the image (lablib.dll).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import type { ModuleSymbols } from '../../src/engines/dotnet/symbols/moduleSymbols.js';
import { readPeFile, readPeImage } from '../../src/engines/dotnet/symbols/peImage.js';
import { loadModuleSymbols } from '../../src/engines/dotnet/symbols/symbolLoader.js';
import { tokenRid } from '../../src/engines/dotnet/symbols/tableSchema.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';

const run = requireRuntime('dotnet', findDotnet() !== undefined);

describe.runIf(run)('.NET symbols', () => {
  let lab: ModuleSymbols;
  let lib: ModuleSymbols;
  let libPath: string;
  const program = fixtureSource('lab', 'Program.cs');
  const shapes = fixtureSource('lab', 'Shapes.cs');

  beforeAll(() => {
    const dll = buildFixture('lab');
    const labModule = loadModuleSymbols(dll);
    libPath = join(dll, '..', 'lablib.dll');
    const libModule = loadModuleSymbols(libPath);
    if (!labModule.symbols || !libModule.symbols) throw new Error('fixture symbols did not load');
    lab = labModule.symbols;
    lib = libModule.symbols;
  });

  /** Resolves a marked line and answers where it bound and in which methods. */
  function bind(symbols: ModuleSymbols, source: { path: string; line: (m: string) => number }, marker: string) {
    const line = source.line(marker);
    const r = symbols.resolveLine(source.path, line);
    if (!r.ok) throw new Error(r.message);
    return { line, bound: r.line, methods: r.targets.map((t) => symbols.methodName(t.methodToken)), targets: r.targets };
  }

  it('binds lines in plain, async, iterator, lambda, local-function, accessor, nested and generic methods', () => {
    const cases: [typeof program, string, string][] = [
      [program, 'loop-body', 'Lab.Program.Loop'],
      [program, 'add-body', 'Lab.Program.Add'],
      [program, 'after-main-await', 'Lab.Program.Main'],
      [shapes, 'ctor-body', 'Lab.Shapes.Shapes'],
      [shapes, 'getter', 'Lab.Shapes.Sides.get'],
      [shapes, 'local-function', 'Lab.Shapes.Run.Twice'],
      [shapes, 'iterator', 'Lab.Shapes.Numbers'],
      [shapes, 'after-await', 'Lab.Shapes.MeasureAsync'],
      [shapes, 'nested', 'Lab.Shapes.Outer.Inner.Name'],
      [shapes, 'generic', 'Lab.Box<T>.Describe<U>'],
      [shapes, 'linq', 'Lab.Queries.CountEvens'],
    ];
    for (const [source, marker, method] of cases) {
      const b = bind(lab, source, marker);
      expect({ marker, bound: b.bound, methods: b.methods }).toEqual({ marker, bound: b.line, methods: [method] });
    }
  });

  it('maps an IL offset back to its line, and knows statement starts', () => {
    const b = bind(lab, program, 'loop-body');
    const target = b.targets[0]!;
    expect(lab.location(target.methodToken, target.ilOffset)).toMatchObject({ line: b.line, atStatementStart: true });
    expect(lab.location(target.methodToken, target.ilOffset + 1)).toMatchObject({ line: b.line, atStatementStart: false });
    const range = lab.statementRange(target.methodToken, target.ilOffset)!;
    expect(range.start).toBe(target.ilOffset);
    expect(range.end).toBeGreaterThan(range.start);
    expect(lab.location(target.methodToken, range.end)!.line).not.toBe(b.line);
  });

  it('binds a field initializer in every constructor, and a lambda by its column', () => {
    expect(bind(lab, shapes, 'field-init').methods).toEqual(['Lab.Shapes.Shapes', 'Lab.Shapes.Shapes']);
    const line = shapes.line('linq');
    const column = readColumn(shapes.path, line, 'n % 2');
    const r = lab.resolveLine(shapes.path, line, column);
    expect(r.ok && r.targets.map((t) => lab.methodName(t.methodToken))).toEqual(['Lab.Queries.CountEvens.<lambda>']);
  });

  it('moves a breakpoint on a line without code to the next statement, and says why past the end', () => {
    const line = program.line('loop-body') - 1; // the `{` of the loop body holds no statement in Debug
    const r = lab.resolveLine(program.path, line);
    expect(r.ok).toBe(true);
    const after = lab.resolveLine(program.path, 10_000);
    expect(after).toMatchObject({ ok: false, message: expect.stringMatching(/no code at or after line 10000/) });
    expect(lab.resolveLine('/elsewhere/Nope.cs', 3)).toMatchObject({ ok: false, message: expect.stringMatching(/not a source file/) });
  });

  it('finds the user entry of an async Main in its state machine, not the <Main> stub', () => {
    const entry = lab.entryStatement()!;
    expect(lab.methodName(entry.methodToken)).toBe('Lab.Program.Main');
    const firstLine = lab.location(entry.methodToken, entry.ilOffset)!.line;
    expect(firstLine).toBeLessThanOrEqual(program.line('main-first'));
    expect(firstLine).toBeGreaterThan(program.line('main-first') - 3);
  });

  it('finds functions by Method, Type.Method and Namespace.Type.Method', () => {
    const names = (q: string) => lab.findMethods(q).map((m) => lab.methodName(m.token));
    expect(names('Loop')).toEqual(['Lab.Program.Loop']);
    expect(names('Program.Add')).toEqual(['Lab.Program.Add']);
    expect(names('Lab.Shapes.Run')).toEqual(['Lab.Shapes.Run']);
    expect(names('Box.Describe')).toEqual(['Lab.Box<T>.Describe<U>']);
    expect(names('Nope.Add')).toEqual([]);
    const measure = lab.findMethods('MeasureAsync')[0]!;
    expect(lab.methodName(lab.firstStatement(measure)!.methodToken)).toBe('Lab.Shapes.MeasureAsync');
  });

  it('reads the async stepping information of an async method', () => {
    const b = bind(lab, shapes, 'after-await');
    const info = lab.asyncInfo(b.targets[0]!.methodToken)!;
    expect(info.awaits).toHaveLength(2);
    for (const a of info.awaits) expect(a.resumeOffset).toBeGreaterThan(a.yieldOffset);
    // It leaves from its closing brace (where it completes its task), not from its `return`.
    const ret = b.targets[0]!.methodToken;
    const returnAt = lab.statementIn(ret, shapes.path, shapes.line('async-return'));
    const braceAt = lab.statementIn(ret, shapes.path, shapes.line('async-return') + 1);
    if (!returnAt.ok || !braceAt.ok) throw new Error('no statement at the return or the closing brace');
    expect(lab.isLastStatement(ret, returnAt.ilOffset)).toBe(false);
    expect(lab.isLastStatement(ret, braceAt.ilOffset)).toBe(true);
  });

  it('marks compiler stubs and methods without source as not the user code', () => {
    const nonUser = new Set(lab.nonUserMethodTokens());
    const stub = lab.findMethods('<Main>');
    expect(stub).toEqual([]); // generated names are never function-breakpoint targets
    const loop = lab.findMethods('Loop')[0]!;
    expect(nonUser.has(loop.token)).toBe(false);
    const kickoff = lab.findMethods('MeasureAsync')[0]!;
    expect(nonUser.has(kickoff.token)).toBe(true);
  });

  it('reads a PDB embedded in the image', () => {
    const pricing = fixtureSource('lablib', 'Pricing.cs');
    expect(bind(lib, pricing, 'lib-tax').methods).toEqual(['Lab.Library.Pricing.WithTax']);
    // Read from the file in parts (a method's body on demand), the image is the one read whole.
    const [parts, whole] = [readPeFile(libPath), readPeImage(readFileSync(libPath))];
    expect(parts.metadata?.equals(whole.metadata!) && parts.embeddedPdb?.equals(whole.embeddedPdb!)).toBe(true);
    const { rva } = lib.metadata.method(tokenRid(lib.findMethods('WithTax')[0]!.token));
    expect(parts.at(rva, 12)?.toString('hex')).toBe(whole.at(rva, 12)?.toString('hex'));
  });
});

function readColumn(file: string, line: number, text: string): number {
  const source = readFileSync(file, 'utf8').split('\n')[line - 1]!;
  return source.indexOf(text) + 1;
}
