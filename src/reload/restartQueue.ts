/**
 * Client messages held while no server can take them (restarting, or waiting out a crash
 * backoff). Bounded by count and bytes so a client that keeps sending to a dead server cannot
 * exhaust the proxy's memory.
 */
export interface QueueLimits {
  maxMessages: number;
  maxBytes: number;
}

export const defaultQueueLimits: QueueLimits = { maxMessages: 10_000, maxBytes: 64 * 1024 * 1024 };

export class RestartQueue {
  private lines: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limits: QueueLimits = defaultQueueLimits) {}

  /** False when the line does not fit; the caller answers it instead. */
  push(line: Buffer): boolean {
    if (this.lines.length >= this.limits.maxMessages || this.bytes + line.length > this.limits.maxBytes) return false;
    this.lines.push(line);
    this.bytes += line.length;
    return true;
  }

  /** Takes every held line, oldest first. */
  drain(): Buffer[] {
    const lines = this.lines;
    this.lines = [];
    this.bytes = 0;
    return lines;
  }

  get size(): number {
    return this.lines.length;
  }
}
