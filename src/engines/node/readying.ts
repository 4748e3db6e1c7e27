/**
 * What Node.js readies ahead once it is in play (core/readiness.ts): no process, only the answer
 * of the one probe a launch needs, so the first launch finds it. Kept apart from the engine so the
 * registry can start it while the server is still loading the rest.
 */
import { findRuntime } from './nodeRuntime.js';
import { probeParentDeathSignal } from './parentDeathSignal.js';

export async function prepare(): Promise<void> {
  await findRuntime();
  await probeParentDeathSignal();
}
