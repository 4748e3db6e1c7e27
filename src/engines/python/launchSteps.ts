/** When each step of a launch ended, in ms from its start: session_diagnostics shows them. */
export class LaunchSteps {
  private readonly startedAt = performance.now();
  readonly marks: Record<string, number> = {};

  /** The first time a step ends counts; `at` (performance.now()) for one that ended elsewhere, before the launch too (negative). */
  mark(step: string, at = performance.now()): void {
    this.marks[step] ??= Math.round((at - this.startedAt) * 10) / 10;
  }
}
