/**
 * The session's side of trace breakpoints: a breakpoint set with trace expressions arms its trace;
 * a stop at trace breakpoints alone is no stop for the agent (the top frame's values are recorded
 * and the program runs on); a full trace disarms its breakpoint, so the program runs at full speed
 * again. Engines that record traces themselves send only the values (`record`).
 */
import type { BreakpointRecord, BreakpointRegistry } from './breakpointRegistry.js';
import type { Engine } from './engine.js';
import { toDebugError } from './errors.js';
import { isExternal } from './frameFolding.js';
import { CALLER, callerText, columnFrame, TRACE_VALUE_CHARS, traceColumns, type TraceColumn, type TraceLog, type TraceValue } from './traceLog.js';
import type { FrameInfo } from './types.js';
import { capText } from './valueText.js';

/** Frames read for a column that names a caller: the frames with source among them are counted. */
const CALLER_FRAMES = 64;

export interface TraceLinks {
  engine(): Engine;
  /** Sends a file's breakpoints to the runtime again while the run is active (a full trace's is left out). */
  resendFile(file: string): Promise<unknown> | undefined;
  warn(message: string): void;
}

export class TraceRecorder {
  constructor(
    private readonly traces: TraceLog,
    private readonly breakpoints: BreakpointRegistry,
    private readonly links: TraceLinks,
  ) {}

  /** A breakpoint was set: with trace expressions it starts a new table, without it has none. */
  arm(record: BreakpointRecord): void {
    if (record.trace?.length) this.traces.arm(record.id, traceColumns(record.trace), record.maxHits);
    else this.traces.forget(record.id);
  }

  onlyTraces(ids: number[] | undefined): boolean {
    return !!ids?.length && ids.every((id) => !!this.breakpoints.get(id)?.trace?.length);
  }

  async traceAndResume(threadId: number, ids: number[]): Promise<void> {
    const engine = this.links.engine();
    try {
      const columns = ids.map((id) => traceColumns(this.breakpoints.get(id)?.trace ?? []));
      const deepest = Math.max(0, ...columns.flat().map(columnFrame));
      const { frames } = await engine.stackTrace(threadId, 0, deepest ? CALLER_FRAMES : 1);
      const counted = framesWithSource(frames);
      for (const [i, id] of ids.entries()) this.record(id, threadId, await evaluateTrace(engine, counted, columns[i]));
    } catch (e) {
      this.links.warn(`trace at ${ids.map((id) => `#${id}`).join(', ')} not recorded: ${(e as Error).message}`);
    } finally {
      await engine.continue(threadId).catch((e: unknown) => this.links.warn(`could not resume after a trace hit: ${(e as Error).message}`));
    }
  }

  record(id: number, threadId: number, values: TraceValue[]): void {
    const { recorded, full } = this.traces.record(id, threadId, values);
    if (recorded) this.breakpoints.countHits([id]);
    const record = this.breakpoints.get(id);
    if (!full || !record || record.traceDone) return;
    record.traceDone = true;
    if (record.file) void this.links.resendFile(record.file)?.catch((e: unknown) => this.links.warn(`could not disarm trace #${id}: ${(e as Error).message}`));
  }
}

/** The frames a column's frameIndex counts: the hit's own, then the callers with source (runtime code between is not counted). */
function framesWithSource(frames: FrameInfo[]): FrameInfo[] {
  return frames.filter((f, i) => i === 0 || (!isExternal(f) && f.presentationHint !== 'label'));
}

/** Evaluates a trace's columns, each in its frame; a failing one records its error instead. */
async function evaluateTrace(engine: Engine, frames: FrameInfo[], columns: TraceColumn[]): Promise<TraceValue[]> {
  const values: TraceValue[] = [];
  for (const column of columns) {
    const frame = frames[columnFrame(column)];
    try {
      if (column.expression === CALLER) {
        values.push({ value: callerText(frame) });
        continue;
      }
      if (!frame) throw new Error(`no frame ${column.frameIndex} with source (the hit's stack has ${frames.length})`);
      if (frame.async) throw new Error(`frame ${column.frameIndex} (${frame.name}) awaits: an async caller keeps no values`);
      const r = await engine.evaluate(column.expression, frame.id, 'watch');
      values.push({ value: capText(r.value, TRACE_VALUE_CHARS), type: r.type });
    } catch (e) {
      values.push({ value: capText(toDebugError(e).message, TRACE_VALUE_CHARS), error: true });
    }
  }
  return values;
}
