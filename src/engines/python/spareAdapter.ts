/**
 * A debugpy adapter started ahead of the launch that will use it, so that the launch does not
 * wait the ~100 ms the adapter takes to start and answer `initialize`: the engine's `prepare` starts
 * one at low priority once Python is in play, and a launch with a single candidate interpreter
 * starts its own while the interpreter is still being probed. A spare waits without holding our
 * process open, dies with us (its stdin closes), and is not replaced once taken: at most one idle
 * adapter per interpreter choice.
 */
import { restorePriority, startAtLowPriority } from '../../core/processPriority.js';
import { startAdapter, type AdapterConnection } from './adapterConnection.js';
import { interpreterCandidates, interpreterKey } from './interpreter.js';

interface Spare {
  adapter: AdapterConnection;
  lowered: boolean;
}

const spares = new Map<string, Spare>();

/**
 * Starts the spare for these options unless there is one: with `executable` once discovery has
 * found it, else only when a single candidate leaves no choice. `lowPriority` for one readied ahead
 * of any launch: it gets our priority back when a launch takes it.
 */
export function prepareSpareAdapter(options: Record<string, unknown>, executable?: string, lowPriority = false): void {
  const key = interpreterKey(options);
  const present = spares.get(key);
  if (present && usable(present.adapter)) return;
  const candidates = interpreterCandidates(options);
  const chosen = executable ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (!chosen) return;
  const start = () => startAdapter(chosen, { socketTuning: true });
  const { started: adapter, lowered } = lowPriority ? startAtLowPriority(start) : { started: start(), lowered: false };
  adapter.process.holdEventLoop(false);
  spares.set(key, { adapter, lowered });
}

/** The spare for these options if it is still usable; the caller then owns it, at our priority. */
export function takeSpareAdapter(options: Record<string, unknown>): AdapterConnection | undefined {
  const key = interpreterKey(options);
  const spare = spares.get(key);
  if (!spare) return undefined;
  spares.delete(key);
  if (!usable(spare.adapter)) return undefined;
  const { adapter } = spare;
  if (spare.lowered && adapter.process.pid) restorePriority([adapter.process.pid, ...adapter.process.descendants()]);
  adapter.process.holdEventLoop(true);
  return adapter;
}

function usable(adapter: AdapterConnection): boolean {
  return !adapter.client.closed && adapter.process.running;
}
