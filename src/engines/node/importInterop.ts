/**
 * tsx gives every dynamic `import()` of a module it compiles an interop step of its own, appended
 * after esbuild's output (`import("./late").then(…)`). A recompiled module gets the same step, read
 * from the module as it was loaded, so that an edit changes what the user changed and nothing else;
 * the map's columns after each insertion move with the text.
 */
import type { AnyNode } from 'acorn';
import { simple } from 'acorn-walk';
import { decodedMappings, TraceMap } from '@jridgewell/trace-mapping';
import { parseLeniently } from './functionLocator.js';
import type { Recompiled, SourceMapJson } from './tsRecompile.js';

export function withImportInterop(compiled: Recompiled, loaded: string): Recompiled {
  const step = interopStep(loaded);
  if (!step) return compiled;
  const program = parseLeniently(compiled.code);
  if (!program) return compiled;
  const at: number[] = [];
  simple(program, { ImportExpression: (node: AnyNode) => void at.push(node.end) });
  if (!at.length) return compiled;
  at.sort((a, b) => a - b);
  let code = '';
  let from = 0;
  for (const end of at) {
    code += compiled.code.slice(from, end) + step;
    from = end;
  }
  code += compiled.code.slice(from);
  return { code, map: shiftColumns(compiled.map as SourceMapJson, compiled.code, at, step.length) };
}

/** The text tsx put after the first dynamic import of the loaded module (`.then(…)`); undefined when it has none. */
function interopStep(loaded: string): string | undefined {
  if (!loaded.includes('import(')) return undefined;
  const program = parseLeniently(loaded);
  if (!program) return undefined;
  let step: string | undefined;
  simple(program, {
    CallExpression(node) {
      const callee = node.callee;
      if (step || callee.type !== 'MemberExpression' || callee.object.type !== 'ImportExpression') return;
      if (callee.property.type === 'Identifier' && callee.property.name === 'then') step = loaded.slice(callee.object.end, node.end);
    },
  });
  return step && !step.includes('\n') ? step : undefined;
}

/** Generated columns at or after each insertion point (offsets in `code`) move right by `width`. */
function shiftColumns(map: SourceMapJson, code: string, offsets: number[], width: number): SourceMapJson {
  const lines = decodedMappings(new TraceMap(map as ConstructorParameters<typeof TraceMap>[0])).map((segments) => segments.map((s) => [...s]));
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const shifts = new Map<number, number[]>();
  for (const offset of offsets) {
    let line = lineStarts.findIndex((start) => start > offset) - 1;
    if (line < 0) line = lineStarts.length - 1;
    shifts.set(line, [...(shifts.get(line) ?? []), offset - lineStarts[line]]);
  }
  for (const [line, columns] of shifts) {
    for (const segment of lines[line] ?? []) segment[0] += columns.filter((c) => c <= segment[0]).length * width;
  }
  return { ...map, mappings: lines };
}
