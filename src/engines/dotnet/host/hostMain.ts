/**
 * The .NET debugger host: a process of its own per debugging session that loads the native addon
 * and runs the debugger (DotnetDebugger). libmscordbi can crash its process when a debuggee dies at
 * the wrong moment (seen here: SIGSEGV on mscordbi's own thread after kill -9 early in a run); in
 * this process such a crash ends one session, never the server. Requests and events travel over the
 * IPC channel (hostProtocol.ts).
 */
import { isDebugError } from '../../../core/errors.js';
import { loadAddon, NativeError } from '../addon.js';
import type { HostError, HostMessage, HostRequest, ServerAnswer } from '../hostProtocol.js';
import { DotnetDebugger } from './dotnetDebugger.js';
import { connectServer, serverAnswered } from './serverCalls.js';

// The server went away (or is done with us): nothing may outlive it. Registered first, and checked
// again once loaded, since a server that exits while this process starts disconnects before then.
process.on('disconnect', () => process.exit(0));

function send(message: HostMessage): void {
  if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
}

function toHostError(e: unknown): HostError {
  if (isDebugError(e)) return { message: e.message, code: e.code, native: false, hint: e.hint };
  if (e instanceof NativeError) return { message: e.message, code: e.code, native: true, hresult: e.hresult };
  return { message: e instanceof Error ? e.message : String(e), code: 'INTERNAL', native: false };
}

/** Once the host has booted: the read (System.Private.CoreLib's metadata) takes tens of ms, which a launch
 * that comes meanwhile waits at most, and which a host that had not read it pays at its first stop. */
const READ_AHEAD_AFTER_MS = 200;

connectServer(send);
// A host is readied before its launch: the addon is loaded now, not while the launched program waits for its debugger.
try {
  loadAddon();
} catch {
  // The launch reports why (loadAddon remembers the failure).
}
const debuggerInstance = new DotnetDebugger((event) => send({ event }));
const readAhead = process.argv.slice(2);
if (readAhead.length > 0) setTimeout(() => debuggerInstance.readAhead(readAhead), READ_AHEAD_AFTER_MS).unref();

async function handle({ id, method, args }: HostRequest): Promise<void> {
  try {
    const call = debuggerInstance[method] as (...a: unknown[]) => Promise<unknown>;
    const result = await call.apply(debuggerInstance, args);
    send({ id, result: result ?? null });
  } catch (e) {
    send({ id, error: toHostError(e) });
  }
  if (method === 'close') process.disconnect();
}

process.on('message', (message: HostRequest | ServerAnswer) => {
  if ('answer' in message) serverAnswered(message);
  else void handle(message);
});
if (!process.connected) process.exit(0);
