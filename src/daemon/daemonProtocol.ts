/**
 * What the shell daemon and its clients share besides MCP: two requests outside the tool set
 * (status, stop), the record the daemon leaves beside its socket, and a liveness probe. Nothing
 * here loads zod or the MCP SDK: a shell command must start fast.
 */
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import type { DaemonPaths } from './daemonPaths.js';

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

export interface DaemonRecord {
  pid: number;
  version: string;
  startedAt: number;
  socket: string;
}

export function readRecord(paths: DaemonPaths): DaemonRecord | undefined {
  try {
    return JSON.parse(readFileSync(paths.record, 'utf8')) as DaemonRecord;
  } catch {
    return undefined;
  }
}

/** Whether something accepts connections on the socket. */
export function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(socket);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
