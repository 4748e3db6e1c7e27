/**
 * Marks the locals of a stop that changed since the stop before in the same activation of the same
 * frame: what a step or a loop iteration did, without the agent diffing two answers. A new call of
 * the function has nothing to compare with, as in Visual Studio.
 *
 * No runtime names an activation across stops (debugpy's and V8's frame ids live for one stop; a
 * loop's next call reuses the same stack addresses), so one is told by what cannot change while it
 * lives: its thread, the function, the callers above it and the lines they call from (the stack
 * depth with them), and the values of its nearest caller, which waits at the call meanwhile. A loop
 * in the caller that calls the function again changes the caller's values, so the new call starts
 * afresh.
 */
import { isExternal } from './frameFolding.js';
import type { ValueSummary } from './sessionTypes.js';
import type { FrameInfo } from './types.js';

/** Activations remembered; the one seen longest ago is forgotten first. */
const ACTIVATIONS_KEPT = 32;

/** Where an activation is: its thread, its function and each caller's place (frames with source, async callers included). */
export function activationKey(threadId: number, frames: FrameInfo[], top: number): string {
  const callers = frames.slice(top + 1).filter((f) => !isExternal(f) && f.presentationHint !== 'label');
  const own = frames[top];
  return [threadId, `${own?.file ?? ''}:${own?.name ?? ''}`, ...callers.map((f) => `${f.file}:${f.name}:${f.line}`)].join('\0');
}

/** The nearest caller whose values can be read (with source, not an async caller): its values tell a new call from the same one. */
export function nearestCaller(frames: FrameInfo[], top: number): FrameInfo | undefined {
  return frames.slice(top + 1).find((f) => !isExternal(f) && f.presentationHint !== 'label' && !f.async);
}

interface Seen {
  current: Map<string, string>;
  /** The locals at the stop before the current one in this activation. */
  before?: Map<string, string>;
  /** The nearest caller's values when this activation was last seen ('' where there is none). */
  caller: string;
}

export class LocalChanges {
  private readonly seen = new Map<string, Seen>();

  /**
   * `locals` with `previous` set on those whose value differs from the stop before in this
   * activation. `newStop`: the program stopped anew (else the same stop is read again, e.g. after a
   * value was set, and compares with the same stop before); `caller`: the nearest caller's values.
   */
  mark(activation: string, caller: string, locals: ValueSummary[], newStop: boolean): ValueSummary[] {
    const entry = this.seen.get(activation);
    const same = entry && (!newStop || entry.caller === caller);
    const before = !same ? undefined : newStop ? entry.current : entry.before;
    this.seen.delete(activation);
    this.seen.set(activation, { current: new Map(locals.map((l) => [l.name, l.value])), before, caller: newStop || !entry ? caller : entry.caller });
    if (this.seen.size > ACTIVATIONS_KEPT) this.seen.delete(this.seen.keys().next().value!);
    return locals.map((l) => {
      const old = before?.get(l.name);
      return old !== undefined && old !== l.value ? { ...l, previous: old } : l;
    });
  }

  reset(): void {
    this.seen.clear();
  }
}
