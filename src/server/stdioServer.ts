/**
 * Runs the MCP server on stdio. stdout carries protocol frames only; logs go to stderr. Every
 * process a session started is ended when the client goes away or the server is told to stop.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { LogLevel } from '../core/engine.js';
import { SessionManager } from '../core/sessionManager.js';
import { createServer } from './createServer.js';

const LEVELS: LogLevel[] = ['debug', 'info', 'warning', 'error'];

export function stderrLogger(minimum = (process.env.DEBUGBRIDGE_LOG as LogLevel | undefined) ?? 'warning') {
  const floor = Math.max(0, LEVELS.indexOf(minimum));
  return (level: LogLevel, message: string) => {
    if (LEVELS.indexOf(level) >= floor) process.stderr.write(`[debugbridge] ${level}: ${message}\n`);
  };
}

export async function runStdioServer(version: string): Promise<void> {
  const log = stderrLogger();
  const manager = new SessionManager({ log });
  const server = createServer(manager, version);
  let closing = false;
  const shutdown = async (why: string, code: number) => {
    if (closing) return;
    closing = true;
    log('info', `shutting down: ${why}`);
    const force = setTimeout(() => process.exit(code), 5000);
    force.unref();
    await manager.disposeAll();
    await server.close().catch(() => undefined);
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM', 143));
  process.on('SIGINT', () => void shutdown('SIGINT', 130));
  process.on('SIGHUP', () => void shutdown('SIGHUP', 129));
  process.stdin.on('end', () => void shutdown('client closed stdin', 0));
  process.stdin.on('close', () => void shutdown('client closed stdin', 0));
  process.on('uncaughtException', (e) => log('error', `uncaught: ${e.stack ?? e.message}`));
  process.on('unhandledRejection', (e) => log('error', `unhandled rejection: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
  const transport = new StdioServerTransport();
  transport.onclose = () => void shutdown('transport closed', 0);
  await server.connect(transport);
}
