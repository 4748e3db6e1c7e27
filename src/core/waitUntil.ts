/**
 * One way to wait for a condition on changing state: re-checked on every change notification,
 * ended by a timeout or an aborted request, with a progress report every second meanwhile.
 */
export type WaitOutcome<T> = { kind: 'met'; value: T } | { kind: 'timeout' } | { kind: 'cancelled' };

export interface ChangeSource {
  subscribe(listener: () => void): () => void;
}

export function waitUntil<T>(
  source: ChangeSource,
  condition: () => T | undefined,
  options: { timeoutMs: number; signal?: AbortSignal; onTick?: (elapsedMs: number) => void },
): Promise<WaitOutcome<T>> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    let unsubscribe = () => {};
    const finish = (outcome: WaitOutcome<T>) => {
      clearTimeout(timer);
      clearInterval(ticker);
      unsubscribe();
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const check = () => {
      const value = condition();
      if (value !== undefined) finish({ kind: 'met', value });
    };
    const onAbort = () => finish({ kind: 'cancelled' });
    const timer = setTimeout(() => finish({ kind: 'timeout' }), options.timeoutMs);
    const ticker = setInterval(() => options.onTick?.(Date.now() - t0), 1000);
    if (options.signal?.aborted) return finish({ kind: 'cancelled' });
    unsubscribe = source.subscribe(check);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    check();
  });
}
