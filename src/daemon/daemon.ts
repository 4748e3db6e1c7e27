/**
 * `debugbridge daemon run`, started on first use by `debugbridge call`: claims the daemon's socket,
 * then serves the sessions on it (daemonServer.ts). Commands that come at the same moment each
 * start a daemon; exactly one gets the socket, the others exit before loading the server, and
 * every command connects to the one that won.
 *
 * Who gets the socket is decided under the startup lock (startupLock.ts), held from the check of
 * the socket until the winner listens: while it is held no other daemon can bind or remove the
 * socket file, so a file that nobody answers on is one a killed daemon left, and is replaced.
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer as createSocketServer, type Server } from 'node:net';
import { daemonPaths, ensurePrivateDir, type DaemonPaths } from './daemonPaths.js';
import { connectError } from './daemonProtocol.js';
import { takeLock } from './startupLock.js';

export class AlreadyRunning extends Error {}

/** Runs the daemon until it stops (the process exits then); throws AlreadyRunning when another one has the socket. */
export async function runDaemon(paths: DaemonPaths = daemonPaths()): Promise<number> {
  ensurePrivateDir(paths.dir);
  await whileOwningSocket(paths, async () => {
    // Loaded only by the daemon that won: it is most of a daemon's start-up time.
    const { serveDaemon } = await import('./daemonServer.js');
    const listener = createSocketServer();
    await listen(listener, paths.socket);
    // Synchronously after listening: a connection is an I/O event and cannot come before this.
    serveDaemon(listener, paths);
  });
  return new Promise<number>(() => undefined); // the listener keeps the process alive until it stops
}

/** Runs `start` with the socket path free for this daemon and no other daemon able to take it meanwhile. */
async function whileOwningSocket(paths: DaemonPaths, start: () => Promise<void>): Promise<void> {
  // A named pipe goes with the process that made it, and making one that exists fails (EADDRINUSE).
  if (process.platform === 'win32') return start();
  const lock = takeLock(paths.lock);
  if ('holder' in lock) throw new AlreadyRunning(`another debugbridge daemon (pid ${lock.holder}) is starting on ${paths.socket}`);
  try {
    const error = await connectError(paths.socket);
    // EAGAIN: a live daemon whose queue of connections is full.
    if (error === undefined || error === 'EAGAIN') throw new AlreadyRunning(`a debugbridge daemon already listens on ${paths.socket}`);
    if (error === 'ECONNREFUSED') rmSync(paths.socket, { force: true }); // left by a daemon that was killed
    await start();
  } finally {
    lock.release();
  }
}

function listen(server: Server, socket: string): Promise<void> {
  // Nobody else may connect, not even between creating the socket and the chmod after it.
  const umask = process.platform === 'win32' ? undefined : process.umask(0o177);
  return new Promise<void>((resolve, reject) => {
    const fail = (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new AlreadyRunning(`a debugbridge daemon already listens on ${socket}`) : e);
    server.once('error', fail);
    server.listen(socket, () => {
      server.off('error', fail);
      if (umask !== undefined) chmodSync(socket, 0o600);
      resolve();
    });
  }).finally(() => {
    if (umask !== undefined) process.umask(umask);
  });
}
