/**
 * The debugpy adapter as our child process, started through our bootstrap, speaking DAP on
 * stdio. Ending it ends everything it started (launcher, debuggee).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { StdioTransport } from '../../dap/stdioTransport.js';
import { ADAPTER_BOOTSTRAP } from './adapterBootstrap.js';
import type { PythonInterpreter } from './interpreter.js';
import { descendantsOf, endProcesses } from './processTree.js';

export interface AdapterOptions {
  /** Off only to measure what the socket tuning buys (bench). */
  socketTuning: boolean;
}

export class AdapterProcess {
  readonly transport: StdioTransport;
  private readonly child: ChildProcess;

  constructor(interpreter: PythonInterpreter, options: AdapterOptions) {
    const args = ['-c', ADAPTER_BOOTSTRAP];
    if (!options.socketTuning) args.push('--no-socket-tuning');
    this.child = spawn(interpreter.executable, args, { stdio: 'pipe', windowsHide: true });
    this.transport = new StdioTransport(this.child, 'debugpy adapter');
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Every process the adapter started, still alive now (launcher, debuggee, …). */
  descendants(): number[] {
    return this.child.pid ? descendantsOf(this.child.pid) : [];
  }

  /**
   * Ends the adapter and the given processes (SIGTERM, then SIGKILL); resolves when all are gone.
   * Without `withDescendants` the launcher and a detached debuggee are left running.
   */
  async end(alsoEnd: number[], { withDescendants }: { withDescendants: boolean }): Promise<void> {
    this.transport.close();
    const pids = withDescendants ? [...alsoEnd, ...this.descendants()] : [...alsoEnd];
    if (this.child.pid && this.child.exitCode === null && this.child.signalCode === null) pids.push(this.child.pid);
    await endProcesses(pids);
  }
}
