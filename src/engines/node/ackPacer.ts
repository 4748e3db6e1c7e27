/**
 * Keeps our TCP ACKs flowing to Node's inspector while we wait for it.
 *
 * The inspector's socket has no TCP_NODELAY and it writes each reply and event separately, so
 * Nagle holds every write made while an earlier one is unacknowledged, and Linux delays a bare
 * ACK by up to 40 ms. Data we send carries the ACK at once, so while something is awaited we
 * answer what arrives with a tiny request (a "carrier"). Its reply is one more write to
 * acknowledge, so carriers answering carriers are paced and stop after a while: an await that
 * lasts longer than that pays at most one delayed ACK, which is noise next to its own length.
 */
const PACE_MS = 2;
const CHAIN_LIMIT_MS = 120;

export class AckPacer {
  /** Carrier replies since the last real message: the first is answered at once, later ones paced. */
  private carrierReplies = 0;
  private timer?: NodeJS.Timeout;
  private awaitStartedAt?: number;

  constructor(
    private readonly sendCarrier: () => void,
    private readonly awaiting: () => boolean,
  ) {}

  /** An event or the reply to a real request arrived. */
  onMessage(): void {
    this.carrierReplies = 0;
    if (this.awaiting()) this.awaitStartedAt ??= Date.now();
    else this.awaitStartedAt = undefined;
    if (!this.awaitStartedAt) return;
    this.carry();
  }

  /** The reply to our carrier arrived: the one before it is acknowledged, this one is not. */
  onCarrierReply(): void {
    if (!this.awaiting()) {
      this.awaitStartedAt = undefined;
      return;
    }
    this.awaitStartedAt ??= Date.now();
    if (this.carrierReplies++ === 0) return this.carry();
    if (Date.now() - this.awaitStartedAt > CHAIN_LIMIT_MS || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.awaiting()) this.carry();
    }, PACE_MS);
  }

  /** A real request went out: it carries the ACK itself. */
  onSend(): void {
    this.awaitStartedAt = Date.now();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Unconditional: a carrier still in flight may sit behind the very write it should release. */
  private carry(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sendCarrier();
  }
}
