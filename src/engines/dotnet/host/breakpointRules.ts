/**
 * What a user breakpoint does when the program reaches it, decided here in the debugger host with no
 * round trip to the server: its condition (a C# expression) must hold, its hit condition must accept
 * the hit count, a logpoint prints its message (`{expr}` holes evaluated) and a trace records its
 * expressions' values instead of stopping.
 */
import { DebugError } from '../../../core/errors.js';
import { parseHitCondition } from '../../../core/hitCondition.js';
import { capText } from '../../../core/valueText.js';
import { CALLER, callerText, columnFrame, TRACE_VALUE_CHARS, type TraceColumn, type TraceValue } from '../../../core/traceLog.js';
import type { BreakpointSpec, FunctionBreakpointSpec } from '../../../core/types.js';
import type { BreakpointBook } from './breakpointBook.js';
import { sideEffectRefusal } from './evaluation/sideEffects.js';
import { assignedBy, refusedByInterpreter } from './evaluation/unsupported.js';
import { askServer } from './serverCalls.js';
import type { Inspection } from './inspection.js';
import type { Native } from './nativeSession.js';
import type { FrameHandle, StackReader, UserFrame } from './stackReader.js';

type Spec = BreakpointSpec | FunctionBreakpointSpec;

export interface HitDecision {
  /** The breakpoints that stop the program (empty: it runs on). */
  stop: number[];
  /** Why, when a condition could not be evaluated. */
  description?: string;
  /** Logpoint lines to print. */
  logs: string[];
  /** Trace breakpoints hit, with their expressions' values. */
  traces: { id: number; values: TraceValue[] }[];
}

/** Hits the host decides before it gives up compiling a breakpoint's conditions for the debugger thread. */
const FILTER_ATTEMPTS = 3;

export class BreakpointRules {
  /** Native breakpoints whose conditions the debugger thread decides (hitFilter.ts). */
  private readonly filtered = new Set<number>();
  private readonly filterAttempts = new Map<number, number>();
  /** Conditions evaluated here, in JavaScript (the hits no filter decided). */
  private evaluated = 0;

  constructor(
    private readonly book: BreakpointBook,
    private readonly inspection: Inspection,
    private readonly native: () => Native | undefined,
    private readonly stack: StackReader,
  ) {}

  /** Throws INVALID_ARGUMENT for a hit condition or an expression that cannot be parsed. */
  validate(spec: Spec): void {
    if (spec.hitCondition?.trim()) parseHitCondition(spec.hitCondition);
    const traced = 'trace' in spec ? (spec.trace ?? []).filter((c) => c.expression !== CALLER).map((c) => c.expression) : [];
    const expressions = [spec.condition, ...('logMessage' in spec && spec.logMessage ? holes(spec.logMessage) : []), ...traced];
    for (const expression of expressions) {
      if (!expression?.trim()) continue;
      try {
        this.inspection.parse(expression);
      } catch (e) {
        // Valid C# the evaluator does not run is compiled at the first hit (Roslyn's errors then):
        // the server's worker starts now, so that hit does not wait for Roslyn to load.
        if (refusedByInterpreter(e) && assignedBy(e) !== undefined) {
          throw new DebugError('INVALID_ARGUMENT', `breakpoint #${spec.id}: ${expression}: ${sideEffectRefusal(`it assigns ${assignedBy(e) ?? 'a value'}`).message}`, 'A condition or a logpoint only reads the program: set values with inspect_set_variable or inspect_evaluate.');
        }
        if (refusedByInterpreter(e)) {
          void askServer('warmCompiler', [], 120_000, 'the worker is warming').catch(() => undefined);
          continue;
        }
        throw new DebugError('INVALID_ARGUMENT', `breakpoint #${spec.id}: ${expression}: ${(e as Error).message}`, 'Write the condition as a C# expression.');
      }
    }
  }

  /** Whether deciding needs the frame (a condition or a logpoint): reading it costs a stack walk. */
  needsFrame(ids: number[]): boolean {
    return ids.some((id) => {
      const spec = this.book.spec(id);
      return !!spec && (!!spec.condition?.trim() || ('logMessage' in spec && spec.logMessage !== undefined) || ('trace' in spec && !!spec.trace?.length));
    });
  }

