/**
 * Work that waits for a quiet moment: a job runs once nothing has happened for a while and no work
 * is under way, so that it never takes the CPU a call needs. What counts as something happening is
 * the owner's to say: the client's calls (readying, server/callActivity.ts), the requests to debugpy
 * (Python's next ready debuggee), the requests to the .NET host while a first stop is read (the
 * compiler worker's prestart). Timers never hold the process open.
 */
export class QuietMoments {
  private underWay = 0;
  private lastActive = -Infinity;
  private soon = false;
  private readonly waiting = new Map<unknown, () => void>();
  private timer?: NodeJS.Timeout;

  /** `quietMs`: how long nothing must happen before the moment is quiet. */
  constructor(private readonly quietMs: number) {}

  /** Something happened: the quiet moment is `quietMs` from now. */
  touch(): void {
    this.lastActive = performance.now();
    this.schedule();
  }

  /** Work begins that no job may run beside (a call, a launch); call what it answers when it ends. */
  begin(): () => void {
    this.underWay++;
    this.soon = false;
    this.touch();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.underWay--;
      this.touch();
    };
  }

  /** Waiting jobs need not wait for the quiet moment: they run as soon as no work is under way. */
  runSoon(): void {
    this.soon = true;
    this.schedule();
  }

  isQuiet(): boolean {
    return this.underWay === 0 && performance.now() - this.lastActive >= this.quietMs;
  }

  /** Runs `job` once the moment is quiet (at once when it is); a later job of the same key replaces it. */
  whenQuiet(key: unknown, job: () => void): void {
    this.waiting.set(key, job);
    this.schedule();
  }

  /** Forgets a job that has not run. */
  cancel(key: unknown): void {
    this.waiting.delete(key);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.waiting.size || this.underWay) return;
    const left = this.quietMs - (performance.now() - this.lastActive);
    if (left <= 0 || this.soon) return this.runWaiting();
    this.timer = setTimeout(() => this.schedule(), left).unref();
  }

  private runWaiting(): void {
    this.soon = false;
    const jobs = [...this.waiting.values()];
    this.waiting.clear();
    for (const job of jobs) job();
  }
}
