import type { EngineFactory } from '../../core/engine.js';
import type { Availability } from '../../core/types.js';
import { NODE_CAPABILITIES } from './capabilities.js';
import { NodeEngine } from './nodeEngine.js';
import { findRuntime, INSTALL_NODE } from './nodeRuntime.js';
import { prepare } from './readying.js';

export const engine: EngineFactory = {
  language: 'node',
  displayName: 'Node.js',
  extensions: ['.js', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'],
  capabilities: NODE_CAPABILITIES,
  options: ['runtimeExecutable', 'runtimeArgs', 'tsRunner', 'ackCarrier'],
  async detect(options?: Record<string, unknown>): Promise<Availability> {
    try {
      const runtime = await findRuntime(options);
      return { available: true, version: `Node.js ${runtime.version}`, detail: runtime.executable };
    } catch (e) {
      return { available: false, reason: (e as Error).message, install: INSTALL_NODE };
    }
  },
  prepare,
  create: (context) => new NodeEngine(context),
};
