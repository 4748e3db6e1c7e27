/**
 * A DAP connection's wire: Content-Length framed JSON in both directions. The client above it
 * never sees bytes; the transport never interprets messages.
 */
import type { Message } from 'vscode-jsonrpc';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { DebugProtocol } from '@vscode/debugprotocol';

export interface DapTransport {
  send(message: DebugProtocol.ProtocolMessage): void;
  onMessage(listener: (message: DebugProtocol.ProtocolMessage) => void): void;
  /** Called once, when the wire is gone (end of stream, error, or `close()`). */
  onClose(listener: (reason?: Error) => void): void;
  close(): void;
  /** Recent stderr lines of the process at the other end, when the transport can see them. */
  stderrTail?(): string[];
  readonly description: string;
}

/** Frames DAP over any pair of byte streams (a child's stdio, a socket). */
export class StreamTransport implements DapTransport {
  private readonly reader: StreamMessageReader;
  private readonly writer: StreamMessageWriter;
  private readonly closeListeners: ((reason?: Error) => void)[] = [];
  private closed = false;

  constructor(
    input: NodeJS.ReadableStream,
    output: NodeJS.WritableStream,
    readonly description: string,
    private readonly release: () => void = () => {},
  ) {
    this.reader = new StreamMessageReader(input);
    this.writer = new StreamMessageWriter(output);
    this.reader.onClose(() => this.finish());
    this.reader.onError((error) => this.finish(error));
    this.writer.onError(([error]) => this.finish(error));
    this.writer.onClose(() => this.finish());
  }

  send(message: DebugProtocol.ProtocolMessage): void {
    if (this.closed) throw new Error(`${this.description} is closed`);
    // DAP messages have no `jsonrpc` member; the writer only frames what it is given.
    this.writer.write(message as unknown as Message).catch((error: Error) => this.finish(error));
  }

  onMessage(listener: (message: DebugProtocol.ProtocolMessage) => void): void {
    this.reader.listen((message) => listener(message as unknown as DebugProtocol.ProtocolMessage));
  }

  onClose(listener: (reason?: Error) => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  close(): void {
    this.finish();
  }

  /** The owner (a child process watcher, a socket) reports the far end is gone. */
  protected finish(reason?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.reader.dispose();
    this.writer.dispose();
    this.release();
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }
}
