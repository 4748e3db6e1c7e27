/**
 * What the debugger host asks of the server: C# expressions compiled by the server's Roslyn worker
 * (one worker for every session; its first start loads Roslyn).
 */
import { DebugError } from '../../core/errors.js';
import type { ServeHost } from './debuggerHost.js';
import { findDotnet } from './runtimeEnv.js';
import { EncWorker } from './worker/encWorker.js';
import type { CompileRequest } from './worker/evalProtocol.js';

/** The worker compiles an expression once it runs (its first start loads Roslyn): the host stops waiting sooner. */
const COMPILE_TIMEOUT_MS = 120_000;

/** `dotnet`: the SDK the launch found, if it found one. */
export function serveHost(dotnet: () => string | undefined): ServeHost {
  return async (method, args) => {
    const sdk = dotnet() ?? findDotnet();
    if (!sdk) throw new DebugError('ENGINE_UNAVAILABLE', 'compiling this C# expression needs the .NET SDK (dotnet) to build the Roslyn worker', 'Install the .NET SDK, or evaluate the parts the expression is made of.');
    switch (method) {
      case 'compile':
        return EncWorker.shared().compile(sdk, args[0] as CompileRequest, COMPILE_TIMEOUT_MS) as never;
      case 'warmCompiler':
        return EncWorker.shared().warm(sdk) as never;
    }
  };
}
