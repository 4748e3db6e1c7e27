/**
 * Why a .NET launch failed, in the words the agent can act on: the program that could not be
 * executed, or the program that ended during the start with its exit status and its last error lines.
 */
import { DebugError } from '../../core/errors.js';
import type { Debuggee } from './debuggee.js';
import { fromNative, withTimeout } from './nativeErrors.js';

export async function explainLaunchFailure(e: unknown, argv: string[], debuggee: Debuggee | undefined, stderrTail: string[]): Promise<DebugError> {
  const error = fromNative(e, 'LAUNCH_FAILED');
  const status = debuggee ? await withTimeout(debuggee.exited, 1_000, 'exit').catch(() => undefined) : undefined;
  if (status?.execErrno !== undefined && status.execErrno > 0) {
    return new DebugError('LAUNCH_FAILED', `cannot start ${argv[0]}: errno ${status.execErrno}`, 'Check that the program path is executable.');
  }
  if (status && (status.exitCode !== undefined || status.signal)) {
    const tail = stderrTail.slice(-5).join('\n');
    return new DebugError(
      error.code,
      `${error.message}; the program ended with ${status.signal ?? `exit code ${status.exitCode}`}${tail ? `:\n${tail}` : ''}`,
      error.hint,
      error.details,
    );
  }
  return error;
}
