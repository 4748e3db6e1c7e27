/** ms from the start of a run to its milestones (session_diagnostics shows them). */
export type RunMilestone = 'startMs' | 'firstStopMs' | 'firstStopBuiltMs';

export class RunTimings {
  private startedAt = 0;
  /** The launch answered, the first stop came, its details were read. */
  marks: Partial<Record<RunMilestone, number>> = {};

  /** A new run starts now: nothing of it measured yet. */
  start(): void {
    this.startedAt = performance.now();
    this.marks = {};
  }

  mark(milestone: RunMilestone): void {
    this.marks[milestone] = Math.round(performance.now() - this.startedAt);
  }
}
