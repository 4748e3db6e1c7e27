/**
 * A launched debuggee's streams: stdout/stderr as output, and the status stream that carries the exec
 * error or how it ended. POSIX: descriptors of this process, the status written by the keeper process
 * (the debuggee is the keeper's child, so mscordbi cannot reap it first). Windows: named pipes the addon
 * created, the status written by its waiter thread; they must be connected before the debuggee runs
 * (`connected`), since a write to a pipe nobody has opened yet fails.
 */
import { connect, Socket } from 'node:net';
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

/** Windows reports the exit code itself (an unhandled .NET exception is 0xE0434352, read as an int32). */
const decodeStatus = process.platform === 'win32' ? (code: number): ExitStatus => ({ exitCode: code }) : decodeWaitStatus;

/** What a killed debuggee exits with on Windows (as TerminateProcess callers conventionally use). */
const KILLED_EXIT_CODE = 1;

export class Debuggee {
  readonly pid: number;
  /** Settles when the keeper reported how the debuggee ended (or the status stream closed). */
  readonly exited: Promise<ExitStatus>;
  /** Settles when stdout and stderr reached end of file. */
  readonly outputDone: Promise<void>;
  /** Settles when every stream is open (at once on POSIX); rejects when a pipe cannot be opened. */
  readonly connected: Promise<void>;
  private status: ExitStatus | undefined;
  private readonly sockets: Socket[] = [];

  constructor(
    private readonly addon: DotnetAddon,
    private readonly spawned: SpawnedDebuggee,
    onOutput: (category: 'stdout' | 'stderr', text: string) => void,
  ) {
    this.pid = spawned.pid;
    const opening: Promise<void>[] = [];
    const open = (fd: number, pipe: string | undefined): Socket => {
      const socket = pipe ? connect(pipe) : new Socket({ fd, readable: true, writable: false });
      if (pipe) {
        opening.push(
          new Promise((resolve, reject) => {
            socket.once('connect', resolve);
            socket.once('error', reject);
          }),
        );
      }
      this.sockets.push(socket);
      return socket;
    };
    const streamDone = (socket: Socket, category: 'stdout' | 'stderr'): Promise<void> =>
      new Promise((resolve) => {
        socket.setEncoding('utf8');
        socket.on('data', (text: string) => onOutput(category, text));
        socket.on('end', resolve);
        socket.on('close', resolve);
        socket.on('error', resolve);
      });
    const stdout = open(spawned.stdoutFd, spawned.stdoutPipe);
    const stderr = open(spawned.stderrFd, spawned.stderrPipe);
    const status = open(spawned.statusFd, spawned.statusPipe);
    this.connected = Promise.all(opening).then(() => {});
    this.connected.catch(() => undefined);
    this.outputDone = Promise.all([streamDone(stdout, 'stdout'), streamDone(stderr, 'stderr')]).then(() => {});
    this.exited = new Promise((resolve) => {
      let buffer = Buffer.alloc(0);
      let result: ExitStatus = {};
      status.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        while (buffer.length >= 5) {
          const tag = String.fromCharCode(buffer[0]!);
          const value = buffer.readInt32LE(1);
          buffer = buffer.subarray(5);
          if (tag === 'E') result = { ...result, execErrno: value };
          if (tag === 'X') result = { ...decodeStatus(value), ...(result.execErrno !== undefined ? { execErrno: result.execErrno } : {}) };
        }
      });
      const finish = (): void => {
        if (this.status) return;
        this.status = result;
        this.reapKeeper();
        resolve(result);
      };
      status.on('end', finish);
      status.on('close', finish);
      status.on('error', finish);
    });
  }

  get hasExited(): boolean {
    return this.status !== undefined;
  }

  /** Ends the debuggee (on Windows with every process it started: they share its job object). */
  kill(): void {
    if (this.hasExited) return;
    if (this.addon.terminateSpawned) {
      this.addon.terminateSpawned(this.spawned.keeperPid, KILLED_EXIT_CODE);
      return;
    }
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** Closes our ends of the streams (the debuggee keeps running if it still runs). */
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
