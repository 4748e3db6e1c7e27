/**
 * When the Python sessions' work pauses. What a launch readies for the next one (the next ready
 * debuggee, a spare adapter) waits for that: a workflow's calls come back to back, and a preparation
 * started among them (a second Python, debugpy and pydevd starting up) takes the CPU they need. An
 * agent thinks for seconds between calls, and a program runs to its next stop: the preparation goes
 * then, at the lowest priority, or as soon as a session has ended (its workflow is over, and a
 * launch right after it finds the next debuggee under way).
 */

/** Past this without a request or a launch, the sessions are between calls. */
const QUIET_MS = 300;

let launching = 0;
let lastActive = -Infinity;
/** A session ended since the last launch began and the waiting jobs have not run since. */
let ended = false;
const waiting = new Map<string, () => void>();
let timer: NodeJS.Timeout | undefined;

/** A request went to debugpy, or a session ends. */
export function active(): void {
  lastActive = performance.now();
}

/** A launch, from its start to its answer: quiet never comes while one goes on. */
export async function launchUnderWay<T>(work: () => Promise<T>): Promise<T> {
  launching++;
  ended = false;
  active();
  try {
    return await work();
  } finally {
    launching--;
    active();
    schedule();
  }
}

/** A session ended: what waits for the quiet goes now (the next launch may come at once), or once the launch under way is answered. */
export function sessionEnded(): void {
  ended = true;
  schedule();
}

/** Runs `job` once the sessions are quiet (at once when they are); a later job of the same name replaces it. */
export function whenQuiet(name: string, job: () => void): void {
  waiting.set(name, job);
  schedule();
}

function schedule(): void {
  if (!waiting.size || launching) return;
  clearTimeout(timer);
  const left = QUIET_MS - (performance.now() - lastActive);
  if (left <= 0 || ended) return runWaiting();
  // Nothing waiting for it holds our process open.
  timer = setTimeout(schedule, left).unref();
}

function runWaiting(): void {
  ended = false;
  const jobs = [...waiting.values()];
  waiting.clear();
  for (const job of jobs) job();
}
