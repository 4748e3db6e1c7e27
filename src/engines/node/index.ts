import type { EngineFactory } from '../../core/engine.js';
import type { Availability } from '../../core/types.js';
import { NODE_CAPABILITIES } from './capabilities.js';
import { NodeEngine } from './nodeEngine.js';
import { findRuntime, INSTALL_NODE } from './nodeRuntime.js';
import { probeParentDeathSignal } from './parentDeathSignal.js';

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
  async prepare(): Promise<void> {
    // The first launch then finds it answered (detect has found the runtime already).
    await probeParentDeathSignal();
  },
  create: (context) => new NodeEngine(context),
};
