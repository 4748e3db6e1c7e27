/**
 * One abort signal for a call: aborted by any of the given signals or when its time is up, and let
 * go afterwards. Node 20's AbortSignal.any and AbortSignal.timeout keep every combined signal — and
 * every listener an engine added to it, with whatever that closes over — until the sources abort
 * or the timer fires (nodejs/node#54614, #55351): one session's worth of memory per call.
 */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** Whether the time ran out (rather than a source aborting). */
  readonly timedOut: boolean;
  /** Unlinks from the sources and clears the timer; call when the call is over. */
  dispose(): void;
}

export function callSignal(sources: (AbortSignal | undefined)[], timeoutMs?: number): CallSignal {
  const controller = new AbortController();
  let timedOut = false;
  const linked = sources.filter((s): s is AbortSignal => s !== undefined);
  const abort = () => controller.abort();
  for (const source of linked) {
    if (source.aborted) controller.abort();
    else source.addEventListener('abort', abort, { once: true });
  }
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      for (const source of linked) source.removeEventListener('abort', abort);
    },
  };
}
