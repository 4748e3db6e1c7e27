/** When each step of a launch ended, in ms from its start: session_diagnostics shows them. */
export class LaunchSteps {
  private readonly startedAt = performance.now();
  readonly marks: Record<string, number> = {};

  /** The first time a step ends counts. */
  mark(step: string): void {
    this.marks[step] ??= Math.round((performance.now() - this.startedAt) * 10) / 10;
  }
}
