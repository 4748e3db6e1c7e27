/**
 * Watch expressions of a session: evaluated in the top frame at every stop, each value compared
 * with the one it had at the stop before, so a stop answer can mark what changed (`12.5 → 15.0`).
 */
import type { Engine } from './engine.js';
import { DebugError, toDebugError } from './errors.js';
import { capText } from './valueText.js';

/** Characters of one watch value in a stop answer. */
export const WATCH_VALUE_CHARS = 200;
/** Watches one session keeps: every stop evaluates them all. */
export const MAX_WATCHES = 20;

export interface WatchValue {
  id: number;
  expression: string;
  /** The value now; an evaluation error's message when `error`. */
  value?: string;
  type?: string;
  error?: boolean;
  /** The value at the stop before, set only when it differs. */
  previous?: string;
}

interface Watch {
  id: number;
  expression: string;
  /** Value at the last stop evaluated, and at the stop before it. */
  current?: string;
  atPreviousStop?: string;
}

export class WatchList {
  private readonly watches: Watch[] = [];
  private nextId = 1;

  constructor(expressions: string[] = []) {
    this.add(expressions);
  }

  /** Adds expressions (an expression already watched is kept once); answers the watches added. */
  add(expressions: string[]): { id: number; expression: string }[] {
    const fresh = [...new Set(expressions.map((e) => e.trim()).filter(Boolean))].filter((e) => !this.watches.some((w) => w.expression === e));
    if (this.watches.length + fresh.length > MAX_WATCHES) {
      throw new DebugError('INVALID_ARGUMENT', `A session keeps at most ${MAX_WATCHES} watches (${this.watches.length} now).`, 'watch_remove some first.');
    }
    for (const expression of fresh) this.watches.push({ id: this.nextId++, expression });
    return this.list();
  }

  /** Removes by id or expression, or all; answers what was removed. */
  remove(select: { ids?: number[]; expressions?: string[]; all?: boolean }): { id: number; expression: string }[] {
    const victims = this.watches.filter((w) => select.all || select.ids?.includes(w.id) || select.expressions?.includes(w.expression));
    if (!victims.length) throw new DebugError('WATCH_NOT_FOUND', 'No watch matches.', 'watch_list shows the watches and their ids.');
    for (const v of victims) this.watches.splice(this.watches.indexOf(v), 1);
    return victims.map(({ id, expression }) => ({ id, expression }));
  }

  list(): { id: number; expression: string }[] {
    return this.watches.map(({ id, expression }) => ({ id, expression }));
  }

  get size(): number {
    return this.watches.length;
  }

  /**
   * Evaluates every watch in `frameId`. `newStop`: the program stopped anew, so the values of the
   * last stop become the ones to compare with; otherwise (a value was set, a watch added) the stop
   * is the same and keeps comparing with the stop before.
   */
  async evaluate(engine: Engine, frameId: number | undefined, newStop: boolean): Promise<WatchValue[]> {
    const out: WatchValue[] = [];
    for (const w of this.watches) {
      if (newStop) w.atPreviousStop = w.current;
      let answer: WatchValue;
      try {
        const r = await engine.evaluate(w.expression, frameId, 'watch');
        answer = { id: w.id, expression: w.expression, value: capText(r.value, WATCH_VALUE_CHARS), type: r.type };
      } catch (e) {
        answer = { id: w.id, expression: w.expression, value: capText(toDebugError(e).message, WATCH_VALUE_CHARS), error: true };
      }
      w.current = answer.error ? undefined : answer.value;
      if (w.atPreviousStop !== undefined && w.current !== undefined && w.atPreviousStop !== w.current) answer.previous = w.atPreviousStop;
      out.push(answer);
    }
    return out;
  }

  /** A new run starts: nothing to compare with. */
  reset(): void {
    for (const w of this.watches) w.current = w.atPreviousStop = undefined;
  }
}
