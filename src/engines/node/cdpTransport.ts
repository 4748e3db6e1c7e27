/**
 * What carries CDP messages: a WebSocket to an inspector, or a worker's session tunnelled through
 * its parent's connection. A transport moves text; CdpClient gives it meaning.
 */
import WebSocket from 'ws';

export interface CdpTransport {
  /** Where it leads, for diagnostics. */
  readonly url: string;
  send(message: string): void;
  onMessage(listener: (message: string) => void): void;
  onClose(listener: (reason?: Error) => void): void;
  close(): void;
}

export interface WebSocketOptions {
  /** Handshake timeout. */
  timeoutMs?: number;
  /** TCP_NODELAY on our side of the socket (off only to measure what it buys). */
  noDelay?: boolean;
}

/** Opens a WebSocket; rejects if it is not open within the handshake timeout. */
export function openWebSocket(url: string, options: WebSocketOptions = {}): Promise<CdpTransport> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024, handshakeTimeout: options.timeoutMs ?? 10_000 });
    socket.once('upgrade', (response) => response.socket.setNoDelay(options.noDelay ?? true));
    socket.once('open', () => resolve(new WebSocketTransport(socket, url)));
    socket.once('error', reject);
  });
}

class WebSocketTransport implements CdpTransport {
  private closeReason?: Error;

  constructor(
    private readonly socket: WebSocket,
    readonly url: string,
  ) {
    socket.on('error', (e) => (this.closeReason ??= e));
  }

  send(message: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(message);
  }

  onMessage(listener: (message: string) => void): void {
    this.socket.on('message', (data) => listener(data.toString()));
  }

  onClose(listener: (reason?: Error) => void): void {
    if (this.socket.readyState === WebSocket.CLOSED) listener(this.closeReason);
    else this.socket.once('close', () => listener(this.closeReason));
  }

  close(): void {
    if (this.socket.readyState === WebSocket.CONNECTING || this.socket.readyState === WebSocket.OPEN) this.socket.close();
  }
}
