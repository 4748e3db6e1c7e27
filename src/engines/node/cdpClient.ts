/**
 * One Chrome DevTools Protocol session over a transport: typed requests matched to replies by id,
 * events fanned out to listeners, every pending request failed when the transport goes away.
 * Nothing above this class handles raw messages.
 */
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js';
import { AckPacer } from './ackPacer.js';
import { CdpRequestError } from './cdpRequestError.js';
import { openWebSocket, type CdpTransport, type WebSocketOptions } from './cdpTransport.js';
import type { NodeCommands, NodeEvents } from './nodeProtocol.js';

type Commands = ProtocolMapping.Commands & NodeCommands;
type Events = ProtocolMapping.Events & NodeEvents;
export type CdpMethod = keyof Commands;
export type CdpEvent = keyof Events;
export type CdpParams<M extends CdpMethod> = Commands[M]['paramsType'];
export type CdpResult<M extends CdpMethod> = Commands[M]['returnType'];
export type CdpEventParams<E extends CdpEvent> = Events[E][0];

export interface CdpClientOptions extends WebSocketOptions {
  /** Default per-request timeout. */
  timeoutMs?: number;
  /** Keep our ACKs flowing while we wait (see AckPacer). Off only to measure what it buys. */
  ackCarrier?: boolean;
}

interface Pending {
  method: string;
  sentAt: number;
  timer: NodeJS.Timeout;
  resolve(result: unknown): void;
  reject(error: CdpRequestError): void;
  error: CdpRequestError;
}

interface IncomingMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: string };
}

/** Cheapest request the inspector answers in any state (running, paused, no debugger domain). */
const CARRIER_METHOD = 'Runtime.getIsolateId';

export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(params: never) => void>>();
  private readonly closeListeners: ((reason?: Error) => void)[] = [];
  private readonly carrierIds = new Set<number>();
  private readonly pacer?: AckPacer;
  private readonly expected = new Set<string>();
  /** Sessions tunnelled through this one (workers): their waits are ours to keep the ACKs flowing for. */
  private readonly tunnelled = new Set<CdpClient>();
  private closeReason?: Error;
  private isClosed = false;
  private readonly timeoutMs: number;

  constructor(
    private readonly transport: CdpTransport,
    options: CdpClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    if (options.ackCarrier ?? true) this.pacer = new AckPacer(() => this.sendCarrier(), () => this.awaiting());
    transport.onMessage((text) => this.receive(text));
    transport.onClose((reason) => {
      this.closeReason ??= reason;
      this.markClosed();
    });
  }

  /** Opens a WebSocket to an inspector; rejects if it is not open within the handshake timeout. */
  static async connect(url: string, options: CdpClientOptions = {}): Promise<CdpClient> {
    return new CdpClient(await openWebSocket(url, options), options);
  }

  get url(): string {
    return this.transport.url;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  send<M extends CdpMethod>(method: M, ...params: CdpParams<M>): Promise<CdpResult<M>> {
    return this.request(method, params[0], this.timeoutMs) as Promise<CdpResult<M>>;
  }

  on<E extends CdpEvent>(event: E, listener: (params: CdpEventParams<E>) => void): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (params: never) => void);
  }

  /** We are waiting for this event (a pause after a resume or a step): keep the ACKs flowing until it comes. */
  expectEvent(event: CdpEvent): void {
    this.expected.add(event);
  }

  /** The event will not come after all. */
  forgetEvent(event: CdpEvent): void {
    this.expected.delete(event);
  }

  /** Whether anything waits for an answer from the other side, here or in a session tunnelled through us. */
  awaiting(): boolean {
    if (this.pending.size > 0 || this.expected.size > 0) return true;
    for (const session of this.tunnelled) if (session.awaiting()) return true;
    return false;
  }

  /** A session whose messages travel inside ours (a worker's): ends with us. */
  adopt(session: CdpClient): void {
    this.tunnelled.add(session);
    session.onClose(() => this.tunnelled.delete(session));
  }

  onClose(listener: (reason?: Error) => void): void {
    if (this.isClosed) listener(this.closeReason);
    else this.closeListeners.push(listener);
  }

  pendingRequests(): { method: string; ageMs: number }[] {
    const now = Date.now();
    return [...this.pending.values()].map((p) => ({ method: p.method, ageMs: now - p.sentAt }));
  }

  close(): void {
    this.transport.close();
    this.markClosed();
  }

  private request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    const error = new CdpRequestError(method);
    if (this.isClosed) return Promise.reject(error.connectionClosed(this.closeReason));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(error.timedOut(timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { method, sentAt: Date.now(), timer, resolve, reject, error });
      this.transport.send(JSON.stringify(params === undefined ? { id, method } : { id, method, params }));
      this.pacer?.onSend();
    });
  }

  private receive(text: string): void {
    let message: IncomingMessage;
    try {
      message = JSON.parse(text) as IncomingMessage;
    } catch {
      return; // not CDP; nothing waits for it
    }
    if (message.id !== undefined && this.carrierIds.delete(message.id)) {
      this.pacer?.onCarrierReply();
      return;
    }
    if (message.id !== undefined) this.settle(message.id, message);
    else if (message.method) this.dispatch(message.method, message.params);
    this.pacer?.onMessage();
  }

  private dispatch(method: string, params: unknown): void {
    this.expected.delete(method);
    for (const listener of [...(this.listeners.get(method) ?? [])]) listener(params as never);
  }

  private settle(id: number, message: IncomingMessage): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(pending.error.rejectedWith(message.error));
    else pending.resolve(message.result ?? {});
  }

  private sendCarrier(): void {
    if (this.isClosed) return;
    const id = this.nextId++;
    this.carrierIds.add(id);
    this.transport.send(JSON.stringify({ id, method: CARRIER_METHOD }));
  }

  private markClosed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.pacer?.stop();
    this.expected.clear();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(p.error.connectionClosed(this.closeReason));
    }
    for (const session of [...this.tunnelled]) session.close();
    for (const listener of this.closeListeners.splice(0)) listener(this.closeReason);
  }
}
