/**
 * What Python readies ahead once it is in play (core/readiness.ts): a spare debugpy adapter and the
 * first ready debuggee. Kept apart from the engine so the registry can start it with a few small
 * modules while the server is still loading the rest (on two cores, both go on at once).
 */
import { findInterpreter } from './interpreter.js';
import { prepareFirstReadyDebuggee } from './readyDebuggee.js';
import { prepareSpareAdapter } from './spareAdapter.js';

export async function prepare(): Promise<void> {
  const interpreter = await findInterpreter({});
  // For a launch that the ready debuggee cannot take (other variables, stopOnEntry).
  prepareSpareAdapter({}, interpreter.executable, true);
  // A launch with no extra variables starts from it, whatever its working folder.
  prepareFirstReadyDebuggee({ executable: interpreter.executable, env: {}, justMyCode: true, socketTuning: true });
}
