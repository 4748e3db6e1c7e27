/**
 * The user's breakpoints of one session: what was asked (the record) plus what the runtime made of
 * it (the binding). `verified` comes from the binding alone; a breakpoint with no binding yet is
 * pending. Ids are never reused within a session.
 */
import { DebugError } from './errors.js';
import { hitConditionParts } from './hitCondition.js';
import { samePath } from './platformPaths.js';
import { traceColumns, type TraceItem } from './traceLog.js';
import type { BreakpointBinding, BreakpointSpec, FunctionBreakpointSpec } from './types.js';

export interface BreakpointRequest {
  file?: string;
  line?: number;
  column?: number;
  function?: string;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
  /** A trace breakpoint: these expressions are recorded at each hit and the program runs on. */
  trace?: TraceItem[];
  /** A trace keeps this many hits, then its breakpoint is disarmed. */
  maxHits?: number;
  /** false: kept, but not armed in the runtime. */
  enabled?: boolean;
}

export interface BreakpointRecord extends BreakpointRequest {
  id: number;
  kind: 'line' | 'function';
  binding?: BreakpointBinding;
  hits: number;
  /** Internal one-shot breakpoints (run to line) are hidden from listings and removed on stop. */
  temporary?: boolean;
  /** A trace that recorded its maxHits: no longer armed in the runtime. */
  traceDone?: boolean;
}

/** Which of the user's breakpoints a removal takes: by id, by file (and line), or all. */
export interface BreakpointSelection {
  id?: number;
  file?: string;
  line?: number;
  all?: boolean;
}

export type BreakpointStatus = 'verified' | 'pending' | 'unverified';

export function statusOf(record: BreakpointRecord): BreakpointStatus {
  if (!record.binding || record.binding.pending) return 'pending';
  return record.binding.verified ? 'verified' : 'unverified';
}

/**
 * The checks every breakpoint passes, however it was given (set, edited, or with a launch): a line
 * (file + line) or a function, never both; a trace on a line without a log message; maxHits with a trace.
 */
export function checkBreakpoint(request: BreakpointRequest): void {
  const line = request.file !== undefined || request.line !== undefined || request.column !== undefined;
  if (request.function !== undefined && line) {
    throw new DebugError('INVALID_ARGUMENT', 'A breakpoint is a line (file + line, column) or a function, not both.', 'Pass file + line, or function alone.');
  }
  if (request.function === undefined && (!request.file || !request.line)) {
    throw new DebugError('INVALID_ARGUMENT', 'A breakpoint needs file and line, or function.', 'Pass file + line (1-based), or function.');
  }
  if (request.trace?.length && (request.function !== undefined || request.logMessage !== undefined)) {
    throw new DebugError('INVALID_ARGUMENT', 'A trace goes on a line breakpoint without logMessage.', 'Pass file + line with trace, and no function or logMessage.');
  }
  if (request.hitCondition?.trim()) hitConditionParts(request.hitCondition);
  if (request.maxHits !== undefined && !request.trace?.length) {
    throw new DebugError('INVALID_ARGUMENT', 'maxHits is how many hits a trace records: it needs trace.', 'Pass trace with it; to stop only at some hits, pass hitCondition (e.g. ">= 5").');
  }
}

/** An edit's value that clears a field: an empty string or list. */
const cleared = (value: unknown) => value === '' || (Array.isArray(value) && value.length === 0);

export class BreakpointRegistry {
  private readonly records = new Map<number, BreakpointRecord>();
  private nextId = 1;

  constructor(initial: BreakpointRecord[] = []) {
    for (const r of initial) {
      this.records.set(r.id, { ...r, binding: undefined, hits: 0 });
      this.nextId = Math.max(this.nextId, r.id + 1);
    }
  }

  add(request: BreakpointRequest, temporary = false): BreakpointRecord {
    if (!temporary) checkBreakpoint(request);
    const record: BreakpointRecord = {
      ...request,
      ...(request.file ? { file: this.spelling(request.file) } : {}),
      id: this.nextId++,
      kind: request.function ? 'function' : 'line',
      hits: 0,
      temporary,
    };
    this.records.set(record.id, record);
    return record;
  }

  /** Setting a line breakpoint where the user has one (same line and column) updates that one (its trace starts again). */
  set(request: BreakpointRequest): BreakpointRecord {
    checkBreakpoint(request);
    const existing = request.file && request.line ? this.findAt(request.file, request.line, request.column) : undefined;
    if (!existing || existing.temporary) return this.add(request);
    Object.assign(existing, request, { file: existing.file, traceDone: undefined });
    return existing;
  }

