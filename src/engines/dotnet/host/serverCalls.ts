/**
 * The host's own requests to the server (hostProtocol.ts ServerApi): what only the server has, its
 * one .NET worker shared by every session. Each is bounded in time; an answer that comes later is
 * dropped (the worker has done the work and is warm for the next request).
 */
import { DebugError, type ErrorCode } from '../../../core/errors.js';
import type { HostMessage, ServerAnswer, ServerApi, ServerMethod } from '../hostProtocol.js';

type Send = (message: HostMessage) => void;

let send: Send | undefined;
let nextCall = 1;
const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

/** Connects the requests to the IPC channel (hostMain.ts). */
export function connectServer(sender: Send): void {
  send = sender;
}

export function serverAnswered({ answer, result, error }: ServerAnswer): void {
  const waiter = pending.get(answer);
  if (!waiter) return;
  pending.delete(answer);
  clearTimeout(waiter.timer);
  if (error) waiter.reject(new DebugError(error.code as ErrorCode, error.message, error.hint));
  else waiter.resolve(result);
}

export function askServer<M extends ServerMethod>(method: M, args: Parameters<ServerApi[M]>, timeoutMs: number, late: string): Promise<Awaited<ReturnType<ServerApi[M]>>> {
  if (!send) return Promise.reject(new DebugError('INVALID_STATE', `the debugger host is not connected to a server (${method})`));
  const call = nextCall++;
  const sender = send;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(call);
      reject(new DebugError('TIMEOUT', late, 'Try again in a few seconds: the work goes on meanwhile.'));
    }, timeoutMs);
    timer.unref();
    pending.set(call, { resolve: resolve as (value: unknown) => void, reject, timer });
    sender({ call, method, args });
  });
}
