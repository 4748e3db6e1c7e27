/**
 * What the shell daemon serves once it has its socket (daemon.ts claims it): one SessionManager
 * that outlives the shell commands, serving MCP to each command that connects. It ends after
 * DEBUGBRIDGE_DAEMON_IDLE_MS (default 30 minutes) with no client connected, on `daemon stop`, or on
 * SIGTERM/SIGINT/SIGHUP, ending every session's processes first.
 */
import type { Server, Socket } from 'node:net';
import { z } from 'zod';
import { EngineRegistry } from '../core/engineRegistry.js';
import { SessionManager, type SessionClient } from '../core/sessionManager.js';
import { DEFAULT_CLIENT } from '../core/sessionPool.js';
import { createServer } from '../server/createServer.js';
import { LineTransport } from '../server/lineTransport.js';
import { stderrLogger } from '../server/stdioServer.js';
import { loadCatalog } from '../server/toolCatalog.js';
import { fullInputSchema } from '../server/toolListing.js';
import { VERSION } from '../version.js';
import type { DaemonPaths } from './daemonPaths.js';
import { CLIENT_CAPABILITY, DEFAULT_IDLE_MS, INPUT_SCHEMA_METHOD, STATUS_METHOD, STOP_METHOD, type DaemonStatus } from './daemonProtocol.js';

const StatusRequest = z.object({ method: z.literal(STATUS_METHOD) });
const StopRequest = z.object({ method: z.literal(STOP_METHOD) });
const ClientCapability = z.object({ key: z.string().min(1), tag: z.string().min(1) });
const InputSchemaRequest = z.object({ method: z.literal(INPUT_SCHEMA_METHOD), params: z.object({ name: z.string() }) });

/** The client a command named (clientKey.ts); one that names none shares the default client. */
function clientFrom(capability: unknown): SessionClient {
  const parsed = ClientCapability.safeParse(capability);
  return parsed.success ? parsed.data : DEFAULT_CLIENT;
}

/** Serves on `listener`, which listens on the daemon's socket, until the daemon stops. */
export function serveDaemon(listener: Server, paths: DaemonPaths): void {
  const log = stderrLogger((process.env.DEBUGBRIDGE_LOG as never) ?? 'info');
  const idleMs = Number(process.env.DEBUGBRIDGE_DAEMON_IDLE_MS) || DEFAULT_IDLE_MS;
  const startedAt = Date.now();
  // Nothing is readied ahead: the daemon serves many folders, and each engine readies its next
  // launch after a session of its own (core/readiness.ts).
  const manager = new SessionManager({ log, registry: new EngineRegistry() });
  const catalog = loadCatalog(VERSION);
  const clients = new Set<Socket>();
  let lastClientAt = Date.now();

  const status = (client?: SessionClient): DaemonStatus => {
    const every = manager.everyClient();
    const clients = new Map<string, NonNullable<DaemonStatus['clients']>[number]>();
    for (const { session, client: owner, wholeId } of every) {
      const entry = clients.get(owner.key) ?? { ...owner, sessions: [] };
      entry.sessions.push({ id: wholeId, state: session.state, language: session.config.language, program: session.config.program });
      clients.set(owner.key, entry);
    }
    return {
      pid: process.pid,
      version: VERSION,
      startedAt,
      socket: paths.socket,
      sessions: every.length,
      activeSessions: every.filter((e) => e.session.active).length,
      idleShutdownMs: idleMs,
      client,
      clients: [...clients.values()],
    };
  };

  let stopping: Promise<void> | undefined;
  const stop = (why: string) =>
    (stopping ??= (async () => {
      log('info', `daemon stopping: ${why}`);
      setTimeout(() => process.exit(0), 10_000).unref();
      // Closing removes the socket file (libuv unlinks it before closing it), so from here on a
      // command starts a new daemon instead of connecting to this one.
      listener.close();
      for (const socket of clients) socket.destroy();
      await manager.disposeAll();
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
    // Each command says which client it is when it initializes; its tools see that client's sessions.
    let client: SessionClient | undefined;
    const clientOf = (): SessionClient => {
      const capabilities = server.server.getClientCapabilities();
      if (client || !capabilities) return client ?? DEFAULT_CLIENT;
      return (client = clientFrom(capabilities.experimental?.[CLIENT_CAPABILITY]));
    };
    const server = createServer(manager.forClient(clientOf), VERSION, catalog?.tools);
    server.server.setRequestHandler(StatusRequest, () => status(clientOf()));
    server.server.setRequestHandler(InputSchemaRequest, (request) => ({ inputSchema: fullInputSchema(server, request.params.name) ?? {} }));
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
}
