/**
 * What Python readies ahead once it is in play (core/readiness.ts): the first ready debuggee and a
 * spare debugpy adapter. Kept apart from the engine so the registry can start it with a few small
 * modules while the server is still loading the rest (on two cores, both go on at once).
 */
import { isAbsolute } from 'node:path';
import { findInterpreter, interpreterCandidates } from './interpreter.js';
import { hurryReadyDebuggee, prepareFirstReadyDebuggee } from './readyDebuggee.js';
import { whenQuiet } from './callsQuiet.js';
import { prepareSpareAdapter } from './spareAdapter.js';

/** `wanted`: a launch already waits for it, so it starts now and at our priority (that launch takes it). */
export async function prepare({ wanted = false }: { wanted?: boolean } = {}): Promise<void> {
  const lowPriority = !wanted;
  // A single candidate leaves no choice: its processes start beside the probe that confirms it.
  const candidates = interpreterCandidates({});
  const early = candidates.length === 1 && isAbsolute(candidates[0]) ? candidates[0] : undefined;
  const target = (executable: string) => ({ executable, env: {}, justMyCode: true, socketTuning: true });
  const first = early ? prepareFirstReadyDebuggee(target(early), lowPriority) : undefined;
  const interpreter = await findInterpreter({});
  let ready = first;
  // A launch with no extra variables starts from it, whatever its working folder.
  if (first?.target.executable !== interpreter.executable) {
    // The candidate is a link or a shim: a launch names the interpreter it leads to.
    if (first?.waiting) await first.discard();
    ready = prepareFirstReadyDebuggee(target(interpreter.executable), lowPriority);
  }
  // The spare (for a launch that the ready debuggee cannot take: other variables, stopOnEntry) comes
  // after the ready debuggee, which a first launch is likelier to wait for: started together, they
  // shared the core the server's loading leaves, and each took twice as long; and once the calls
  // pause (a launch that took the ready debuggee goes on without competition). Not awaited: what is
  // readied holds nothing open, and a process that awaited it could not end.
  const spare = () => whenQuiet('spare adapter', () => prepareSpareAdapter({}, interpreter.executable, true));
  if (ready) void ready.ready.then(spare, spare);
  else spare();
}

/** A launch came while it was prepared at low priority: it takes that debuggee, so ours from now on. */
export function hurry(): void {
  hurryReadyDebuggee();
}
