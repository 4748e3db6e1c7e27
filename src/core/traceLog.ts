/**
 * What trace breakpoints recorded: at each hit, the values of their expressions, without stopping
 * the program. A trace keeps at most `maxHits` rows; then its breakpoint is disarmed.
 */
export const DEFAULT_TRACE_HITS = 100;
export const MAX_TRACE_HITS = 10_000;
/** Characters of one recorded value. */
export const TRACE_VALUE_CHARS = 200;

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
  expressions: string[];
  maxHits: number;
  rows: TraceRow[];
}

export class TraceLog {
  private readonly traces = new Map<number, Trace>();

  /** (Re)starts the trace of a breakpoint: a new set of expressions is a new table. */
  arm(breakpointId: number, expressions: string[], maxHits = DEFAULT_TRACE_HITS): void {
    this.traces.set(breakpointId, { breakpointId, expressions, maxHits, rows: [] });
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
