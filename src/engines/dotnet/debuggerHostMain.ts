/**
 * The .NET debugger host: a process of its own per debugging session that loads the native addon
 * and runs ICorDebug. libmscordbi can crash its process when a debuggee dies at the wrong moment
 * (seen here: SIGSEGV on mscordbi's own thread after kill -9 early in a run); in this process such
 * a crash ends one session, never the server. Requests and events travel over the IPC channel.
 */
import { loadAddon, type NativeError, type NativeSession } from './addon.js';

/** The pipe the server listens on for the resume byte (see debuggerHost.ts). */
const RESUME_RELAY_FD = 3;

interface Request {
  id: number;
  method: keyof NativeSession;
  args: unknown[];
}

// The server went away (or is done with us): nothing may outlive it. Registered first, and checked
// again once loaded, since a server that exits while this process starts disconnects before then.
process.on('disconnect', () => process.exit(0));

const addon = loadAddon();
const session = new addon.Session((json) => process.send?.({ event: json }));

async function handle({ id, method, args }: Request): Promise<void> {
  try {
    const callArgs = method === 'attachAtStartup' ? [{ ...(args[0] as object), resumeFd: RESUME_RELAY_FD }] : args;
    const call = session[method] as (...a: unknown[]) => Promise<string>;
    const result = await call.apply(session, callArgs);
    process.send?.({ id, result });
  } catch (e) {
    const error = e as Partial<NativeError>;
    process.send?.({ id, error: { message: error.message ?? String(e), code: error.code ?? 'HOST_ERROR', hresult: error.hresult ?? 0 } });
  }
  if (method === 'close') process.disconnect();
}

process.on('message', (request: Request) => void handle(request));
if (!process.connected) process.exit(0);
