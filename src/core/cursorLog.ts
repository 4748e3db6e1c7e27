/**
 * A bounded, append-only log read through cursors. Each entry gets a sequence number; a reader
 * keeps the cursor of the last entry it saw and asks for what came since. Old entries fall off
 * the front; a reader whose cursor is older learns how many it missed.
 */
import { waitUntil } from './waitUntil.js';

export interface CursorEntry<T> {
  seq: number;
  at: number;
  value: T;
}

export interface CursorSlice<T> {
  entries: CursorEntry<T>[];
  /** Pass this back to read what comes next. */
  cursor: number;
  /** Entries that fell off the log before this reader saw them. */
  dropped: number;
}

export interface CursorLogLimits<T> {
  /** The size of an entry (e.g. its characters), for a cap on the total size as well as the count. */
  weigh(value: T): number;
  maxWeight: number;
}

export class CursorLog<T> {
  private readonly entries: CursorEntry<T>[] = [];
  private nextSeq = 1;
  private weight = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly capacity: number,
    private readonly limits?: CursorLogLimits<T>,
  ) {}

  append(value: T): CursorEntry<T> {
    const entry = { seq: this.nextSeq++, at: Date.now(), value };
    this.entries.push(entry);
    this.weight += this.weigh(value);
    this.shrink(this.capacity, this.limits?.maxWeight ?? Number.POSITIVE_INFINITY);
    for (const wake of [...this.waiters]) wake();
    return entry;
  }

  /** Keeps only the newest `count` entries (and `maxWeight` of them): a log that will not grow any more. */
  retain(count: number, maxWeight = Number.POSITIVE_INFINITY): void {
    this.shrink(count, maxWeight);
  }

  /** Drops the oldest entries past `count` or `maxWeight`; the newest stays even when it alone is over the weight. */
  private shrink(count: number, maxWeight: number): void {
    let drop = 0;
    while (drop < this.entries.length - 1 && (this.entries.length - drop > count || this.weight > maxWeight)) this.weight -= this.weigh(this.entries[drop++].value);
    if (drop) this.entries.splice(0, drop);
  }

  private weigh(value: T): number {
    return this.limits?.weigh(value) ?? 0;
  }

  /** The cursor that means "everything so far". */
  get head(): number {
    return this.nextSeq - 1;
  }

  since(cursor = 0, limit = Number.POSITIVE_INFINITY): CursorSlice<T> {
    const first = this.entries[0]?.seq ?? this.nextSeq;
    const dropped = Math.max(0, first - cursor - 1);
    const fresh = this.entries.filter((e) => e.seq > cursor);
    const entries = fresh.slice(0, limit);
    const cursorOut = entries.length ? entries[entries.length - 1].seq : Math.max(cursor, first - 1);
    return { entries, cursor: cursorOut, dropped };
  }

  last(n: number): CursorEntry<T>[] {
    return this.entries.slice(-n);
  }

  subscribe(listener: () => void): () => void {
    this.waiters.add(listener);
    return () => this.waiters.delete(listener);
  }

  /** Resolves true when an entry newer than `cursor` exists; false after `timeoutMs` or on abort. */
  async waitBeyond(cursor: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const outcome = await waitUntil(this, () => (this.head > cursor ? true : undefined), { timeoutMs, signal });
    return outcome.kind === 'met';
  }
}
