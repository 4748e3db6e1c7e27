/**
 * The wait after a pause. A runtime that stops a thread only when it runs code (debugpy) never stops
 * one that waits on a lock: when no stop comes within a grace period and the engine reads the
 * threads' stacks without one, the answer is `blocked` with the hang report instead of a timeout.
 */
import type { HangReport } from './hangReport.js';
import type { WaitResult } from './sessionTypes.js';
import type { SessionStateName } from './types.js';

/** How long a pause waits for a thread to stop before it reads where the threads wait instead. */
const PAUSE_GRACE_MS = 1500;

/** The session as a pause sees it once the engine was asked to pause. */
export interface PausedRun {
  /** Waits up to `timeoutMs` for a stop that came after the pause. */
  waitForStop(timeoutMs: number): Promise<WaitResult>;
  /** A thread stopped since the pause. */
  stopped(): boolean;
  hangReport(): Promise<HangReport>;
  state(): SessionStateName;
}

export async function waitForPause(run: PausedRun, timeoutMs: number): Promise<WaitResult> {
  const first = await run.waitForStop(Math.min(timeoutMs, PAUSE_GRACE_MS));
  if (first.status !== 'timeout' || first.error || timeoutMs <= PAUSE_GRACE_MS) return first;
  const hang = await run.hangReport().catch(() => undefined);
  // A thread may have stopped while the stacks were read: then that stop is the answer.
  if (run.stopped() || !hang || hang.threads.every((t) => t.error)) return run.waitForStop(timeoutMs - first.waitedMs);
  return { status: 'blocked', state: run.state(), waitedMs: first.waitedMs, hang };
}
