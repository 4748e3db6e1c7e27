/**
 * The proxy's own messages: always to stderr, and to the client as MCP logging notifications
 * once it is initialised, at or above the level it asked for with `logging/setLevel`.
 */
import { notificationLine } from './jsonRpc.js';

const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof levels)[number];

export const loggerName = 'debugbridge-reload';

export class ReloadLog {
  private clientLevel: LogLevel = 'info';
  private toClient: ((line: Buffer) => void) | undefined;

  /** From now on messages also go to the client. */
  connectClient(send: (line: Buffer) => void): void {
    this.toClient = send;
  }

  setClientLevel(level: unknown): void {
    if (levels.includes(level as LogLevel)) this.clientLevel = level as LogLevel;
  }

  info(text: string): void {
    this.log('info', text);
  }

  warning(text: string): void {
    this.log('warning', text);
  }

  error(text: string): void {
    this.log('error', text);
  }

  private log(level: LogLevel, text: string): void {
    process.stderr.write(`[${loggerName}] ${level}: ${text}\n`);
    if (this.toClient && levels.indexOf(level) >= levels.indexOf(this.clientLevel)) {
      this.toClient(notificationLine('notifications/message', { level, logger: loggerName, data: text }));
    }
  }
}
