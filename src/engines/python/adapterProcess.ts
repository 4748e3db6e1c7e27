/**
 * The debugpy adapter as our child process, started through our bootstrap, speaking DAP on
 * stdio. It leads a process session of its own, which the launcher and the debuggee join: ending
 * the session's processes ends everything the adapter started, whatever state it is in, and a
 * guard pipe has the adapter do that itself when our process dies (see sessionGuard.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { StdioTransport } from '../../dap/stdioTransport.js';
import { killedWithUs } from '../../core/parentDeathSignal.js';
import { ADAPTER_BOOTSTRAP } from './adapterBootstrap.js';
import { debuggeePreludeFile } from './debuggeePrelude.js';
import { descendantsOf, endProcesses, killProcesses, sessionMembers } from './processTree.js';

export interface AdapterOptions {
  /** Off only to measure what the socket tuning buys (bench). */
  socketTuning: boolean;
}

/** How long an adapter whose program goes on gets to finish by itself once its stdin is closed. */
const SELF_EXIT_GRACE_MS = 1000;
const POSIX = process.platform !== 'win32';
const GUARD_FD = 3;

export class AdapterProcess {
  readonly transport: StdioTransport;
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;

  constructor(executable: string, options: AdapterOptions) {
    const args = ['-c', ADAPTER_BOOTSTRAP, '--debuggee-prelude', debuggeePreludeFile()];
    if (!options.socketTuning) args.push('--no-socket-tuning');
    if (POSIX) args.push('--guard-fd', String(GUARD_FD));
    // Until its guard runs the kernel ends the adapter with us; the guard then takes over (see sessionGuard.ts).
    const command = killedWithUs(executable, args);
    this.child = spawn(command.command, command.args, { stdio: POSIX ? ['pipe', 'pipe', 'pipe', 'pipe'] : 'pipe', detached: POSIX, windowsHide: true });
    this.guard?.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.once('error', () => resolve());
    });
    this.transport = new StdioTransport(this.child, 'debugpy adapter');
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Every process the adapter started, still alive now (launcher, debuggee, …). */
  descendants(): number[] {
    return this.child.pid ? descendantsOf(this.child.pid) : [];
  }

  /** Whether the adapter keeps our process alive: not while it waits, unused, for a session. */
  holdEventLoop(hold: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr, this.guard] as const) {
      const refable = handle as { ref?(): void; unref?(): void } | null | undefined;
      if (hold) refable?.ref?.();
      else refable?.unref?.();
    }
  }

  /**
   * Closes the adapter's stdin, which ends its session. With `withDescendants` (the program was
   * ended, or never ran) nothing the adapter does from here matters: it and whatever it started are
   * ended at once (SIGTERM, then SIGKILL) — left to exit by itself, its interpreter's shutdown took
   * ~45 ms of every session_stop. Otherwise (the program goes on) it exits by itself, or is ended
   * after a grace period. Resolves when they are gone.
   */
  async end({ withDescendants }: { withDescendants: boolean }): Promise<void> {
    this.transport.close();
    if (withDescendants) {
      const pids = [...this.descendants(), ...this.sessionProcesses()];
      if (this.running) pids.push(this.child.pid!);
      await endProcesses(pids);
      // Started while we looked.
      return endProcesses(this.sessionProcesses());
    }
    if (!this.running) return;
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), SELF_EXIT_GRACE_MS).unref());
    if ((await Promise.race([this.exited, timer])) === 'late' && this.running) await endProcesses([this.child.pid!]);
  }

  /** Ends the adapter and every process of its session now, without a goodbye (a run that never got going). */
  async kill(): Promise<void> {
    this.transport.close();
    this.guard?.destroy();
    const pids = [...this.descendants(), ...this.sessionProcesses()];
    if (this.running) pids.push(this.child.pid!);
    await killProcesses(pids);
    // Started while we looked (the guard in the adapter looks again too).
    await killProcesses(this.sessionProcesses());
  }

  /** The processes left in the adapter's session, also once the adapter itself is gone. */
  private sessionProcesses(): number[] {
    return POSIX && this.child.pid ? sessionMembers(this.child.pid) : [];
  }

  private get guard(): Writable | undefined {
    return (this.child.stdio[GUARD_FD] as Writable | null | undefined) ?? undefined;
  }
}
