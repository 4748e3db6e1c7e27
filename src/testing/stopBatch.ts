/**
 * A test run's stops, judged in batches. debugpy reports every thread that stops at the same moment
 * as a stop of its own (a failing test while a thread pool's worker raises and catches), and one
 * continue resumes them all: a second continue, sent for a thread that already runs again, is
 * answered only at the program's next resume, so passing each stop on by itself left the run
 * hanging. So the stops that come while the program is stopped are judged together, before anything
 * runs on: any to show is shown and the program stays there; otherwise it is passed on once, or, where
 * a continue resumes one thread only (a Node worker), once per stopped thread.
 */
export interface BatchedStop {
  threadId: number;
}

export interface StopBatchHooks<E extends BatchedStop> {
  /** The stop to show for this one, or undefined to pass it on. */
  decide(event: E): Promise<E | undefined>;
  show(event: E): void;
  passOn(threadId: number): Promise<void>;
  /** A stop is shown and the program has not run on since: it stays where the user sees it. */
  stopShown(): boolean;
  /** One continue resumes every thread (debugpy, .NET) rather than only the one named (a Node target). */
  resumesAll(): boolean;
}

export class StopBatch<E extends BatchedStop> {
  private pending: E[] = [];
  private draining = false;

  constructor(private readonly hooks: StopBatchHooks<E>) {}

  add(event: E): void {
    this.pending.push(event);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length) {
        const passOn: number[] = [];
        let shown = false;
        // Stops that come while these are judged belong to the same stopped moment.
        for (let event = this.pending.shift(); event; event = this.pending.shift()) {
          const toShow = await this.hooks.decide(event);
          if (toShow) {
            this.hooks.show(toShow);
            shown = true;
          } else if (!passOn.includes(event.threadId)) {
            passOn.push(event.threadId);
          }
        }
        if (this.hooks.resumesAll()) {
          if (!shown && !this.hooks.stopShown() && passOn.length) await this.hooks.passOn(passOn[0]);
        } else {
          for (const threadId of passOn) await this.hooks.passOn(threadId);
        }
      }
    } finally {
      this.draining = false;
    }
  }
}