  async decide(ids: number[], frame: FrameHandle | undefined, threadId: number): Promise<HitDecision> {
    const decision: HitDecision = { stop: [], logs: [], traces: [] };
    for (const id of ids) {
      const spec = this.book.spec(id);
      if (!spec) continue;
      if (spec.condition?.trim()) {
        const held = await this.holds(spec.condition, frame).catch((e: unknown) => e as Error);
        if (held instanceof Error) {
          decision.stop.push(id);
          decision.description = `The condition of breakpoint #${id} (${spec.condition}) could not be evaluated: ${held.message}`;
          continue;
        }
        if (!held) continue;
      }
      const count = this.book.countHit(id);
      if (spec.hitCondition?.trim() && !parseHitCondition(spec.hitCondition)(count)) continue;
      if ('logMessage' in spec && spec.logMessage !== undefined) {
        decision.logs.push(await this.message(spec.logMessage, frame));
        continue;
      }
      if ('trace' in spec && spec.trace?.length) {
        decision.traces.push({ id, values: await this.values(spec.trace, frame, threadId) });
        continue;
      }
      decision.stop.push(id);
    }
    return decision;
  }

  /**
   * After the host decided a hit of a native breakpoint whose owners (`ids`, all of them) each have a
   * condition: their compiled form goes to the debugger thread, so the hits where every condition is
   * false end there, without reaching JavaScript. True when a filter was installed now.
   */
  async learn(nativeId: number, ids: number[], frame: FrameHandle | undefined): Promise<boolean> {
    const native = this.native();
    const attempts = this.filterAttempts.get(nativeId) ?? 0;
    if (!native || !frame || this.filtered.has(nativeId) || attempts >= FILTER_ATTEMPTS) return false;
    const conditions = ids.map((id) => this.book.spec(id)?.condition?.trim() ?? '');
    if (conditions.some((c) => !c)) return false;
    try {
      const program = await this.inspection.compileConditions(conditions, frame);
      if (!program) throw new Error('the conditions do not fit a hit filter');
      await native.call('setHitFilter', { id: nativeId, program });
      this.filtered.add(nativeId);
      return true;
    } catch {
      this.filterAttempts.set(nativeId, attempts + 1); // the host keeps deciding these hits itself
      return false;
    }
  }

  /** For session_diagnostics: breakpoints whose conditions the debugger thread decides, and the conditions evaluated here. */
  stats(): { filters: number; evaluatedInHost: number } {
    return { filters: this.filtered.size, evaluatedInHost: this.evaluated };
  }

  /** The owners of a native breakpoint changed: its filter may no longer say what they ask. */
  async forget(nativeId: number): Promise<void> {
    this.filterAttempts.delete(nativeId);
    if (this.filtered.delete(nativeId)) await this.native()?.call('setHitFilter', { id: nativeId, program: [] });
  }

  private async holds(condition: string, frame: FrameHandle | undefined): Promise<boolean> {
    if (!frame) throw new Error('the breakpoint is in code without symbols');
    this.evaluated++;
    const { value } = await this.inspection.evaluateValue(condition, frame);
    if (value.kind !== 'value' || value.value.type !== 'bool') throw new Error('the condition is not a bool');
    return value.value.value;
  }

  /** A trace's columns, each in its frame: the hit's own, or a caller (frames with source counted; read only when a column names one). */
  private async values(columns: TraceColumn[], frame: FrameHandle | undefined, threadId: number): Promise<TraceValue[]> {
    const deepest = Math.max(0, ...columns.map(columnFrame));
    const callers: (UserFrame | undefined)[] = deepest ? await this.stack.framesWithSource(threadId, deepest + 1).catch(() => []) : [];
    const values: TraceValue[] = [];
    for (const column of columns) {
      const index = columnFrame(column);
      try {
        if (column.expression === CALLER) {
          const caller = callers[index];
          values.push({ value: callerText(caller && { name: caller.name, file: caller.location.file, line: caller.location.line }) });
          continue;
        }
        const at = index === 0 ? frame : callers[index]?.handle;
        if (!at) throw new Error(index === 0 ? 'the breakpoint is in code without symbols' : `no frame ${index} with source (the hit's stack has ${callers.length})`);
        const { value, text } = await this.inspection.evaluateValue(column.expression, at);
        values.push({ value: capText(text, TRACE_VALUE_CHARS), type: value.kind === 'value' ? value.value.type : undefined });
      } catch (e) {
        values.push({ value: capText((e as Error).message, TRACE_VALUE_CHARS), error: true });
      }
    }
    return values;
  }

  /** `{expr}` holes evaluated; a hole that fails shows its error in angle brackets. */
  private async message(template: string, frame: FrameHandle | undefined): Promise<string> {
    const parts = template.split(/(\{[^{}]+\})/);
    let out = '';
    for (const part of parts) {
      if (!/^\{[^{}]+\}$/.test(part)) {
        out += part;
        continue;
      }
      try {
        if (!frame) throw new Error('no frame');
        const { text } = await this.inspection.evaluateValue(part.slice(1, -1), frame);
        out += text.replace(/^"(.*)"$/s, '$1');
      } catch (e) {
        out += `<${(e as Error).message}>`;
      }
    }
    return out;
  }
}

function holes(message: string): string[] {
  return [...message.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
}
