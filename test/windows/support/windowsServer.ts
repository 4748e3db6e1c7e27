/**
 * The debugbridge server under Windows node.exe in Wine, driven by the tests' MCP client on Linux:
 * bridge.cjs (under node.exe) starts the server over stdio pipes, as a Windows MCP client would, and
 * relays them to a TCP connection this side listens for.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpTestClient } from '../../../src/demo/mcpClient.js';
import { root, WINE, wineEnv, winPath } from './bed.mjs';

/** Newline-delimited JSON-RPC over a socket, the framing of the stdio transport. */
class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly socket: Socket) {}

  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    this.socket.on('error', (e) => this.onerror?.(e));
    this.socket.on('close', () => this.onclose?.());
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => this.socket.write(serializeMessage(message), () => resolve()));
  }

  async close(): Promise<void> {
    this.socket.end();
  }
}

export interface WindowsServer {
  client: McpTestClient<Transport>;
  /** The bridge under Wine (the server is its child there). */
  bridge: ChildProcess;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `node.exe dist\cli.js` under Wine; `env` reaches the server (Wine passes the environment on). */
export async function startWindowsServer(nodeExe: string, env: Record<string, string> = {}): Promise<WindowsServer> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as { port: number }).port;
  const stderrLog = join(mkdtempSync(join(tmpdir(), 'dbb-win-server-')), 'stderr.log');
  const connected = new Promise<Socket>((resolve) => listener.once('connection', resolve));
  const bridge = spawn(
    WINE,
    [nodeExe, winPath(join(root, 'test', 'windows', 'bridge.cjs')), String(port), winPath(stderrLog), winPath(nodeExe), winPath(join(root, 'dist', 'cli.js'))],
    { cwd: root, env: wineEnv(env), stdio: ['ignore', 'ignore', 'ignore'] },
  );
  const exited = new Promise<never>((_, reject) => bridge.once('exit', (code) => reject(new Error(`the Windows bridge exited with ${code} before connecting`))));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the Windows bridge did not connect within 120 s')), 120_000);
  });
  try {
    const socket = await Promise.race([connected, exited, timeout]);
    const client = await McpTestClient.connect(new SocketTransport(socket));
    const stderr = () => {
      try {
        return readFileSync(stderrLog, 'utf8');
      } catch {
        return '';
      }
    };
    const close = async () => {
      await client.close();
      await new Promise<void>((resolve) => {
        if (bridge.exitCode !== null) return resolve();
        const kill = setTimeout(() => bridge.kill('SIGKILL'), 20_000);
        bridge.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
      });
    };
    return { client, bridge, stderr, close };
  } finally {
    clearTimeout(timer);
    listener.close();
  }
}
