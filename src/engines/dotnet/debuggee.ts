/**
 * A launched debuggee's pipes: stdout/stderr as output, and the keeper's status pipe that carries the
 * exec error or the wait status (the debuggee is the keeper's child, so mscordbi cannot reap it first).
 */
import { Socket } from 'node:net';
import { constants } from 'node:os';
import type { DotnetAddon, SpawnedDebuggee } from './addon.js';

export interface ExitStatus {
  exitCode?: number;
  signal?: string;
  /** errno of a failed exec (or -1 when the launch was cancelled before exec). */
  execErrno?: number;
}

// The first name of a number wins: SIGABRT, not its alias SIGIOT.
const signalNames = new Map<number, string>(Object.entries(constants.signals).reverse().map(([name, n]) => [n, name]));

function decodeWaitStatus(status: number): ExitStatus {
  if (status === -1) return {};
  const termSig = status & 0x7f;
  if (termSig === 0) return { exitCode: (status >> 8) & 0xff };
  return { signal: signalNames.get(termSig) ?? `signal ${termSig}`, exitCode: 128 + termSig };
}

export class Debuggee {
  readonly pid: number;
  /** Settles when the keeper reported how the debuggee ended (or the status pipe closed). */
  readonly exited: Promise<ExitStatus>;
  /** Settles when stdout and stderr reached end of file. */
  readonly outputDone: Promise<void>;
  private status: ExitStatus | undefined;
  private readonly sockets: Socket[] = [];

  constructor(
    private readonly addon: DotnetAddon,
    private readonly spawned: SpawnedDebuggee,
    onOutput: (category: 'stdout' | 'stderr', text: string) => void,
  ) {
    this.pid = spawned.pid;
    const open = (fd: number): Socket => {
      const socket = new Socket({ fd, readable: true, writable: false });
      this.sockets.push(socket);
      return socket;
    };
    const streamDone = (fd: number, category: 'stdout' | 'stderr'): Promise<void> =>
      new Promise((resolve) => {
        const socket = open(fd);
        socket.setEncoding('utf8');
        socket.on('data', (text: string) => onOutput(category, text));
        socket.on('end', resolve);
        socket.on('close', resolve);
        socket.on('error', resolve);
      });
    this.outputDone = Promise.all([streamDone(spawned.stdoutFd, 'stdout'), streamDone(spawned.stderrFd, 'stderr')]).then(() => {});
    this.exited = new Promise((resolve) => {
      const socket = open(spawned.statusFd);
      let buffer = Buffer.alloc(0);
      let result: ExitStatus = {};
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        while (buffer.length >= 5) {
          const tag = String.fromCharCode(buffer[0]!);
          const value = buffer.readInt32LE(1);
          buffer = buffer.subarray(5);
          if (tag === 'E') result = { ...result, execErrno: value };
          if (tag === 'X') result = { ...decodeWaitStatus(value), ...(result.execErrno !== undefined ? { execErrno: result.execErrno } : {}) };
        }
      });
      const finish = (): void => {
        if (this.status) return;
        this.status = result;
        this.reapKeeper();
        resolve(result);
      };
      socket.on('end', finish);
      socket.on('close', finish);
      socket.on('error', finish);
    });
  }

  get hasExited(): boolean {
    return this.status !== undefined;
  }

  kill(): void {
    if (this.hasExited) return;
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** Closes our ends of the pipes (the debuggee keeps running if it still runs). */
  dispose(): void {
    for (const socket of this.sockets) socket.destroy();
    this.reapKeeper();
  }

  private reapKeeper(): void {
    // The keeper exits right after writing the status; reap it so no zombie is left.
    const tryReap = (attempt: number): void => {
      if (this.addon.reapKeeper(this.spawned.keeperPid) || attempt > 50) return;
      setTimeout(() => tryReap(attempt + 1), 20).unref();
    };
    tryReap(0);
  }
}
