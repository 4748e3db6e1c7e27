/**
 * A DAP request that did not succeed. Created when the request is sent, so its stack points at
 * the caller; the adapter's answer (or the timeout, or the lost connection) fills in the rest.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';

export type DapFailure = 'rejected' | 'timeout' | 'closed';

export class DapRequestError extends Error {
  override readonly name = 'DapRequestError';
  failure: DapFailure = 'rejected';
  /** The adapter's short error (`response.message`), e.g. `cancelled`, `notStopped`. */
  adapterMessage?: string;
  /** The adapter's formatted error (`body.error`), when it sent one. */
  detail?: DebugProtocol.Message;

  constructor(readonly command: string) {
    super(`${command} failed`);
  }

  rejectedBy(response: DebugProtocol.Response): this {
    this.failure = 'rejected';
    this.adapterMessage = response.message;
    this.detail = (response.body as { error?: DebugProtocol.Message } | undefined)?.error;
    this.message = `${this.command}: ${formatDetail(this.detail) ?? response.message ?? 'failed'}`;
    return this;
  }

  timedOut(ms: number): this {
    this.failure = 'timeout';
    this.message = `${this.command}: no response within ${ms} ms`;
    return this;
  }

  connectionClosed(reason?: Error): this {
    this.failure = 'closed';
    this.message = `${this.command}: connection closed before the response${reason ? ` (${reason.message})` : ''}`;
    return this;
  }

  /** The adapter's own words, without the command prefix. */
  get reason(): string {
    return formatDetail(this.detail) ?? this.adapterMessage ?? this.message;
  }
}

function formatDetail(detail: DebugProtocol.Message | undefined): string | undefined {
  if (!detail?.format) return undefined;
  return detail.format.replace(/\{(\w+)\}/g, (whole, key: string) => detail.variables?.[key] ?? whole);
}
