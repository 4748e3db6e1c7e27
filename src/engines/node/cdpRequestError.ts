/**
 * A CDP request that did not succeed. Created when the request is sent, so its stack points at
 * the caller; the runtime's answer (or the timeout, or the lost connection) fills in the rest.
 */
export type CdpFailure = 'rejected' | 'timeout' | 'closed';

export class CdpRequestError extends Error {
  override readonly name = 'CdpRequestError';
  failure: CdpFailure = 'rejected';
  /** The runtime's own words (`error.message`), without the method prefix. */
  reason = '';

  constructor(readonly method: string) {
    super(`${method} failed`);
  }

  rejectedWith(error: { code: number; message: string; data?: string }): this {
    this.failure = 'rejected';
    this.reason = error.data ? `${error.message} (${error.data})` : error.message;
    this.message = `${this.method}: ${this.reason}`;
    return this;
  }

  timedOut(ms: number): this {
    this.failure = 'timeout';
    this.reason = `no response within ${ms} ms`;
    this.message = `${this.method}: ${this.reason}`;
    return this;
  }

  connectionClosed(reason?: Error): this {
    this.failure = 'closed';
    this.reason = `connection closed before the response${reason ? ` (${reason.message})` : ''}`;
    this.message = `${this.method}: ${this.reason}`;
    return this;
  }
}
