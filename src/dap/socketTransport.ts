import { connect, type Socket } from 'node:net';
import { StreamTransport } from './dapTransport.js';

/** DAP over TCP, e.g. to an adapter a program started with `debugpy --listen`. */
export class SocketTransport extends StreamTransport {
  private constructor(socket: Socket, description: string) {
    super(socket, socket, description, () => socket.destroy());
    socket.on('close', () => this.finish(new Error(`${description} closed`)));
    socket.on('error', (error) => this.finish(error));
  }

  static connect(host: string, port: number, timeoutMs: number): Promise<SocketTransport> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, noDelay: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer from ${host}:${port} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new SocketTransport(socket, `tcp ${host}:${port}`));
      });
    });
  }

  /** DAP over a connection made already (a port probe's, engines/debugPort.ts). */
  static adopt(socket: Socket, description: string): SocketTransport {
    socket.setNoDelay(true);
    // The probe paused it; it flows again once the reader listens, so no byte is read with no one to take it.
    const resumeForReader = (event: string | symbol) => {
      if (event !== 'data') return;
      socket.off('newListener', resumeForReader);
      queueMicrotask(() => socket.resume());
    };
    socket.on('newListener', resumeForReader);
    return new SocketTransport(socket, description);
  }

  /** Connects, retrying while nothing listens yet (a just-started or injected adapter opens its port late). */
  static async connectWhenListening(host: string, port: number, timeoutMs: number): Promise<SocketTransport> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await SocketTransport.connect(host, port, Math.max(deadline - Date.now(), 1));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ECONNREFUSED' || Date.now() >= deadline) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}
