/**
 * Which debugpy breakpoint is which session breakpoint, and where each one is bound, so stops
 * and `breakpoint` events can speak in session ids.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { BreakpointBinding } from '../../core/types.js';
import { canonicalPath } from './paths.js';

interface Bound {
  sessionId: number;
  /** Line breakpoints: the canonical file; function breakpoints: the function name. */
  file?: string;
  functionName?: string;
  line?: number;
  /** The condition debugpy decides at each hit (a condition that raised stops too: stopReader.ts says so). */
  condition?: string;
  /** Stops at every hit its condition allows: not a logpoint, not counted by a hit condition. */
  stopsAtEachHit?: boolean;
}

type StopSpec = { id: number; condition?: string; hitCondition?: string; logMessage?: string };

export class BreakpointIds {
  private readonly byDapId = new Map<number, Bound>();
  private readonly lineBreakpoints = new Map<string, Bound[]>();
  private functionBreakpoints: Bound[] = [];

  /** Records the adapter's answer for one file's breakpoints; returns the bindings, same order. */
  replaceFile(file: string, specs: StopSpec[], answers: DebugProtocol.Breakpoint[]): BreakpointBinding[] {
    const key = canonicalPath(file);
    for (const old of this.lineBreakpoints.get(key) ?? []) this.forget(old);
    const bound = specs.map((spec, i) => this.remember(answers[i], { sessionId: spec.id, file: key, ...stopping(spec) }));
    this.lineBreakpoints.set(key, bound);
    return specs.map((spec, i) => toBinding(spec.id, answers[i], file));
  }

  replaceFunctions(specs: (StopSpec & { function: string })[], answers: DebugProtocol.Breakpoint[]): BreakpointBinding[] {
    for (const old of this.functionBreakpoints) this.forget(old);
    this.functionBreakpoints = specs.map((spec, i) => this.remember(answers[i], { sessionId: spec.id, functionName: spec.function, ...stopping(spec) }));
    return specs.map((spec, i) => toBinding(spec.id, answers[i]));
  }

  /** A `breakpoint` event from the adapter, as a session binding (undefined if not ours). */
  changed(answer: DebugProtocol.Breakpoint): BreakpointBinding | undefined {
    const bound = answer.id === undefined ? undefined : this.byDapId.get(answer.id);
    if (!bound) return undefined;
    if (answer.line !== undefined) bound.line = answer.line;
    return toBinding(bound.sessionId, answer, answer.source?.path);
  }

  sessionIdsOf(dapIds: number[]): number[] {
    return dapIds.flatMap((id) => {
      const bound = this.byDapId.get(id);
      return bound ? [bound.sessionId] : [];
    });
  }

  /** Session ids of the breakpoints bound where a thread stopped (debugpy names none itself). */
  sessionIdsAt(file: string | undefined, line: number, functionName: string): number[] {
    return this.boundAt(file, line, functionName).map((b) => b.sessionId);
  }

  /** The breakpoints here that stop at each hit, with their conditions. */
  stoppingAt(file: string | undefined, line: number, functionName: string): { id: number; condition?: string }[] {
    return this.boundAt(file, line, functionName)
      .filter((b) => b.stopsAtEachHit)
      .map((b) => ({ id: b.sessionId, condition: b.condition }));
  }

  private boundAt(file: string | undefined, line: number, functionName: string): Bound[] {
    const atLine = file ? (this.lineBreakpoints.get(canonicalPath(file)) ?? []).filter((b) => b.line === line) : [];
    const atFunction = this.functionBreakpoints.filter((b) => b.functionName === functionName || functionName.endsWith(`.${b.functionName}`));
    return [...atLine, ...atFunction];
  }

  /** The conditions of these session breakpoints, where they have one. */
  conditionsOf(sessionIds: number[]): { id: number; condition: string }[] {
    const all = [...[...this.lineBreakpoints.values()].flat(), ...this.functionBreakpoints];
    return sessionIds.flatMap((id) => {
      const condition = all.find((b) => b.sessionId === id)?.condition;
      return condition ? [{ id, condition }] : [];
    });
  }

  private remember(answer: DebugProtocol.Breakpoint | undefined, bound: Bound): Bound {
    bound.line = answer?.line;
    if (answer?.id !== undefined) this.byDapId.set(answer.id, bound);
    return bound;
  }

  private forget(bound: Bound): void {
    for (const [dapId, b] of this.byDapId) if (b === bound) this.byDapId.delete(dapId);
  }
}

function stopping(spec: StopSpec): Pick<Bound, 'condition' | 'stopsAtEachHit'> {
  return { condition: spec.condition?.trim() || undefined, stopsAtEachHit: !spec.logMessage && !spec.hitCondition };
}

function toBinding(id: number, answer: DebugProtocol.Breakpoint | undefined, file?: string): BreakpointBinding {
  if (!answer) return { id, verified: false, message: 'the adapter did not answer for this breakpoint' };
  return {
    id,
    verified: answer.verified,
    line: answer.line,
    column: answer.column,
    file: answer.source?.path ?? file,
    message: answer.message,
  };
}
