/**
 * One run of the MCP server: spawned without a shell, stdin/stdout piped and split into lines,
 * stderr passed through. `exited` settles once the process is gone and its stdout drained, so
 * every answer it managed to write has been handed on before anyone calls its requests lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LineSplitter } from './lineSplitter.js';
import { ownGroup, signalGroup } from './processGroup.js';

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the command could not be started at all (e.g. ENOENT). */
  spawnError?: Error;
}

/** Grandchildren may keep the stdout pipe open after the server itself exited. */
const stdoutDrainCapMs = 500;

export class ServerProcess {
  readonly exited: Promise<ServerExit>;
  private readonly child: ChildProcess;
  private stopping: Promise<ServerExit> | undefined;

  constructor(command: string, args: string[], onLine: (line: Buffer) => void) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], detached: ownGroup, windowsHide: true });
    // A server that dies while we write to it must not take the proxy with it (EPIPE).
    this.child.stdin!.on('error', () => {});
    const splitter = new LineSplitter(onLine);
    const stdoutDone = new Promise<void>((resolve) => {
      this.child.stdout!.on('data', (chunk: Buffer) => splitter.push(chunk));
      this.child.stdout!.on('error', () => resolve());
      this.child.stdout!.on('close', () => {
        splitter.end();
        resolve();
      });
    });
    this.exited = new Promise<ServerExit>((resolve) => {
      this.child.once('error', (error) => {
        if (this.child.pid === undefined) resolve({ code: null, signal: null, spawnError: error });
      });
      this.child.once('exit', (code, signal) => {
        const drained = Promise.race([stdoutDone, new Promise((r) => setTimeout(r, stdoutDrainCapMs).unref())]);
        void drained.then(() => resolve({ code, signal }));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  write(line: Buffer): void {
    if (this.child.stdin!.writable) this.child.stdin!.write(Buffer.concat([line, newline]));
  }

  /** Closes stdin and sends SIGTERM (the MCP stdio shutdown), then SIGKILL after `killTimeoutMs`. */
  stop(killTimeoutMs: number): Promise<ServerExit> {
    this.stopping ??= this.terminate(killTimeoutMs);
    return this.stopping;
  }

  private async terminate(killTimeoutMs: number): Promise<ServerExit> {
    const pid = this.child.pid;
    if (pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null) return this.exited;
    this.child.stdin!.end();
    signalGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), killTimeoutMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }
}

const newline = Buffer.from('\n');

export function describeExit(exit: ServerExit): string {
  if (exit.spawnError) return `could not be started (${exit.spawnError.message})`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}
