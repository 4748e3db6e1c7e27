/** The engine harness for Python fixtures (`# BP:name` markers). */
import { engine as pythonEngine } from '../../src/engines/python/index.js';
import { engineHarness } from '../support/engineHarness.js';

export { breakpointAt, launchConfig, lineOf, processAlive, Recorder, type Run } from '../support/engineHarness.js';
export const { fixturesDir, fixture, createRun, disposeAll } = engineHarness(pythonEngine, 'python');

export async function pythonAvailable(): Promise<boolean> {
  return (await pythonEngine.detect()).available;
}
