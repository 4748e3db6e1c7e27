/**
 * Marks the locals of a stop that changed since the same function was last seen stopped: what a
 * step or a loop iteration did, without the agent diffing two answers.
 */
import type { StopFrame, ValueSummary } from './sessionTypes.js';

/** Functions remembered; the one seen longest ago is forgotten first. */
const FUNCTIONS_KEPT = 32;

interface Seen {
  current: Map<string, string>;
  /** The locals at the stop before the current one in this function. */
  before?: Map<string, string>;
}

export class LocalChanges {
  private readonly seen = new Map<string, Seen>();

  /**
   * `locals` with `previous` set on those whose value differs from the stop before in this
   * function. `newStop`: the program stopped anew (else the same stop is read again, e.g. after a
   * value was set, and compares with the same stop before).
   */
  mark(frame: StopFrame, locals: ValueSummary[], newStop: boolean): ValueSummary[] {
    const key = `${frame.file ?? ''}\0${frame.name}`;
    const entry = this.seen.get(key);
    const before = newStop ? entry?.current : entry?.before;
    this.seen.delete(key);
    this.seen.set(key, { current: new Map(locals.map((l) => [l.name, l.value])), before });
    if (this.seen.size > FUNCTIONS_KEPT) this.seen.delete(this.seen.keys().next().value!);
    return locals.map((l) => {
      const old = before?.get(l.name);
      return old !== undefined && old !== l.value ? { ...l, previous: old } : l;
    });
  }

  reset(): void {
    this.seen.clear();
  }
}
