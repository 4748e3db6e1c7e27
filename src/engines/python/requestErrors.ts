/** A failed DAP request as the typed error the agent reads. */
import { DebugError, type ErrorCode } from '../../core/errors.js';
import { DapRequestError } from '../../dap/dapRequestError.js';
import { pythonErrorLine } from './dapValues.js';

const EVALUATION_HINT = 'Use a Python expression over names visible in the frame (inspect_variables lists them).';

/** `rejectedCode` when debugpy said no; TIMEOUT / ADAPTER_FAILED when it did not answer. */
export function requestError(e: unknown, rejectedCode: ErrorCode, hint?: string): DebugError {
  if (e instanceof DebugError) return e;
  if (e instanceof DapRequestError) {
    if (e.failure === 'timeout') return new DebugError('TIMEOUT', `debugpy did not answer: ${e.message}.`, 'Check session_diagnostics; the program may be blocked in native code.');
    if (e.failure === 'closed') return new DebugError('ADAPTER_FAILED', e.message, hint);
    return new DebugError(rejectedCode, e.message, hint);
  }
  return new DebugError(rejectedCode, e instanceof Error ? e.message : String(e), hint);
}

/** Python's verdict (`NameError: name 'x' is not defined`) for an expression debugpy refused. */
export function evaluationError(e: unknown): DebugError {
  if (e instanceof DapRequestError && e.failure === 'rejected') {
    return new DebugError('EVALUATION_FAILED', pythonErrorLine(e.reason), EVALUATION_HINT);
  }
  return requestError(e, 'EVALUATION_FAILED');
}
