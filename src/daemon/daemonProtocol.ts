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
/** Where a shell command names its client: the `initialize` request's experimental capabilities. */
export const CLIENT_CAPABILITY = 'debugbridge/client';

/** A tool's whole input schema (examples included), for `debugbridge call <tool> --help`. */
export const INPUT_SCHEMA_METHOD = 'debugbridge/inputSchema';

// A type, not an interface: it is also the MCP result object, which has an index signature.
export type DaemonStatus = {
  pid: number;
  version: string;
  startedAt: number;
  socket: string;
  sessions: number;
  activeSessions: number;
  idleShutdownMs: number;
  /** The asking command's client. */
  client?: { key: string; tag: string };
  /** Every client's sessions, by whole id (`python-1@3fa2c1`): how one reaches another's on purpose. */
  clients?: { key: string; tag: string; sessions: { id: string; state: string; language: string; program: string }[] }[];
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
