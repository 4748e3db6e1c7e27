/** DapClient over an in-memory transport: matching, errors, timeouts, close, reverse requests. */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { describe, expect, it } from 'vitest';
import { DapClient } from '../../src/dap/dapClient.js';
import { DapRequestError } from '../../src/dap/dapRequestError.js';
import type { DapTransport } from '../../src/dap/dapTransport.js';

class FakeTransport implements DapTransport {
  readonly description = 'fake';
  readonly sent: DebugProtocol.ProtocolMessage[] = [];
  private deliver: (m: DebugProtocol.ProtocolMessage) => void = () => {};
  private closeListeners: ((reason?: Error) => void)[] = [];

  send(message: DebugProtocol.ProtocolMessage): void {
    this.sent.push(message);
  }
  onMessage(listener: (m: DebugProtocol.ProtocolMessage) => void): void {
    this.deliver = listener;
  }
  onClose(listener: (reason?: Error) => void): void {
    this.closeListeners.push(listener);
  }
  close(reason?: Error): void {
    for (const l of this.closeListeners.splice(0)) l(reason);
  }
  stderrTail(): string[] {
    return ['last words'];
  }

  lastRequest(): DebugProtocol.Request {
    return this.sent.at(-1) as DebugProtocol.Request;
  }
  respond(request: DebugProtocol.Request, success: boolean, body?: unknown, message?: string): void {
    this.deliver({ seq: 100 + request.seq, type: 'response', request_seq: request.seq, command: request.command, success, body, message } as DebugProtocol.Response);
  }
  event(event: string, body?: unknown): void {
    this.deliver({ seq: 500, type: 'event', event, body } as DebugProtocol.Event);
  }
  reverse(command: string, args: unknown): void {
    this.deliver({ seq: 900, type: 'request', command, arguments: args } as DebugProtocol.Request);
  }
}

function setup(timeoutMs = 1000) {
  const transport = new FakeTransport();
  return { transport, client: new DapClient(transport, { timeoutMs }) };
}

describe('DapClient', () => {
  it('matches responses to requests by seq, whatever the order', async () => {
    const { transport, client } = setup();
    const threads = client.request('threads', undefined);
    const first = transport.lastRequest();
    const stack = client.request('stackTrace', { threadId: 1 });
    const second = transport.lastRequest();
    expect([first.seq, second.seq]).toEqual([1, 2]);
    transport.respond(second, true, { stackFrames: [], totalFrames: 0 });
    transport.respond(first, true, { threads: [{ id: 1, name: 'MainThread' }] });
    expect((await threads).threads[0].name).toBe('MainThread');
    expect((await stack).totalFrames).toBe(0);
    expect(client.pendingRequests()).toEqual([]);
  });

  it('rejects with an error made at the call site and filled with the adapter message', async () => {
    const { transport, client } = setup();
    const failing = client.request('evaluate', { expression: 'nope' });
    transport.respond(transport.lastRequest(), false, { error: { id: 1, format: 'bad {what}', variables: { what: 'name' } } }, 'failed');
    const error = (await failing.catch((e: unknown) => e)) as DapRequestError;
    expect(error).toBeInstanceOf(DapRequestError);
    expect(error).toMatchObject({ failure: 'rejected', command: 'evaluate', adapterMessage: 'failed', reason: 'bad name' });
    expect(error.message).toBe('evaluate: bad name');
    expect(error.stack).toContain('dapClient.test.ts');
  });

  it('times out a request and lists pending requests with their age', async () => {
    const { client } = setup(50);
    const pending = client.request('continue', { threadId: 1 });
    expect(client.pendingRequests()).toEqual([{ seq: 1, command: 'continue', ageMs: expect.any(Number) }]);
    await expect(pending).rejects.toMatchObject({ failure: 'timeout', message: 'continue: no response within 50 ms' });
    expect(client.pendingRequests()).toEqual([]);
  });

  it('rejects every pending request when the connection closes, and later ones at once', async () => {
    const { transport, client } = setup();
    const a = client.request('threads', undefined);
    const b = client.request('pause', { threadId: 1 });
    let closedWith: Error | undefined;
    client.onClose((reason) => (closedWith = reason));
    transport.close(new Error('adapter exited'));
    await expect(a).rejects.toMatchObject({ failure: 'closed' });
    await expect(b).rejects.toThrow(/connection closed.*adapter exited/);
    await expect(client.request('threads', undefined)).rejects.toMatchObject({ failure: 'closed' });
    expect(closedWith?.message).toBe('adapter exited');
    expect(client.closed).toBe(true);
  });

  it('dispatches events to their listeners until they stop listening', async () => {
    const { transport, client } = setup();
    const seen: unknown[] = [];
    const off = client.on('output', (body) => seen.push(body.output));
    const initialized = client.once('initialized');
    transport.event('output', { output: 'one' });
    transport.event('initialized');
    off();
    transport.event('output', { output: 'two' });
    await initialized;
    expect(seen).toEqual(['one']);
  });

  it('answers reverse requests: refused without a handler, the handler result otherwise', async () => {
    const { transport, client } = setup();
    transport.reverse('runInTerminal', { args: ['python'], cwd: '/' });
    await new Promise((r) => setImmediate(r));
    expect(transport.sent.at(-1)).toMatchObject({ type: 'response', request_seq: 900, success: false, message: expect.stringContaining('not supported') });

    client.handleReverseRequest('runInTerminal', () => ({ processId: 42 }));
    transport.reverse('runInTerminal', { args: ['python'], cwd: '/' });
    await new Promise((r) => setImmediate(r));
    expect(transport.sent.at(-1)).toMatchObject({ type: 'response', success: true, body: { processId: 42 } });
    expect(client.stderrTail()).toEqual(['last words']);
  });
});
