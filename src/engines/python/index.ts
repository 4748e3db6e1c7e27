import type { EngineFactory } from '../../core/engine.js';
import type { Availability } from '../../core/types.js';
import { PYTHON_CAPABILITIES } from './capabilities.js';
import { findInterpreter, INSTALL_DEBUGPY } from './interpreter.js';
import { PythonEngine } from './pythonEngine.js';
import { prepareFirstReadyDebuggee } from './readyDebuggee.js';
import { prepareSpareAdapter } from './spareAdapter.js';

export const engine: EngineFactory = {
  language: 'python',
  displayName: 'Python (debugpy)',
  extensions: ['.py'],
  capabilities: PYTHON_CAPABILITIES,
  options: ['pythonPath', 'justMyCode', 'socketTuning'],
  async detect(options?: Record<string, unknown>): Promise<Availability> {
    try {
      const interpreter = await findInterpreter(options);
      return {
        available: true,
        version: `Python ${interpreter.pythonVersion}, debugpy ${interpreter.debugpyVersion}`,
        detail: interpreter.executable,
      };
    } catch (e) {
      return { available: false, reason: (e as Error).message, install: INSTALL_DEBUGPY };
    }
  },
  async prepare(): Promise<void> {
    const interpreter = await findInterpreter({});
    // For a launch that the ready debuggee cannot take (other variables, stopOnEntry).
    prepareSpareAdapter({}, interpreter.executable, true);
    // A launch with no extra variables starts from it, whatever its working folder.
    prepareFirstReadyDebuggee({ executable: interpreter.executable, env: {}, justMyCode: true, socketTuning: true });
  },
  create: (context) => new PythonEngine(context),
};
