/**
 * The debugpy adapter as our child process, started through our bootstrap, speaking DAP on
 * stdio. Ending it ends everything it started (launcher, debuggee).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { StdioTransport } from '../../dap/stdioTransport.js';
import { ADAPTER_BOOTSTRAP } from './adapterBootstrap.js';
import { descendantsOf, endProcesses } from './processTree.js';

export interface AdapterOptions {
  /** Off only to measure what the socket tuning buys (bench). */
  socketTuning: boolean;
}

/** How long the adapter gets to finish by itself once its stdin is closed; it usually takes ~10 ms. */
const SELF_EXIT_GRACE_MS = 1000;

export class AdapterProcess {
  readonly transport: StdioTransport;
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;

  constructor(executable: string, options: AdapterOptions) {
    const args = ['-c', ADAPTER_BOOTSTRAP];
    if (!options.socketTuning) args.push('--no-socket-tuning');
    this.child = spawn(executable, args, { stdio: 'pipe', windowsHide: true });
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
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as const) {
      const refable = handle as { ref?(): void; unref?(): void } | null;
      if (hold) refable?.ref?.();
      else refable?.unref?.();
    }
  }

  /**
   * Closes the adapter's stdin, which ends its session and lets it exit by itself; if it has not
   * within a grace period, ends it (SIGTERM, then SIGKILL), and with `withDescendants` whatever
   * it started. Resolves when it is gone.
   */
  async end({ withDescendants }: { withDescendants: boolean }): Promise<void> {
    this.transport.close();
    if (!this.running) return;
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), SELF_EXIT_GRACE_MS).unref());
    if ((await Promise.race([this.exited, timer])) !== 'late') return;
    const pids = withDescendants ? this.descendants() : [];
    if (this.running) pids.push(this.child.pid!);
    await endProcesses(pids);
  }
}
