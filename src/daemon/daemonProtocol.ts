/**
 * What the shell daemon and its clients share besides MCP: two requests outside the tool set
 * (status, stop) and a liveness probe. Nothing
 * here loads zod or the MCP SDK: a shell command must start fast.
 */
import { createConnection } from 'node:net';

export const DEFAULT_IDLE_MS = 30 * 60 * 1000;

/** MCP requests outside the tool set, on a shell command's connection; both answer a DaemonStatus. */
export const STATUS_METHOD = 'debugbridge/daemonStatus';
export const STOP_METHOD = 'debugbridge/daemonStop';

// A type, not an interface: it is also the MCP result object, which has an index signature.
export type DaemonStatus = {
  pid: number;
  version: string;
  startedAt: number;
  socket: string;
  sessions: number;
  activeSessions: number;
  idleShutdownMs: number;
};

/** Connects and hangs up: undefined when something accepted, else why not (ENOENT: no socket; ECONNREFUSED: nobody listens on it). */
export function connectError(socket: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createConnection(socket);
    probe.once('connect', () => {
      probe.destroy();
      resolve(undefined);
    });
    probe.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}
