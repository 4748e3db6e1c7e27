/**
 * What trace breakpoints recorded: at each hit, the values of their expressions, without stopping
 * the program. A trace keeps at most `maxHits` rows; then its breakpoint is disarmed.
 */
export const DEFAULT_TRACE_HITS = 100;
export const MAX_TRACE_HITS = 10_000;
/** Characters of one recorded value. */
export const TRACE_VALUE_CHARS = 200;

/**
 * A trace column as the agent gives it: an expression evaluated in the hit's frame, or `frameIndex`
 * frames up (counting frames with source only, so 1 is the caller whatever runtime code lies
 * between); `$CALLER` records the calling function and line.
 */
export type TraceItem = string | { expression: string; frameIndex?: number };

/** A trace column as engines evaluate it. */
export interface TraceColumn {
  expression: string;
  /** Frames with source up from the hit's own frame (0). */
  frameIndex: number;
}

/** The pseudo-expression that records the caller (name and line), as Visual Studio's tracepoints name it. */
export const CALLER = '$CALLER';

export function traceColumns(items: TraceItem[]): TraceColumn[] {
  return items.map((item) => (typeof item === 'string' ? { expression: item, frameIndex: 0 } : { expression: item.expression, frameIndex: item.frameIndex ?? 0 }));
}

/** A column's header: the expression, and the frame when it is not the hit's own. */
export function columnLabel(column: TraceColumn): string {
  return column.frameIndex ? `${column.expression} (frame ${column.frameIndex})` : column.expression;
}

/** The frame a column reads: `$CALLER` names frame 1. */
export function columnFrame(column: TraceColumn): number {
  return column.expression === CALLER ? Math.max(1, column.frameIndex) : column.frameIndex;
}

/** A frame's name and place as the caller column records it. */
export function callerText(frame: { name: string; file?: string; line: number } | undefined): string {
  if (!frame) return '(no caller with source)';
  return `${frame.name} (${frame.file ? frame.file.split(/[\\/]/).pop() : '?'}:${frame.line})`;
}

export interface TraceValue {
  value?: string;
  type?: string;
  /** The evaluation failed: `value` is the error's message. */
  error?: boolean;
}

export interface TraceRow {
  hit: number;
  threadId: number;
  values: TraceValue[];
}

export interface Trace {
  breakpointId: number;
  /** The columns' headers. */
  expressions: string[];
  maxHits: number;
  rows: TraceRow[];
}

export class TraceLog {
  private readonly traces = new Map<number, Trace>();

  /** (Re)starts the trace of a breakpoint: a new set of expressions is a new table. */
  arm(breakpointId: number, columns: TraceColumn[], maxHits = DEFAULT_TRACE_HITS): void {
    this.traces.set(breakpointId, { breakpointId, expressions: columns.map(columnLabel), maxHits, rows: [] });
  }

  get(breakpointId: number): Trace | undefined {
    return this.traces.get(breakpointId);
  }

  /** Records a hit; answers whether the trace is now full (its breakpoint should be disarmed). */
  record(breakpointId: number, threadId: number, values: TraceValue[]): { recorded: boolean; full: boolean } {
    const trace = this.traces.get(breakpointId);
    if (!trace || trace.rows.length >= trace.maxHits) return { recorded: false, full: true };
    trace.rows.push({ hit: trace.rows.length + 1, threadId, values });
    return { recorded: true, full: trace.rows.length >= trace.maxHits };
  }

  isFull(breakpointId: number): boolean {
    const trace = this.traces.get(breakpointId);
    return !!trace && trace.rows.length >= trace.maxHits;
  }

  forget(breakpointId: number): void {
    this.traces.delete(breakpointId);
  }

  /** A new run: every table starts empty again. */
  reset(): void {
    for (const t of this.traces.values()) t.rows = [];
  }
}
