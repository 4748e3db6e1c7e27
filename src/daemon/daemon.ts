/**
 * The shell daemon (`debugbridge daemon run`, started on first use by `debugbridge call`): one
 * SessionManager that outlives the shell commands, serving MCP to each command that connects over
 * a socket only this user can open. It ends after DEBUGBRIDGE_DAEMON_IDLE_MS (default 30 minutes)
 * with no client connected, on `daemon stop`, or on SIGTERM/SIGINT/SIGHUP, ending every session's
 * processes first.
 */
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createSocketServer, type Server, type Socket } from 'node:net';
import { z } from 'zod';
import { EngineRegistry } from '../core/engineRegistry.js';
import { SessionManager } from '../core/sessionManager.js';
import { createServer } from '../server/createServer.js';
import { LineTransport } from '../server/lineTransport.js';
import { stderrLogger } from '../server/stdioServer.js';
import { loadCatalog } from '../server/toolCatalog.js';
import { VERSION } from '../version.js';
import { daemonPaths, ensurePrivateDir, type DaemonPaths } from './daemonPaths.js';
import { answers, DEFAULT_IDLE_MS, readRecord, STATUS_METHOD, STOP_METHOD, type DaemonRecord, type DaemonStatus } from './daemonProtocol.js';

const StatusRequest = z.object({ method: z.literal(STATUS_METHOD) });
const StopRequest = z.object({ method: z.literal(STOP_METHOD) });

export async function runDaemon(paths: DaemonPaths = daemonPaths()): Promise<number> {
  const log = stderrLogger((process.env.DEBUGBRIDGE_LOG as never) ?? 'info');
  const idleMs = Number(process.env.DEBUGBRIDGE_DAEMON_IDLE_MS) || DEFAULT_IDLE_MS;
  ensurePrivateDir(paths.dir);
  // Listen first: a second daemon started at the same moment stops here, before starting anything.
  const listener = createSocketServer();
  await listen(listener, paths.socket);
  if (process.platform !== 'win32') chmodSync(paths.socket, 0o600);
  const startedAt = Date.now();
  const record: DaemonRecord = { pid: process.pid, version: VERSION, startedAt, socket: paths.socket };
  writeFileSync(paths.record, JSON.stringify(record), { mode: 0o600 });

  const registry = new EngineRegistry();
  registry.prewarm(['python']);
  const manager = new SessionManager({ log, registry });
  const catalog = loadCatalog(VERSION);
  const clients = new Set<Socket>();
  let lastClientAt = Date.now();

  const status = (): DaemonStatus => ({
    pid: process.pid,
    version: VERSION,
    startedAt,
    socket: paths.socket,
    sessions: manager.list().length,
    activeSessions: manager.list().filter((s) => s.active).length,
    idleShutdownMs: idleMs,
  });

  let stopping: Promise<void> | undefined;
  const stop = (why: string) =>
    (stopping ??= (async () => {
      log('info', `daemon stopping: ${why}`);
      setTimeout(() => process.exit(0), 10_000).unref();
      listener.close();
      for (const socket of clients) socket.destroy();
      await manager.disposeAll();
      removeOwnFiles(paths);
      process.exit(0);
    })());

  listener.on('connection', (socket: Socket) => {
    clients.add(socket);
    // Writes to a client that went away fail here, not as an uncaught error.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clients.delete(socket);
      lastClientAt = Date.now();
    });
    const server = createServer(manager, VERSION, catalog?.tools);
    server.server.setRequestHandler(StatusRequest, () => status());
    server.server.setRequestHandler(StopRequest, () => {
      // Answer first: the client waits for the process to be gone.
      setImmediate(() => void stop('daemon stop'));
      return status();
    });
    server.connect(new LineTransport(() => undefined, socket, socket)).catch((e: unknown) => log('warning', `client connection: ${(e as Error).message}`));
  });
  log('info', `daemon ${process.pid} listening on ${paths.socket}; idle shutdown after ${idleMs} ms`);

  setInterval(() => {
    if (clients.size === 0 && Date.now() - lastClientAt >= idleMs) void stop(`idle for ${idleMs} ms`);
  }, Math.min(idleMs, 30_000)).unref();
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => void stop('SIGHUP'));
  process.on('uncaughtException', (e) => log('error', `uncaught: ${e.stack ?? e.message}`));
  process.on('unhandledRejection', (e) => log('error', `unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
  return new Promise<number>(() => undefined); // runs until stopped
}

/** Listens on the socket; a socket file left by a daemon that died is replaced, a live daemon's is not. */
async function listen(server: Server, socket: string): Promise<void> {
  // Nobody else may connect, not even between creating the socket and the chmod after it.
  const umask = process.platform === 'win32' ? undefined : process.umask(0o177);
  try {
    await tryListen(server, socket).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EADDRINUSE' || process.platform === 'win32') throw e;
      if (await answers(socket)) throw new AlreadyRunning(socket);
      rmSync(socket, { force: true });
      await tryListen(server, socket);
    });
  } finally {
    if (umask !== undefined) process.umask(umask);
  }
}

export class AlreadyRunning extends Error {
  constructor(socket: string) {
    super(`a debugbridge daemon already listens on ${socket}`);
  }
}

function tryListen(server: Server, socket: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Removes the socket and record if they are still this daemon's. */
function removeOwnFiles(paths: DaemonPaths): void {
  if (readRecord(paths)?.pid !== process.pid) return;
  if (process.platform !== 'win32') rmSync(paths.socket, { force: true });
  rmSync(paths.record, { force: true });
}
