/**
 * Runs the MCP server on stdio. stdout carries protocol frames only; logs go to stderr. Every
 * process a session started is ended when the client goes away or the server is told to stop.
 *
 * Cold start: `initialize` and `tools/list` are answered from the build-time catalog while the MCP
 * SDK, zod and the tools load; the loaded server then takes over every message, in order.
 */
import { initialising } from '../codeCache.js';
import { clientCalls } from '../core/clientCalls.js';
import type { LogLevel } from '../core/engine.js';
import type { EngineRegistry } from '../core/engineRegistry.js';
import type { Readiness } from '../core/readiness.js';
import { ToolCalls } from './callActivity.js';
import { LineTransport } from './lineTransport.js';
import { catalogResponder, loadCatalog } from './toolCatalog.js';

const LEVELS: LogLevel[] = ['debug', 'info', 'warning', 'error'];
/** Load the full server this long after initialize even if the client does not list the tools. */
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
  const calls = new ToolCalls(clientCalls);
  transport.onRequest = (message) => calls.request(message);
  transport.onResponse = (id) => calls.response(id);

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

  // The engine registry and what it readies come first, from a few small modules: readying
  // (core/readiness.ts) waits until the client has what its first call needs, the tool list, and
  // then runs beside the loading of the rest (which blocks this thread for a while), unless a call
  // came meanwhile: then only what that call launches.
  let engines: Promise<{ registry: EngineRegistry; readiness: Readiness }> | undefined;
  // Loading blocks this thread: a message that came meanwhile is still unread (a timer that ran
  // out meanwhile runs before it is read), so the calls are quiet only a while after a load.
  const afterLoading = () => clientCalls.touch();
  const enginesOnce = () =>
    (engines ??= Promise.all([import('../core/engineRegistry.js'), import('../core/readiness.js')]).then(([{ EngineRegistry }, { Readiness }]) => {
      afterLoading();
      const registry = new EngineRegistry();
      return { registry, readiness: new Readiness(registry, calls) };
    }));
  const ready = async () => (await enginesOnce()).readiness.arm(process.cwd());
  let loading: Promise<void> | undefined;
  /**
   * Resolves once the messages that came while a part of the loading blocked are read (an immediate
   * queued by an I/O callback runs before the loop polls again, the one it queues after); the calls
   * were not quiet meanwhile, whatever their timer says.
   */
  const callsRead = () => {
    afterLoading();
    return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
  };
  const load = () =>
    (loading ??= (async () => {
      const { registry } = await enginesOnce();
      // Between its parts, the loading lets a call that came be read: a launch has its runtime readied
      // at once, beside the rest of the loading, instead of after it.
      await callsRead();
      const { SessionManager } = await import('../core/sessionManager.js');
      await callsRead();
      const { createServer } = await import('./createServer.js');
      await callsRead();
      const manager = new SessionManager({ log, registry });
      disposeSessions = () => manager.disposeAll();
      const server = initialising(() => createServer(manager, version, catalog?.tools));
      await callsRead();
      transport.onclose = () => void shutdown('transport closed', 0);
      await server.connect(transport);
      // A client that never lists tools still gets its runtimes readied, a little later.
      setTimeout(() => void ready(), READY_ANYWAY_MS).unref();
    })().catch((e: unknown) => {
      // A server that cannot load must not sit silent while the client waits for answers.
      log('error', `cannot start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exit(1);
    }));
  transport.onEarlyMessage = (message, answered) => {
    if ('method' in message && message.method === 'tools/list') {
      // The list is on its way (stdout is synchronous on pipes): ready what is in play, then load the rest.
      void ready().then(load, load);
    } else if ('method' in message && message.method === 'initialize' && answered) {
      // A client that does not list the tools soon after initialize still finds the server loaded.
      setTimeout(() => void load(), LOAD_AFTER_MS);
    } else if (!answered && 'id' in message) {
      // A request the catalog cannot answer needs the real server: loaded once what that call
      // launches is under way (readying it is a few small modules, then processes on the other
      // core). Notifications wait: loading blocks this thread, and the client's tools/list usually
      // follows its `initialized` at once.
      void ready().then(load, load);
    }
  };
}
