/**
 * Runs the MCP server on stdio. stdout carries protocol frames only; logs go to stderr. Every
 * process a session started is ended when the client goes away or the server is told to stop.
 *
 * Cold start: `initialize` and `tools/list` are answered from the build-time catalog while the MCP
 * SDK, zod and the tools load; the loaded server then takes over every message, in order.
 */
import type { LogLevel } from '../core/engine.js';
import { LineTransport } from './lineTransport.js';
import { catalogResponder, loadCatalog } from './toolCatalog.js';

const LEVELS: LogLevel[] = ['debug', 'info', 'warning', 'error'];
/** Load the full server this long after start even if the client is quiet. */
const LOAD_AFTER_MS = 150;
/** Ready the runtimes in play this long after loading even if the client never lists the tools. */
const READY_ANYWAY_MS = 2_000;

export function stderrLogger(minimum = (process.env.DEBUGBRIDGE_LOG as LogLevel | undefined) ?? 'warning') {
  const floor = Math.max(0, LEVELS.indexOf(minimum));
  return (level: LogLevel, message: string) => {
    if (LEVELS.indexOf(level) >= floor) process.stderr.write(`[debugbridge] ${level}: ${message}\n`);
  };
}

export async function runStdioServer(version: string): Promise<void> {
  const log = stderrLogger();
  const catalog = loadCatalog(version);
  if (!catalog) log('info', 'no current tool catalog (run npm run build): answering through the SDK only');
  const transport = new LineTransport(catalogResponder(catalog));

  let disposeSessions: () => Promise<void> = async () => undefined;
  let closing = false;
  const shutdown = async (why: string, code: number) => {
    if (closing) return;
    closing = true;
    log('info', `shutting down: ${why}`);
    setTimeout(() => process.exit(code), 5000).unref();
    await disposeSessions();
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM', 143));
  process.on('SIGINT', () => void shutdown('SIGINT', 130));
  process.on('SIGHUP', () => void shutdown('SIGHUP', 129));
  process.stdin.on('end', () => void shutdown('client closed stdin', 0));
  process.on('uncaughtException', (e) => log('error', `uncaught: ${e.stack ?? e.message}`));
  process.on('unhandledRejection', (e) => log('error', `unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));

  // Readying (core/readiness.ts) waits until the client has what its first call needs: the tool list.
  let toolsListed = false;
  let arm: (() => void) | undefined;
  const readyWhenListed = () => {
    if (toolsListed) arm?.();
  };
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const [{ EngineRegistry }, { Readiness }, { SessionManager }, { createServer }] = await Promise.all([
        import('../core/engineRegistry.js'),
        import('../core/readiness.js'),
        import('../core/sessionManager.js'),
        import('./createServer.js'),
      ]);
      const registry = new EngineRegistry();
      const readiness = new Readiness(registry);
      arm = () => readiness.arm(process.cwd());
      const manager = new SessionManager({ log, registry });
      disposeSessions = () => manager.disposeAll();
      const server = createServer(manager, version, catalog?.tools);
      transport.onclose = () => void shutdown('transport closed', 0);
      await server.connect(transport);
      readyWhenListed();
      // A client that never lists tools still gets its runtimes readied, a little later.
      setTimeout(() => arm?.(), READY_ANYWAY_MS).unref();
    })().catch((e: unknown) => {
      // A server that cannot load must not sit silent while the client waits for answers.
      log('error', `cannot start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exit(1);
    }));
  transport.onEarlyMessage = (message, answered) => {
    if ('method' in message && message.method === 'tools/list') {
      // The list is on its way (stdout is synchronous on pipes): load the rest now, ready after it.
      toolsListed = true;
      void load().then(readyWhenListed);
    } else if (!answered && 'id' in message) {
      // A request the catalog cannot answer needs the real server. Notifications wait: loading
      // blocks this thread, and the client's tools/list usually follows its `initialized` at once.
      void load();
    }
  };
  setTimeout(() => void load(), LOAD_AFTER_MS);
}
