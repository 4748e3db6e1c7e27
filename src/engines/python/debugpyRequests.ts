/**
 * Requests to debugpy over the run's DAP client. A refusal comes out as a DebugError with the code
 * the caller names and the last lines debugpy wrote to stderr; with no connection (or a closed
 * one) a request is INVALID_STATE.
 */
import { DebugError, type ErrorCode } from '../../core/errors.js';
import type { DapClient } from '../../dap/dapClient.js';
import type { DapArguments, DapCommand } from '../../dap/dapProtocol.js';
import { active } from './callsQuiet.js';
import { requestError } from './requestErrors.js';

export class DebugpyRequests {
  /** The run's connection, once launch or attach made it. */
  client?: DapClient;

  request<C extends DapCommand>(command: C, args: DapArguments<C>) {
    const client = this.client;
    if (!client || client.closed) {
      return Promise.reject(new DebugError('INVALID_STATE', 'The Python debug session is not running.', 'Launch or attach first, or check session_state.'));
    }
    active();
    return client.request(command, args);
  }

  /** A request whose refusal is a DebugError with `rejectedCode` (the adapter said no). */
  async call<C extends DapCommand>(command: C, args: DapArguments<C>, rejectedCode: ErrorCode = 'ADAPTER_FAILED') {
    try {
      return await this.request(command, args);
    } catch (e) {
      throw requestError(e, rejectedCode, this.stderrHint());
    }
  }

  stderrHint(): string | undefined {
    const tail = this.client?.stderrTail() ?? [];
    return tail.length ? `debugpy said: ${tail.slice(-5).join(' | ')}` : undefined;
  }
}
