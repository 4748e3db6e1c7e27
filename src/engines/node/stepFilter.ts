/**
 * Steps in source-mapped code, as the person reads it: one TypeScript line can compile to several
 * statements, and compilers add code that maps to no line at all. A step that lands in such code,
 * or on the line it started from at the same depth, steps again (a bounded number of times).
 * Code without a map keeps V8's own steps.
 */
import type { StepKind } from '../../core/types.js';
import type { ScriptRegistry } from './scriptRegistry.js';
import type { CallFrame } from './valueHandles.js';

/** Where a step started, and how many times it has stepped again. */
export interface StepOrigin {
  kind: StepKind;
  file?: string;
  line: number;
  /** Whether that place is in an original source (through a map). */
  mapped: boolean;
  depth: number;
  count: number;
}

const MAX_EXTRA_STEPS = 40;

export async function stepAgain(origin: StepOrigin, callFrames: CallFrame[], scripts: ScriptRegistry): Promise<boolean> {
  const top = callFrames[0];
  if (!top || origin.count >= MAX_EXTRA_STEPS) return false;
  const script = scripts.get(top.location.scriptId);
  const map = await scripts.mapOf(script);
  if (!map?.sources.length) return false;
  const at = await scripts.location(top.location.scriptId, top.location.lineNumber, top.location.columnNumber ?? 0);
  if (!at.mapped) return true;
  return origin.mapped && origin.kind !== 'out' && at.file === origin.file && at.line === origin.line && callFrames.length === origin.depth;
}
