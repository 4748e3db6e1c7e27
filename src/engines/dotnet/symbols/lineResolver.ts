/**
 * Where a line breakpoint binds, from the sequence points of one document: the statement that starts
 * on the line (the leftmost, or the one under `column`), else the statement spanning it, else the
 * next statement of the innermost method that holds the line. Every method with a statement at the
 * chosen position gets the breakpoint (a field initializer runs in each constructor).
 */
import type { SequencePoint } from './portablePdb.js';

export interface MethodPoints {
  methodToken: number;
  /** Visible (non-hidden) points of this document, in IL order. */
  points: SequencePoint[];
}

export interface CodeTarget {
  methodToken: number;
  ilOffset: number;
}

export type LineResolution =
  | { ok: true; line: number; column: number; endLine: number; endColumn: number; targets: CodeTarget[] }
  | { ok: false; message: string };

interface Candidate {
  methodToken: number;
  point: SequencePoint;
}

const spanSize = (p: SequencePoint) => (p.endLine - p.startLine) * 10_000 + (p.endColumn - p.startColumn);
const contains = (p: SequencePoint, line: number) => p.startLine <= line && line <= p.endLine;
const coversColumn = (p: SequencePoint, line: number, column: number) =>
  contains(p, line) && (line > p.startLine || column >= p.startColumn) && (line < p.endLine || column <= p.endColumn);
const before = (a: SequencePoint, b: SequencePoint) => a.startLine - b.startLine || a.startColumn - b.startColumn;

export function resolveLine(methods: MethodPoints[], line: number, column?: number): LineResolution {
  const all: Candidate[] = methods.flatMap((m) => m.points.map((point) => ({ methodToken: m.methodToken, point })));
  if (all.length === 0) return { ok: false, message: 'this file has no code compiled into the loaded modules' };
  const chosen = chooseStatement(all, methods, line, column);
  if (!chosen) {
    const last = all.reduce((a, b) => (b.point.endLine > a.point.endLine ? b : a));
    return { ok: false, message: `no code at or after line ${line} (the last line with code is ${last.point.endLine})` };
  }
  const targets = new Map<number, number>();
  for (const c of all) {
    if (c.point.startLine !== chosen.startLine || c.point.startColumn !== chosen.startColumn) continue;
    const known = targets.get(c.methodToken);
    if (known === undefined || c.point.ilOffset < known) targets.set(c.methodToken, c.point.ilOffset);
  }
  return {
    ok: true,
    line: chosen.startLine,
    column: chosen.startColumn,
    endLine: chosen.endLine,
    endColumn: chosen.endColumn,
    targets: [...targets].map(([methodToken, ilOffset]) => ({ methodToken, ilOffset })),
  };
}

function chooseStatement(all: Candidate[], methods: MethodPoints[], line: number, column?: number): SequencePoint | undefined {
  const spanning = all.filter((c) => contains(c.point, line)).map((c) => c.point);
  if (column !== undefined) {
    const under = spanning.filter((p) => coversColumn(p, line, column)).sort((a, b) => spanSize(a) - spanSize(b));
    if (under[0]) return under[0];
  }
  const starting = spanning.filter((p) => p.startLine === line).sort((a, b) => a.startColumn - b.startColumn);
  if (column !== undefined) {
    const atOrAfter = starting.find((p) => p.startColumn >= column);
    if (atOrAfter) return atOrAfter;
  }
  if (starting[0]) return starting[0];
  if (spanning.length > 0) return spanning.sort((a, b) => spanSize(a) - spanSize(b))[0];
  return nextStatement(all, methods, line);
}

/** The first statement after `line` in the innermost method holding it, else in the whole file. */
function nextStatement(all: Candidate[], methods: MethodPoints[], line: number): SequencePoint | undefined {
  const holders = methods
    .filter((m) => m.points.length > 0)
    .map((m) => ({ m, first: Math.min(...m.points.map((p) => p.startLine)), last: Math.max(...m.points.map((p) => p.endLine)) }))
    .filter((r) => r.first <= line && line <= r.last)
    .sort((a, b) => a.last - a.first - (b.last - b.first));
  const pool = holders[0] ? holders[0].m.points : all.map((c) => c.point);
  return pool.filter((p) => p.startLine > line).sort(before)[0];
}
