/**
 * A debugpy adapter started ahead of the launch that will use it, so that the launch does not
 * wait the ~100 ms the adapter takes to start and answer `initialize`: `detect()` starts one (the
 * server detects in the background when it starts), and a launch with a single candidate
 * interpreter starts its own while the interpreter is still being probed. A spare waits without
 * holding our process open, dies with us (its stdin closes), and is not replaced once taken: at
 * most one idle adapter per interpreter choice.
 */
import { startAdapter, type AdapterConnection } from './adapterConnection.js';
import { interpreterCandidates, interpreterKey } from './interpreter.js';

const spares = new Map<string, AdapterConnection>();

/**
 * Starts the spare for these options unless there is one: with `executable` once discovery has
 * found it, else only when a single candidate leaves no choice.
 */
export function prepareSpareAdapter(options: Record<string, unknown>, executable?: string): void {
  const key = interpreterKey(options);
  if (spares.has(key)) return;
  const candidates = interpreterCandidates(options);
  const chosen = executable ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (!chosen) return;
  const spare = startAdapter(chosen, { socketTuning: true });
  spare.process.holdEventLoop(false);
  spares.set(key, spare);
}

/** The spare for these options if it is still usable; the caller then owns it. */
export function takeSpareAdapter(options: Record<string, unknown>): AdapterConnection | undefined {
  const key = interpreterKey(options);
  const spare = spares.get(key);
  if (!spare) return undefined;
  spares.delete(key);
  if (spare.client.closed || !spare.process.running) return undefined;
  spare.process.holdEventLoop(true);
  return spare;
}
