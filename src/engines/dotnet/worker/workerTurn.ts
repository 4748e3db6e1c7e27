/**
 * When a .NET session lets the server's worker (Roslyn) warm up: not while its launch runs to the
 * first stop and that stop is read (stack, scopes, locals: the stop's answer), which the worker's
 * start and warm-up slowed on two cores even at idle priority. From the launch until the first stop's
 * reads are over (no request to the host for a moment) or a bound, a warming worker gives way
 * (EncWorker.giveWay); then, at the first stop, the worker is prestarted.
 */
import { QuietMoments } from '../../../core/quietMoments.js';
import { EncWorker } from './encWorker.js';

/** No request to the host for this long after the first stop: its answer is built. */
const STOP_READ_QUIET_MS = 300;
/** A launch never holds the worker longer than this (a program that runs long before stopping). */
const GIVE_WAY_MAX_MS = 5_000;

export class WorkerTurn {
  private release?: () => void;
  private bound?: NodeJS.Timeout;
  private readonly reads = new QuietMoments(STOP_READ_QUIET_MS);
  private stopped = false;
  private over = false;

  /** `prestart`: what warms the worker once the first stop is read. */
  constructor(private readonly prestart: () => void) {}

  /** A launch begins. */
  launching(): void {
    this.release ??= EncWorker.shared().giveWay();
    this.bound ??= setTimeout(() => this.letGo(), GIVE_WAY_MAX_MS).unref();
  }

  /** The program stopped for the first time (later stops change nothing). */
  stopCame(): void {
    if (this.stopped || this.over) return;
    this.stopped = true;
    this.reads.touch();
    this.reads.whenQuiet('stop read', () => this.stopRead());
  }

  /** A request to the host: while the first stop is read, the quiet moment moves on. */
  request(): void {
    this.reads.touch();
  }

  /** The session ends: nothing waits any more. */
  end(): void {
    this.over = true;
    this.reads.cancel('stop read');
    this.letGo();
  }

  private stopRead(): void {
    this.over = true;
    this.letGo();
    this.prestart();
  }

  private letGo(): void {
    clearTimeout(this.bound);
    const release = this.release;
    this.release = () => undefined; // once per session
    release?.();
  }
}
