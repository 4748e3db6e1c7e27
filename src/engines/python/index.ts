import type { EngineFactory } from '../../core/engine.js';
import type { Availability } from '../../core/types.js';
import { PYTHON_CAPABILITIES } from './capabilities.js';
import { findInterpreter, INSTALL_DEBUGPY } from './interpreter.js';
import { PythonEngine } from './pythonEngine.js';
import { prepare } from './readying.js';

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
  prepare,
  create: (context) => new PythonEngine(context),
};
