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
  async detect(options?: Record<string, unknown>): Promise<Availability> {
    try {
      // The server detects in the background at start: the first launch then finds an adapter running.
      prepareSpareAdapter(options ?? {});
      const interpreter = await findInterpreter(options);
      prepareSpareAdapter(options ?? {}, interpreter.executable);
      // A launch with the server's working folder and no extra variables starts from it.
      prepareFirstReadyDebuggee({ executable: interpreter.executable, env: {}, justMyCode: true, socketTuning: true });
      return {
        available: true,
        version: `Python ${interpreter.pythonVersion}, debugpy ${interpreter.debugpyVersion}`,
        detail: interpreter.executable,
      };
    } catch (e) {
      return { available: false, reason: (e as Error).message, install: INSTALL_DEBUGPY };
    }
  },
  create: (context) => new PythonEngine(context),
};
