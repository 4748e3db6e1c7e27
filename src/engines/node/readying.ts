/**
 * What Node.js readies ahead once it is in play (core/readiness.ts): no process; the answer of the
 * one probe a launch needs, then the engine's own code, so the first launch finds both (loading
 * the engine took 20–40 ms of a first launch's CPU, more under load). Kept apart from the engine
 * so the registry can start it while the server is still loading the rest.
 */
import { findRuntime } from './nodeRuntime.js';
import { probeParentDeathSignal } from '../../core/parentDeathSignal.js';

export async function prepare(): Promise<void> {
  await findRuntime();
  await probeParentDeathSignal();
  await import('./nodeEngine.js');
}
