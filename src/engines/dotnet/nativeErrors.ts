/** Turns a failure of the native addon into the DebugError the agent reads, with the next step. */
import { DebugError, type ErrorCode } from '../../core/errors.js';
import { NativeError } from './addon.js';

const CORDBG_E_TIMEOUT = 0x80131c08;

interface Mapping {
  code: ErrorCode;
  hint?: string;
}

const byNativeCode: Record<string, Mapping> = {
  SEMAPHORES_UNAVAILABLE: {
    code: 'LAUNCH_FAILED',
    hint: 'The .NET startup handshake uses POSIX named semaphores: mount a writable /dev/shm (e.g. docker run --shm-size or --ipc=host).',
  },
  ALREADY_DEBUGGED: { code: 'ATTACH_FAILED', hint: 'Another debugger is attached to this process; detach it first.' },
  EXITED_BEFORE_RUNTIME: {
    code: 'DEBUGGING_DISABLED',
    hint: 'The program ended without offering the debugger a connection: check that it is a .NET program and that DOTNET_EnableDiagnostics is not 0 (also in runtimeconfig.json); see session_output for what it printed.',
  },
  RUNTIME_STARTUP_TIMEOUT: {
    code: 'TIMEOUT',
    hint: 'The runtime did not signal its start: debugging may be disabled (DOTNET_EnableDiagnostics=0) or the program is not a .NET program.',
  },
  TRANSPORT_NOT_FOUND: {
    code: 'DEBUGGING_DISABLED',
    hint: 'Make sure the target runs without DOTNET_EnableDiagnostics=0 and with the same TMPDIR as debugbridge.',
  },
  RUNTIME_NOT_FOUND: { code: 'ATTACH_FAILED', hint: 'Attach to a .NET (CoreCLR) process you own; check the pid.' },
  NO_PROCESS: { code: 'ATTACH_FAILED', hint: 'Check the pid (session_list / ps).' },
  DBI_LOAD_FAILED: { code: 'ENGINE_UNAVAILABLE', hint: 'The runtime folder lacks a usable libmscordbi; reinstall the .NET runtime, or set DBGSHIM_PATH to a libdbgshim.' },
  DBGSHIM_LOAD_FAILED: { code: 'ENGINE_UNAVAILABLE', hint: 'Fix or unset DBGSHIM_PATH.' },
  DBGSHIM_REQUIRED: { code: 'ENGINE_UNAVAILABLE', hint: 'Install the NuGet package Microsoft.Diagnostics.DbgShim and set DBGSHIM_PATH to its native folder.' },
  CORDEBUG_CREATE_FAILED: { code: 'ATTACH_FAILED' },
  ATTACH_FAILED: { code: 'ATTACH_FAILED' },
  SPAWN_FAILED: { code: 'LAUNCH_FAILED' },
  NOT_RUNNING: { code: 'INVALID_STATE', hint: 'The program has exited; launch it again.' },
  NOT_ATTACHED: { code: 'INVALID_STATE' },
  CLOSED: { code: 'INVALID_STATE', hint: 'The session is over; start a new one.' },
  SETIP_REFUSED: { code: 'JUMP_REFUSED', hint: 'The program stays where it was. Pick another line (not into or out of a catch or finally block), or run forward with execution_run_to.' },
  NO_FRAME: { code: 'JUMP_REFUSED', hint: 'Step out into your code (execution_step out), then jump.' },
};

export function fromNative(e: unknown, fallback: ErrorCode = 'INTERNAL'): DebugError {
  if (e instanceof DebugError) return e;
  if (!(e instanceof NativeError)) return new DebugError(fallback, e instanceof Error ? e.message : String(e));
  const mapping = byNativeCode[e.code] ?? { code: fallback };
  const hr = e.hresult !== 0 && e.hresult !== 0x80004005 ? ` (HRESULT ${e.hresultHex})` : '';
  if ((e.hresult >>> 0) === CORDBG_E_TIMEOUT) {
    return new DebugError(
      'TIMEOUT',
      `${e.message}: the runtime did not answer in time${hr}`,
      'The debugger and the program must share TMPDIR and /dev/shm; check DOTNET_EnableDiagnostics.',
    );
  }
  return new DebugError(mapping.code, `${e.message}${hr}`, mapping.hint, { nativeCode: e.code });
}

/** Rejects with TIMEOUT when `promise` does not settle in time: no wait is unbounded. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DebugError('TIMEOUT', `${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