  /**
   * Changes breakpoint `id` in place: each field given replaces the old one, an empty string or list
   * clears it. Answers the record and where it was before (a move sends both files again).
   */
  edit(id: number, changes: BreakpointRequest): { record: BreakpointRecord; before: BreakpointRecord } {
    const record = this.records.get(id);
    if (!record || record.temporary) {
      throw new DebugError('BREAKPOINT_NOT_FOUND', `No breakpoint #${id}.`, 'Call breakpoint_list for the ids; leave id out to set a new breakpoint.');
    }
    const merged: BreakpointRecord = { ...record };
    for (const [key, value] of Object.entries(changes) as [keyof BreakpointRequest, unknown][]) {
      if (value === undefined) continue;
      (merged as unknown as Record<string, unknown>)[key] = cleared(value) ? undefined : value;
    }
    if (merged.kind === 'function' ? changes.file !== undefined || changes.line !== undefined : changes.function !== undefined) {
      throw new DebugError('INVALID_ARGUMENT', `#${id} is a ${record.kind} breakpoint and stays one.`, 'Remove it and set the other kind anew.');
    }
    if (!merged.trace) merged.maxHits = undefined;
    checkBreakpoint(merged);
    const before = { ...record };
    const moved = merged.file !== record.file || merged.line !== record.line || merged.column !== record.column;
    Object.assign(record, merged, { traceDone: undefined }, moved ? { binding: undefined } : {});
    return { record, before };
  }

  /** The user's breakpoints the selection takes; none is an error that says how to find them. */
  selected(select: BreakpointSelection): BreakpointRecord[] {
    const chosen = this.all(false).filter((r) => {
      if (select.all) return true;
      if (select.id !== undefined) return r.id === select.id;
      if (select.file) return r.file !== undefined && samePath(r.file, select.file) && (select.line === undefined || r.line === select.line || r.binding?.line === select.line);
      return false;
    });
    if (chosen.length === 0) {
      const what = select.id !== undefined ? `#${select.id}` : select.file ? `${select.file}${select.line ? `:${select.line}` : ''}` : 'any';
      throw new DebugError('BREAKPOINT_NOT_FOUND', `No breakpoint matches ${what}.`, 'Call breakpoint_list to see the breakpoints and their ids.');
    }
    return chosen;
  }

  /** An existing line breakpoint at the same place (line, and column when either has one), so setting it twice updates instead of doubling. */
  findAt(file: string, line: number, column?: number): BreakpointRecord | undefined {
    return this.all().find((r) => r.kind === 'line' && r.file !== undefined && samePath(r.file, file) && (r.line === line || r.binding?.line === line) && r.column === column);
  }

  /** One spelling per file: where paths are case-insensitive, the first one given names the file. */
  private spelling(file: string): string {
    return this.all().find((r) => r.file !== undefined && samePath(r.file, file))?.file ?? file;
  }

  get(id: number): BreakpointRecord | undefined {
    return this.records.get(id);
  }

  remove(id: number): BreakpointRecord | undefined {
    const record = this.records.get(id);
    this.records.delete(id);
    return record;
  }

  all(includeTemporary = true): BreakpointRecord[] {
    return [...this.records.values()].filter((r) => includeTemporary || !r.temporary);
  }

  files(): string[] {
    return [...new Set(this.all().flatMap((r) => (r.kind === 'line' && r.file ? [r.file] : [])))];
  }

  lineSpecs(file?: string): BreakpointSpec[] {
    return this.all()
      .filter((r) => r.kind === 'line' && r.file && r.line && !r.traceDone && r.enabled !== false && (file === undefined || samePath(r.file, file)))
      .map((r) => ({
        id: r.id,
        file: r.file!,
        line: r.line!,
        column: r.column,
        condition: r.condition,
        hitCondition: r.hitCondition,
        logMessage: r.logMessage,
        trace: r.trace?.length ? traceColumns(r.trace) : undefined,
      }));
  }

  functionSpecs(): FunctionBreakpointSpec[] {
    return this.all()
      .filter((r) => r.kind === 'function' && r.enabled !== false)
      .map((r) => ({ id: r.id, function: r.function!, condition: r.condition, hitCondition: r.hitCondition }));
  }

  applyBinding(binding: BreakpointBinding): void {
    const record = this.records.get(binding.id);
    if (!record) return;
    // A binding replaces the last one (its message and pending state with it); an engine that
    // reports only what changed keeps the position it gave before.
    const { file, line, column } = record.binding ?? {};
    record.binding = { file, line, column, ...binding };
  }

  countHits(ids: number[]): void {
    for (const id of ids) {
      const record = this.records.get(id);
      if (record) record.hits++;
    }
  }

  /** Bindings belong to one run: a restart binds again. */
  resetBindings(): void {
    for (const r of this.records.values()) {
      r.binding = undefined;
      r.hits = 0;
      r.traceDone = undefined;
    }
  }
}
