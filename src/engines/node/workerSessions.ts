/**
 * Worker threads reached through their parent's connection (Node's NodeWorker domain): each
 * worker's CDP session travels as messages inside the parent's, and ends with the worker or
 * with the parent.
 */
import type { CdpClient } from './cdpClient.js';
import type { CdpTransport } from './cdpTransport.js';

class WorkerTransport implements CdpTransport {
  private readonly messageListeners: ((message: string) => void)[] = [];
  private readonly closeListeners: ((reason?: Error) => void)[] = [];
  private closed = false;

  constructor(
    private readonly parent: CdpClient,
    private readonly sessionId: string,
    readonly url: string,
  ) {}

  send(message: string): void {
    if (!this.closed) this.parent.send('NodeWorker.sendMessageToWorker', { sessionId: this.sessionId, message }).catch(() => undefined);
  }

  onMessage(listener: (message: string) => void): void {
    this.messageListeners.push(listener);
  }

  onClose(listener: (reason?: Error) => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  deliver(message: string): void {
    for (const listener of this.messageListeners) listener(message);
  }

  /** The worker is gone (or we let go of it). */
  ended(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  close(): void {
    if (!this.closed) this.parent.send('NodeWorker.detach', { sessionId: this.sessionId }).catch(() => undefined);
    this.ended();
  }
}

/** The worker sessions of one parent connection, by NodeWorker session id. */
export class WorkerSessions {
  private readonly transports = new Map<string, WorkerTransport>();

  constructor(private readonly parent: CdpClient) {
    parent.on('NodeWorker.receivedMessageFromWorker', (e) => this.transports.get(e.sessionId)?.deliver(e.message));
    parent.on('NodeWorker.detachedFromWorker', (e) => {
      this.transports.get(e.sessionId)?.ended();
      this.transports.delete(e.sessionId);
    });
    parent.onClose(() => {
      for (const t of this.transports.values()) t.ended();
      this.transports.clear();
    });
  }

  /** A transport for the worker that just attached. */
  open(sessionId: string, url: string): CdpTransport {
    const transport = new WorkerTransport(this.parent, sessionId, url);
    this.transports.set(sessionId, transport);
    return transport;
  }
}
