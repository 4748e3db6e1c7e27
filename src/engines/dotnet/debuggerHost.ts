/**
 * The server's side of the .NET debugger host (debuggerHostMain.ts): a NativeSession whose calls
 * run in the host process. When a session ends the next host is started, so the next launch does not
 * wait for a Node.js process to boot.
 *
 * The resume byte: the native launch handshake writes one byte to release the suspended debuggee
 * once the startup semaphores exist. The debuggee's resume pipe belongs to this process, so the host
 * writes the byte to a pipe of ours (its fd 3) and we pass it on, in order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { NativeError, type NativeSession } from './addon.js';

const HOST_MAIN = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../../../dist/engines/dotnet/debuggerHostMain.js' : './debuggerHostMain.js', import.meta.url),
);
const CLOSE_GRACE_MS = 3_000;

type HostMessage = { event: string } | { id: number; result: string } | { id: number; error: { message: string; code: string; hresult: number } };

let spare: ChildProcess | undefined;

function startHost(): ChildProcess {
  const host = spawn(process.execPath, [HOST_MAIN], { stdio: ['ignore', 'ignore', 'inherit', 'pipe', 'ipc'] });
  // A waiting host must not keep this process alive; it exits when we do (IPC disconnect).
  host.unref();
  host.channel?.unref();
  (host.stdio[3] as Readable & { unref?: () => void }).unref?.();
  host.on('error', () => undefined);
  return host;
}

function usable(host: ChildProcess | undefined): boolean {
  return !!host && host.exitCode === null && host.signalCode === null && host.connected;
}

/** A ready host if there is one, else a new one. */
function takeHost(): ChildProcess {
  const host = spare && usable(spare) ? spare : startHost();
  spare = undefined;
  return host;
}

/**
 * Readies the next host when a session ends: booting it while a program starts or runs would take
 * the CPU from it (measured: the ready host makes a launch → exit as fast as in-process).
 */
function prepareSpare(): void {
  if (!spare || !usable(spare)) spare = startHost();
}

function hostGone(code: number | null, signal: NodeJS.Signals | null): NativeError {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  return new NativeError(`the .NET debugger process ${how}`, { code: 'HOST_EXITED', hresult: 0 });
}

export class HostedSession implements NativeSession {
  private readonly host: ChildProcess;
  private readonly pending = new Map<number, { resolve: (json: string) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private closing = false;

  /** `resumeFd`: the launched debuggee's resume pipe (launch only). */
  constructor(onEvent: (json: string) => void, resumeFd?: number) {
    this.host = takeHost();
    this.host.on('message', (message: HostMessage) => {
      if ('event' in message) return onEvent(message.event);
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if ('error' in message) waiter.reject(new NativeError(message.error.message, message.error));
      else waiter.resolve(message.result);
    });
    this.host.once('exit', (code, signal) => {
      const error = hostGone(code, signal);
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
      if (!this.closing) onEvent(JSON.stringify({ event: 'hostExited', code, signal }));
    });
    relayResume(this.host.stdio[3] as Readable, resumeFd);
  }

  attachAtStartup(options: Parameters<NativeSession['attachAtStartup']>[0]) {
    return this.call('attachAtStartup', options);
  }
  attachRunning(options: Parameters<NativeSession['attachRunning']>[0]) {
    return this.call('attachRunning', options);
  }
  configure(options: Parameters<NativeSession['configure']>[0]) {
    return this.call('configure', options);
  }
  continue() {
    return this.call('continue');
  }
  pause(timeoutMs: number) {
    return this.call('pause', timeoutMs);
  }
  threads(timeoutMs: number) {
    return this.call('threads', timeoutMs);
  }
  detach(timeoutMs: number) {
    return this.call('detach', timeoutMs);
  }

  async close(): Promise<string> {
    this.closing = true;
    prepareSpare();
    const killer = setTimeout(() => this.host.kill('SIGKILL'), CLOSE_GRACE_MS);
    killer.unref();
    try {
      return await this.call('close');
    } catch {
      return '{}';
    }
  }

  private call(method: keyof NativeSession, ...args: unknown[]): Promise<string> {
    const host = this.host;
    if (!usable(host)) return Promise.reject(hostGone(this.host.exitCode, this.host.signalCode));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      host.send({ id, method, args });
    });
  }
}

/** Passes the host's resume byte on to the debuggee; the host closing without it ends the debuggee. */
function relayResume(relay: Readable, resumeFd: number | undefined): void {
  if (resumeFd === undefined) return;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    closeSync(resumeFd);
  };
  relay.on('data', (chunk: Buffer) => {
    if (open && chunk.includes(0x67 /* 'g' */)) {
      writeSync(resumeFd, 'g');
      close();
    }
  });
  relay.on('end', close);
  relay.on('close', close);
  relay.on('error', close);
}
