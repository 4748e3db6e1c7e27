/**
 * The server's side of the .NET debugger host (host/hostMain.ts): typed requests to the process
 * that runs the debugger, each bounded in time. A request that does not answer in time means the
 * debugger is wedged (ICorDebug's Stop ignores its timeout): the host is killed and the session fails
 * with a clear message, instead of waiting forever. When a session ends the next host is started, so
 * the next launch does not wait for a Node.js process to boot.
 *
 * The resume byte: the native launch handshake writes one byte to release the suspended debuggee
 * once the startup semaphores exist. The debuggee's resume pipe belongs to this process, so the host
 * writes the byte to a pipe of ours (its fd 3) and we pass it on, in order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { DebugError, isDebugError, type ErrorCode } from '../../core/errors.js';
import { restorePriority, startAtLowPriority } from '../../core/processPriority.js';
import { killedWithUs } from '../../core/parentDeathSignal.js';
import { NativeError } from './addon.js';
import type { HostApi, HostCall, HostEvent, HostMessage, HostMethod, ServerAnswer, ServerApi } from './hostProtocol.js';
import { newestCoreLibrary } from './runtimeEnv.js';

/** How the server answers the host's own requests (the worker it shares between sessions). */
export type ServeHost = <M extends keyof ServerApi>(method: M, args: Parameters<ServerApi[M]>) => Promise<Awaited<ReturnType<ServerApi[M]>>>;

// The host bundled into one CommonJS file (scripts/bundle-cli.mjs): it boots without the ES module loader.
const HOST_MAIN = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../../../dist/engines/dotnet/host/hostMain.cjs' : './host/hostMain.cjs', import.meta.url),
);
const CLOSE_GRACE_MS = 3_000;

let spare: { host: ChildProcess; lowered: boolean } | undefined;

