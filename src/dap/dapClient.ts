/**
 * One DAP connection: typed requests matched to responses by seq, events fanned out to
 * listeners, reverse requests answered. Nothing above this class handles raw messages.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type {
  DapArguments,
  DapCommand,
  DapEventMap,
  DapEventName,
  DapResponseBody,
  DapReverseCommand,
  DapReverseRequestMap,
} from './dapProtocol.js';
import { DapRequestError } from './dapRequestError.js';
import type { DapTransport } from './dapTransport.js';

export interface DapClientOptions {
  /** Default per-request timeout; `request(…, {timeoutMs})` overrides it (Infinity: none). */
  timeoutMs?: number;
}

export interface PendingRequestInfo {
  seq: number;
  command: string;
  ageMs: number;
}

type ReverseHandler<C extends DapReverseCommand> = (
  args: DapReverseRequestMap[C][0],
) => Promise<DapReverseRequestMap[C][1]> | DapReverseRequestMap[C][1];

interface Pending {
  command: string;
  sentAt: number;
  timer?: NodeJS.Timeout;
  resolve(body: unknown): void;
  reject(error: DapRequestError): void;
  error: DapRequestError;
}

type EventListener = (body: never) => void;

export class DapClient {
  private seq = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly eventListeners = new Map<string, Set<EventListener>>();
  private readonly closeListeners: ((reason?: Error) => void)[] = [];
  private readonly reverseHandlers = new Map<string, (args: unknown) => unknown>();
  private closeReason?: Error;
  private isClosed = false;
  private readonly timeoutMs: number;

  constructor(
    private readonly transport: DapTransport,
    options: DapClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    transport.onMessage((message) => this.receive(message));
    transport.onClose((reason) => this.closedBy(reason));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  request<C extends DapCommand>(
    command: C,
    args: DapArguments<C>,
    options: { timeoutMs?: number } = {},
  ): Promise<DapResponseBody<C>> {
    const error = new DapRequestError(command);
    if (this.isClosed) return Promise.reject(error.connectionClosed(this.closeReason));
    const seq = this.seq++;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return new Promise<DapResponseBody<C>>((resolve, reject) => {
      // A request without a time limit (a launch held open on purpose) keeps no timer, so it
      // does not keep our process alive either.
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            this.pending.delete(seq);
            reject(error.timedOut(timeoutMs));
          }, timeoutMs)
        : undefined;
      this.pending.set(seq, { command, sentAt: Date.now(), timer, resolve: resolve as (body: unknown) => void, reject, error });
      const message: DebugProtocol.Request = { seq, type: 'request', command, arguments: args };
      try {
        this.transport.send(message);
      } catch (cause) {
        this.settle(seq)?.reject(error.connectionClosed(cause as Error));
      }
    });
  }

  /** Listens to one event; returns the function that stops listening. */
  on<E extends DapEventName>(event: E, listener: (body: DapEventMap[E]) => void): () => void {
    let listeners = this.eventListeners.get(event);
    if (!listeners) this.eventListeners.set(event, (listeners = new Set()));
    listeners.add(listener as EventListener);
    return () => listeners.delete(listener as EventListener);
  }

  /** Resolves with the next occurrence of `event` (for handshakes like `initialized`). */
  once<E extends DapEventName>(event: E): Promise<DapEventMap[E]> {
    return new Promise((resolve) => {
      const off = this.on(event, (body) => {
        off();
        resolve(body);
      });
    });
  }

  onClose(listener: (reason?: Error) => void): void {
    if (this.isClosed) listener(this.closeReason);
    else this.closeListeners.push(listener);
  }

  /** Answers a reverse request; requests without a handler are refused with an error response. */
  handleReverseRequest<C extends DapReverseCommand>(command: C, handler: ReverseHandler<C>): void {
    this.reverseHandlers.set(command, handler as (args: unknown) => unknown);
  }

  pendingRequests(): PendingRequestInfo[] {
    const now = Date.now();
    return [...this.pending].map(([seq, p]) => ({ seq, command: p.command, ageMs: now - p.sentAt }));
  }

  stderrTail(): string[] {
    return this.transport.stderrTail?.() ?? [];
  }

  get description(): string {
    return this.transport.description;
  }

  close(): void {
    this.transport.close();
  }

  private receive(message: DebugProtocol.ProtocolMessage): void {
    if (message.type === 'response') this.resolveResponse(message as DebugProtocol.Response);
    else if (message.type === 'event') this.dispatchEvent(message as DebugProtocol.Event);
    else if (message.type === 'request') void this.answerReverseRequest(message as DebugProtocol.Request);
  }

  private resolveResponse(response: DebugProtocol.Response): void {
    const pending = this.settle(response.request_seq);
    if (!pending) return; // timed out already
    if (response.success) pending.resolve(response.body);
    else pending.reject(pending.error.rejectedBy(response));
  }

  private dispatchEvent(event: DebugProtocol.Event): void {
    const listeners = this.eventListeners.get(event.event);
    if (!listeners) return;
    for (const listener of [...listeners]) (listener as (body: unknown) => void)(event.body);
  }

  private async answerReverseRequest(request: DebugProtocol.Request): Promise<void> {
    const handler = this.reverseHandlers.get(request.command);
    const response: DebugProtocol.Response = {
      seq: this.seq++,
      type: 'response',
      request_seq: request.seq,
      command: request.command,
      success: false,
    };
    if (!handler) {
      response.message = `${request.command} is not supported by this client`;
    } else {
      try {
        response.body = await handler(request.arguments);
        response.success = true;
      } catch (error) {
        response.message = error instanceof Error ? error.message : String(error);
      }
    }
    if (!this.isClosed) this.transport.send(response);
  }

  private settle(seq: number): Pending | undefined {
    const pending = this.pending.get(seq);
    if (!pending) return undefined;
    this.pending.delete(seq);
    clearTimeout(pending.timer);
    return pending;
  }

  private closedBy(reason?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closeReason = reason;
    for (const seq of [...this.pending.keys()]) {
      const pending = this.settle(seq)!;
      pending.reject(pending.error.connectionClosed(reason));
    }
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }
}
