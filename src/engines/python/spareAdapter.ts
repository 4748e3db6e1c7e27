/**
 * One debugpy adapter started ahead of the first launch (when `detect()` has found the
 * interpreter), so that launch skips the ~100 ms the adapter takes to start and answer
 * `initialize`. It waits without holding our process open, dies with us (its stdin closes), and
 * is not replaced once taken: at most one idle adapter, and only until the first Python launch.
 */
import { startAdapter, type AdapterConnection } from './adapterConnection.js';
import type { PythonInterpreter } from './interpreter.js';

const spares = new Map<string, AdapterConnection>();

export function prepareSpareAdapter(interpreter: PythonInterpreter): void {
  if (spares.has(interpreter.executable)) return;
  const spare = startAdapter(interpreter, { socketTuning: true });
  spare.process.holdEventLoop(false);
  spares.set(interpreter.executable, spare);
}

/** The spare for this interpreter if it is still usable; a launch then owns it. */
export function takeSpareAdapter(interpreter: PythonInterpreter): AdapterConnection | undefined {
  const spare = spares.get(interpreter.executable);
  if (!spare) return undefined;
  spares.delete(interpreter.executable);
  if (spare.client.closed || !spare.process.running) return undefined;
  spare.process.holdEventLoop(true);
  return spare;
}
