/**
 * A shell command's connection to the daemon: MCP over the daemon's socket, started first when none
 * answers (a detached `debugbridge daemon run`, logging to its folder). The requests are few and
 * sequential, so this speaks JSON-RPC itself over the server's line transport instead of loading the
 * SDK client and its schemas, which would double the time every shell command takes.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { homedir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { CallToolResult, InitializeResult, JSONRPCMessage, ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { DebugError } from '../core/errors.js';
import { isProcessRunning } from '../core/processAlive.js';
import { LineTransport } from '../server/lineTransport.js';
import { loadCatalog } from '../server/toolCatalog.js';
import { VERSION } from '../version.js';
import { ensurePrivateDir, type DaemonPaths } from './daemonPaths.js';
import { clientKey } from './clientKey.js';
import { CLIENT_CAPABILITY, INPUT_SCHEMA_METHOD, STATUS_METHOD, STOP_METHOD, type DaemonStatus } from './daemonProtocol.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));
const START_TIMEOUT_MS = 20_000;
const LOG_CAP_BYTES = 1 << 20;
/** The protocol version the server was built with (any version gets an answer in the server's own). */
const PROTOCOL_VERSION = loadCatalog(VERSION)?.latestProtocolVersion ?? '2025-06-18';

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

export class DaemonClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private initialized?: InitializeResult;

  private constructor(
    private readonly transport: LineTransport,
    private readonly socket: Socket,
  ) {
    transport.onmessage = (message) => this.receive(message);
    transport.onclose = () => {
      for (const p of this.pending.values()) p.reject(new DebugError('DAEMON_UNAVAILABLE', 'The debugbridge daemon closed the connection.', 'Run the command again; `debugbridge daemon status` shows whether it runs.'));
      this.pending.clear();
      socket.destroy();
    };
  }

  /** Connects to the running daemon, or undefined when none runs. */
  static async connectIfRunning(paths: DaemonPaths): Promise<DaemonClient | undefined> {
    const socket = await openSocket(paths.socket);
    return socket ? DaemonClient.over(socket) : undefined;
  }

  /** Connects to the daemon, starting one when none answers. */
  static async connect(paths: DaemonPaths): Promise<DaemonClient> {
    const running = await DaemonClient.connectIfRunning(paths);
    if (running) return running;
    const started = await startDaemon(paths);
    const client = await DaemonClient.over(started.socket);
    // The daemon this command started lost to one started at the same moment: it is exiting. A
    // command leaves no process of its own behind, so it answers once that one is gone.
    if ((await client.status()).pid !== started.pid) await Promise.race([started.gone, sleep(START_TIMEOUT_MS, undefined, { ref: false })]);
    return client;
  }

  private static async over(socket: Socket): Promise<DaemonClient> {
    const client = new DaemonClient(new LineTransport(() => undefined, socket, socket), socket);
    await client.transport.start();
    client.initialized = await client.request<InitializeResult>('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      // The daemon keeps each client's sessions apart (clientKey.ts says who this command is).
      capabilities: { experimental: { [CLIENT_CAPABILITY]: clientKey() } },
      clientInfo: { name: 'debugbridge-shell', version: VERSION },
    });
    await client.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return client;
  }

  /** The version of debugbridge the daemon runs. */
  get serverVersion(): string | undefined {
    return this.initialized?.serverInfo.version;
  }

  async tools(): Promise<Tool[]> {
    return (await this.request<ListToolsResult>('tools/list', {})).tools;
  }

  call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return this.request<CallToolResult>('tools/call', { name, arguments: args });
  }

  /** A tool's whole input schema, examples included (tools/list answers a compact one). */
  async inputSchema(name: string): Promise<Record<string, unknown>> {
    return (await this.request<{ inputSchema: Record<string, unknown> }>(INPUT_SCHEMA_METHOD, { name })).inputSchema;
  }

  status(): Promise<DaemonStatus> {
    return this.request<DaemonStatus>(STATUS_METHOD, {});
  }

  /** Asks the daemon to end its sessions and exit; answers once the process is gone. */
  async stop(): Promise<DaemonStatus> {
    const status = await this.request<DaemonStatus>(STOP_METHOD, {});
    await this.close();
    await waitGone(status.pid, 15_000);
    return status;
  }

  async close(): Promise<void> {
    await this.transport.close();
    this.socket.destroy();
  }

  /** Tool calls carry their own timeouts (timeoutMs): a request waits as long as the daemon works on it. */
  private request<T>(method: string, params: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.transport.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  }

  private receive(message: JSONRPCMessage): void {
    if (!('id' in message) || 'method' in message) return; // notifications (logging, progress) are for MCP clients
    const pending = this.pending.get(message.id as number);
    if (!pending) return;
    this.pending.delete(message.id as number);
    if ('error' in message) pending.reject(new DebugError('INTERNAL', `the daemon answered: ${message.error.message}`));
    else pending.resolve(message.result);
  }
}

function openSocket(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      resolve(socket);
    });
    socket.once('error', () => resolve(undefined));
  });
}

/**
 * Starts `debugbridge daemon run` detached and connects once it listens. Commands that come at the
 * same moment each start one; all of them connect to the one that gets the socket (daemon.ts).
 */
async function startDaemon(paths: DaemonPaths): Promise<{ socket: Socket; pid?: number; gone: Promise<void> }> {
  ensurePrivateDir(paths.dir);
  const logFd = openLog(paths.log);
  // The daemon outlives this shell's folder: its own cwd is the home folder, launches get the caller's cwd.
  const child = spawn(process.execPath, [CLI, 'daemon', 'run'], { detached: true, stdio: ['ignore', logFd, logFd], cwd: homedir(), windowsHide: true });
  closeSync(logFd);
  let exited: number | null | undefined;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  child.unref();
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const socket = await openSocket(paths.socket);
    if (socket) return { socket, pid: child.pid, gone };
    // Exit code 0: another daemon got the socket; it is about to listen.
    if (exited !== undefined && exited !== 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const log = readTail(paths.log);
  throw new DebugError('DAEMON_UNAVAILABLE', `The debugbridge daemon did not start${exited !== undefined ? ` (exit code ${exited})` : ''}.${log ? `\nIts log:\n${log}` : ''}`, `Run \`debugbridge daemon run\` to see it fail in the foreground.`);
}

/**
 * The log every daemon started here appends to: daemons started at the same moment share it, and a
 * new daemon keeps what the one before it (perhaps killed) wrote. Cut when it outgrows LOG_CAP_BYTES.
 */
function openLog(path: string): number {
  try {
    if (statSync(path).size > LOG_CAP_BYTES) truncateSync(path);
  } catch {
    // no log yet
  }
  return openSync(path, 'a', 0o600);
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-10).join('\n');
  } catch {
    return '';
  }
}

/** Until the daemon has exited (a zombie waiting for a reaper counts as gone). */
async function waitGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && isProcessRunning(pid)) await new Promise((r) => setTimeout(r, 20));
}
