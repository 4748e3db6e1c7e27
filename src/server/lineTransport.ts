/**
 * The server's stdio transport: newline-delimited JSON-RPC on stdin/stdout. Unlike the SDK's, it
 * takes messages before the MCP server is loaded: an early responder may answer some at once
 * (initialize, tools/list from the build-time catalog), and every message is still handed to the
 * server when it connects, in order, with its answer to anything already answered dropped.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type RequestId = string | number;
export type EarlyResponder = (message: JSONRPCMessage) => JSONRPCMessage | undefined;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called for each message that arrives before the server is connected. */
  onEarlyMessage?: (message: JSONRPCMessage, answered: boolean) => void;
  /** Every request or notification that arrives, and every response that goes out (what is in flight: callActivity.ts). */
  onRequest?: (message: JSONRPCMessage) => void;
  onResponse?: (id: RequestId) => void;

  private pending = '';
  private started = false;
  private closed = false;
  private readonly backlog: JSONRPCMessage[] = [];
  private readonly answeredEarly = new Set<RequestId>();

  constructor(
    private readonly early: EarlyResponder,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.on('error', this.onInputError);
  }

  async start(): Promise<void> {
    this.started = true;
    for (const message of this.backlog.splice(0)) this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isResponse(message)) return this.write(message);
    if (this.answeredEarly.delete(message.id)) return;
    this.write(message);
    this.onResponse?.(message.id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.onclose?.();
  }

  private write(message: JSONRPCMessage): void {
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  private readonly onData = (chunk: Buffer | string) => {
    this.pending += chunk.toString();
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, newline).replace(/\r$/, '');
      this.pending = this.pending.slice(newline + 1);
      if (line.trim()) this.receive(line);
    }
  };

  private receive(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSON.parse(line) as JSONRPCMessage;
    } catch (e) {
      this.write({ jsonrpc: '2.0', id: null as unknown as RequestId, error: { code: -32700, message: `Parse error: ${(e as Error).message}` } });
      return;
    }
    const invalid = invalidRequest(message);
    if (invalid) {
      this.write({ jsonrpc: '2.0', id: invalid.id as RequestId, error: { code: -32600, message: `Invalid Request: ${invalid.why}` } });
      return;
    }
    if ('method' in message) this.onRequest?.(message);
    if (this.started) {
      this.onmessage?.(message);
      return;
    }
    const answer = this.early(message);
    if (answer && 'id' in message) {
      this.write(answer);
      this.answeredEarly.add(message.id as RequestId);
    }
    this.backlog.push(message);
    this.onEarlyMessage?.(message, answer !== undefined);
  }

  private readonly onEnd = () => void this.close();
  private readonly onInputError = (e: Error) => this.onerror?.(e);
}

/** Why a parsed line is not a JSON-RPC message (an object with a method, or a response), with its id when it has a usable one. */
function invalidRequest(message: unknown): { id: RequestId | null; why: string } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { id: null, why: Array.isArray(message) ? 'batches are not supported' : 'a message must be a JSON object' };
  }
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (typeof method === 'string' || 'result' in message || 'error' in message) return undefined;
  return { id: typeof id === 'string' || typeof id === 'number' ? id : null, why: 'no method' };
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return 'id' in message && ('result' in message || 'error' in message) && !('method' in message);
}
