/**
 * A debugpy adapter process with its DAP client, asked to `initialize` the moment it is spawned:
 * the answer arrives while the caller still prepares its launch.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { DapClient } from '../../dap/dapClient.js';
import { AdapterProcess, type AdapterOptions } from './adapterProcess.js';
import { INITIALIZE_ARGUMENTS } from './debugpyArguments.js';

export const REQUEST_TIMEOUT_MS = 30_000;

export interface AdapterConnection {
  process: AdapterProcess;
  client: DapClient;
  /** The answer to `initialize`. */
  capabilities: Promise<DebugProtocol.Capabilities | undefined>;
}

export function startAdapter(executable: string, options: AdapterOptions): AdapterConnection {
  const process = new AdapterProcess(executable, options);
  const client = new DapClient(process.transport, { timeoutMs: REQUEST_TIMEOUT_MS });
  const capabilities = client.request('initialize', INITIALIZE_ARGUMENTS);
  // Awaited by the launch that uses this adapter; until then a failure must not go unhandled.
  capabilities.catch(() => {});
  return { process, client, capabilities };
}
