/**
 * When the Python sessions' work pauses. What a launch readies for the next one (the next ready
 * debuggee, a spare adapter) waits for that: a workflow's calls come back to back, and a preparation
 * started among them (a second Python, debugpy and pydevd starting up) takes the CPU they need. An
 * agent thinks for seconds between calls, and a program runs to its next stop: the preparation goes
 * then, at the lowest priority, or as soon as a session has ended (its workflow is over, and a
 * launch right after it finds the next debuggee under way).
 */
import { QuietMoments } from '../../core/quietMoments.js';

/** Past this without a request or a launch, the sessions are between calls. */
const QUIET_MS = 300;

const moments = new QuietMoments(QUIET_MS);

/** A request went to debugpy, or a session ends. */
export function active(): void {
  moments.touch();
}

/** A launch, from its start to its answer: quiet never comes while one goes on. */
export async function launchUnderWay<T>(work: () => Promise<T>): Promise<T> {
  const end = moments.begin();
  try {
    return await work();
  } finally {
    end();
  }
}

/** A session ended: what waits for the quiet goes now (the next launch may come at once), or once the launch under way is answered. */
export function sessionEnded(): void {
  moments.runSoon();
}

/** Runs `job` once the sessions are quiet (at once when they are); a later job of the same name replaces it. */
export function whenQuiet(name: string, job: () => void): void {
  moments.whenQuiet(name, job);
}
