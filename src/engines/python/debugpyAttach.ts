/**
 * Where an attach finds debugpy: the host and port a program started with `debugpy --listen`
 * listens on (over the connection a port probe made there, when it made one: debugpy takes no
 * second client), or a running Python process (by pid) that debugpy is injected into first.
 */
import { DebugError } from '../../core/errors.js';
import type { AttachConfig } from '../../core/types.js';
import type { DapTransport } from '../../dap/dapTransport.js';
import { SocketTransport } from '../../dap/socketTransport.js';
import { takeHeldConnection } from '../debugPort.js';

/** `inject` puts debugpy into process `pid` and answers the port it listens on. */
export async function connectToDebugpy(config: AttachConfig, inject: (pid: number) => Promise<number>): Promise<DapTransport> {
  let host = config.host ?? '127.0.0.1';
  let port = config.port;
  if (port === undefined) {
    if (config.pid === undefined) {
      throw new DebugError('INVALID_ARGUMENT', 'Attaching to Python needs a port (or a pid).', 'Give the host and port the program listens on with `debugpy --listen`.');
    }
    port = await inject(config.pid);
    host = '127.0.0.1';
  }
  const probed = takeHeldConnection(host, port);
  if (probed) return SocketTransport.adopt(probed, `tcp ${host}:${port}`);
  try {
    return await SocketTransport.connectWhenListening(host, port, 10_000);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
      throw new DebugError('NOTHING_LISTENING', `Nothing listens on ${host}:${port} (ECONNREFUSED).`, 'Check that the program was started with `python -m debugpy --listen HOST:PORT` and is still running.');
    }
    throw new DebugError(
      'ATTACH_FAILED',
      `Cannot connect to debugpy at ${host}:${port}: ${(e as Error).message}.`,
      'Check that the program was started with `python -m debugpy --listen HOST:PORT` and is still running.',
    );
  }
}
