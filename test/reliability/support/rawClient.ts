/**
 * A bare JSON-RPC client for the server on stdio, for the fuzzer: it sends anything (broken JSON,
 * arguments of any type, unknown methods), keeps every answer by id, and checks that every line the
 * server writes to stdout is a JSON-RPC message — nothing else may reach stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '../../../src/demo/mcpClient.js';

export interface RpcAnswer {
  result?: { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
  error?: { code: number; message: string };
}

export class RawClient {
  /** stdout lines that are not JSON-RPC messages. */
  readonly stdoutViolations: string[] = [];
  readonly notifications: { method: string; params?: unknown }[] = [];
  stderr = '';
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  private readonly pending = new Map<number, (answer: RpcAnswer) => void>();
  private nextId = 1;
  private buffered = '';

  private constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.read(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    child.stdin!.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      for (const settle of this.pending.values()) settle({ error: { code: -1, message: `server exited (${signal ?? code})` } });
      this.pending.clear();
    });
  }

  static async start(env: Record<string, string> = {}): Promise<RawClient> {
    const child = spawn(process.execPath, [CLI_PATH], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-rel-raw-')), ...env },
    });
    const client = new RawClient(child);
    const init = await client.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } }, 60_000);
    if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
    client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return client;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Sends a request; resolves with its answer, or with an `unanswered` error after `timeoutMs`. */
  request(method: string, params: unknown, timeoutMs: number): Promise<RpcAnswer & { unanswered?: boolean }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ unanswered: true, error: { code: 0, message: `no answer to ${method} within ${timeoutMs} ms` } });
      }, timeoutMs);
      this.pending.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  send(message: unknown): void {
    this.writeLine(JSON.stringify(message));
  }

  writeLine(line: string): void {
    if (!this.exit) this.child.stdin!.write(`${line}\n`);
  }

  async close(): Promise<void> {
    if (this.exit) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (!this.exit) this.child.kill('SIGKILL');
  }

  private read(chunk: string): void {
    this.buffered += chunk;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      this.take(line);
    }
  }

  private take(line: string): void {
    let message: { jsonrpc?: string; id?: number | null; method?: string; params?: unknown } & RpcAnswer;
    try {
      message = JSON.parse(line);
    } catch {
      this.stdoutViolations.push(line.slice(0, 200));
      return;
    }
    if (message?.jsonrpc !== '2.0') {
      this.stdoutViolations.push(line.slice(0, 200));
      return;
    }
    if (message.method && message.id === undefined) {
      this.notifications.push({ method: message.method, params: message.params });
      return;
    }
    if (typeof message.id === 'number') this.pending.get(message.id)?.(message);
    this.pending.delete(message.id as number);
  }
}
