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

  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= (async () => {
      const { EngineRegistry } = await import('../core/engineRegistry.js');
      const registry = new EngineRegistry();
      // Finding a Python with debugpy spawns interpreters (and readies an adapter): start it while
      // the SDK loads. Node's engine loads meanwhile, not after it (its first launch would pay for
      // the import and for probing setpriv); .NET's answers at once and would only cost memory unused.
      registry.prewarm(['python']);
      registry.prewarm(['node']);
      const [{ SessionManager }, { createServer }] = await Promise.all([import('../core/sessionManager.js'), import('./createServer.js')]);
      const manager = new SessionManager({ log, registry });
      disposeSessions = () => manager.disposeAll();
      const server = createServer(manager, version, catalog?.tools);
      transport.onclose = () => void shutdown('transport closed', 0);
      await server.connect(transport);
    })().catch((e: unknown) => {
      // A server that cannot load must not sit silent while the client waits for answers.
      log('error', `cannot start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exit(1);
    }));
  // Anything the catalog cannot answer needs the real server; so does a client done listing tools.
  transport.onEarlyMessage = (message, answered) => {
    if (!answered || ('method' in message && message.method === 'tools/list')) void load();
  };
  setTimeout(() => void load(), LOAD_AFTER_MS);
}