/** `readAhead`: files the host reads while it waits for its launch (host/hostMain.ts). */
function startHost(readAhead: string[] = []): ChildProcess {
  // Killed by the kernel when we die: a host busy reading ahead would notice the IPC disconnect late.
  const { command, args } = killedWithUs(process.execPath, [HOST_MAIN, ...readAhead]);
  const host = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit', 'pipe', 'ipc'] });
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

/** A ready host (at our priority from now on) if there is one, else a new one. */
function takeHost(): ChildProcess {
  const taken = spare && usable(spare.host) ? spare : undefined;
  spare = undefined;
  if (!taken) return startHost();
  if (taken.lowered && taken.host.pid) restorePriority([taken.host.pid]);
  return taken.host;
}

/**
 * Readies the next host: when a session ends (booting it while a program starts or runs would take
 * the CPU from it; measured: the ready host makes a launch → exit as fast as in-process), and at low
 * priority when .NET is in play before any session (`lowPriority`).
 */
export function prepareSpareHost(lowPriority = false): void {
  if (spare && usable(spare.host)) return;
  const start = () => startHost(readAheadFiles());
  const { started: host, lowered } = lowPriority ? startAtLowPriority(start) : { started: start(), lowered: false };
  spare = { host, lowered };
}

/** A launch comes that will take the host booting at low priority: our priority from now on. */
export function hurrySpareHost(): void {
  if (!spare?.lowered || !spare.host.pid) return;
  restorePriority([spare.host.pid]);
  spare.lowered = false;
}

/**
 * Starts a host at a launch's start when none waits (the first launch of this process): it boots
 * while the program starts, and reads nothing ahead (the program's runtime waits for it).
 */
export function readyHost(): void {
  if (spare && usable(spare.host)) return;
  spare = { host: startHost(), lowered: false };
}

let coreLibrary: string | undefined | null = null;

/** The framework's names every first stop reads (the newest runtime's System.Private.CoreLib), found once. */
function readAheadFiles(): string[] {
  if (coreLibrary === null) coreLibrary = newestCoreLibrary();
  return coreLibrary ? [coreLibrary] : [];
}

type Result<M extends HostMethod> = Awaited<ReturnType<HostApi[M]>>;

export class HostConnection {
  private readonly host: ChildProcess;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private closing = false;
  /** Why the host was ended by us (a wedged request), for the failure the session reports. */
  private killedBecause?: string;

  /** `resumeFd`: the launched debuggee's resume pipe (launch only); `serve`: answers the host's requests. */
  constructor(
    onEvent: (event: HostEvent) => void,
    resumeFd?: number,
    private readonly serve?: ServeHost,
  ) {
    this.host = takeHost();
    this.host.on('message', (message: HostMessage) => {
      if ('event' in message) return onEvent(message.event);
      if ('call' in message) return this.answerHost(message);
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if ('error' in message) {
        const e = message.error;
        waiter.reject(e.native ? new NativeError(e.message, { code: e.code, hresult: e.hresult ?? 0 }) : new DebugError(e.code as ErrorCode, e.message, e.hint));
      } else {
        waiter.resolve(message.result);
      }
    });
    this.host.once('exit', (code, signal) => {
      const error = this.gone(code, signal);
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
      if (!this.closing) onEvent({ type: 'error', message: error.message });
    });
    relayResume(this.host.stdio[3] as Readable, resumeFd);
  }

  /** One request to the debugger; past `timeoutMs` the host is killed and the request fails. Native failures reject as NativeError. */
  request<M extends HostMethod>(method: M, args: Parameters<HostApi[M]>, timeoutMs: number): Promise<Result<M>> {
    const host = this.host;
    if (!usable(host)) return Promise.reject(this.gone(host.exitCode, host.signalCode));
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.killedBecause = `the .NET debugger did not answer ${method} within ${timeoutMs} ms and was stopped`;
        host.kill('SIGKILL');
      }, timeoutMs);
      timer.unref();
      const settle = <T>(finish: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        if (this.pending.size === 0) host.channel?.unref();
        finish(v);
      };
      this.pending.set(id, { resolve: settle((v) => resolve(v as Result<M>)), reject: settle(reject) });
      // An answer we wait for keeps this process alive; an idle host does not.
      host.channel?.ref();
      host.send({ id, method, args }, undefined, undefined, () => undefined);
    });
  }

  private answerHost({ call, method, args }: HostCall): void {
    const reply = (answer: ServerAnswer) => {
      if (usable(this.host)) this.host.send(answer, undefined, undefined, () => undefined);
    };
    const work = this.serve ? this.serve(method, args as never) : Promise.reject(new DebugError('UNSUPPORTED', `the server does not answer ${method}`));
    work.then(
      (result) => reply({ answer: call, result: result ?? null }),
      (e: unknown) => reply({ answer: call, error: isDebugError(e) ? { message: e.message, code: e.code, native: false, hint: e.hint } : { message: String((e as Error)?.message ?? e), code: 'INTERNAL', native: false } }),
    );
  }

  /** `now`: the debugger is mid-start (blocked in the runtime handshake): end its process at once. */
  async close(now = false): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    prepareSpareHost();
    if (now) {
      this.host.kill('SIGKILL');
      return;
    }
    const killer = setTimeout(() => this.host.kill('SIGKILL'), CLOSE_GRACE_MS);
    killer.unref();
    await this.request('close', [], CLOSE_GRACE_MS).catch(() => undefined);
  }

  private gone(code: number | null, signal: NodeJS.Signals | null): DebugError {
    if (this.killedBecause) return new DebugError('TIMEOUT', this.killedBecause, 'The session has ended; launch the program again.');
    return new DebugError(
      'INTERNAL',
      `the .NET debugger process ended unexpectedly (${signal ?? `exit code ${code}`})`,
      'The session has ended; launch the program again.',
    );
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
      try {
        writeSync(resumeFd, 'g');
      } catch {
        // EPIPE: the debuggee is already gone (a launch that timed out ended it); nothing to resume.
      }
      close();
    }
  });
  relay.on('end', close);
  relay.on('close', close);
  relay.on('error', close);
}
