/**
 * The server's .NET worker: one process per server, started on the first Edit and Continue or
 * compiled evaluation and kept for the next (Roslyn warms up once), speaking one JSON message a line
 * with request ids, so several sessions' requests can be in flight. The server asks, the worker
 * answers bytes; it never calls back. It ends when its stdin closes, so it never outlives the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DebugError } from '../../../core/errors.js';
import { canRestorePriority, restorePriority, startAtLowPriority } from '../../../core/processPriority.js';
import { killedWithUs } from '../../../core/parentDeathSignal.js';
import type { UpdateRequest, UpdateResult } from './encProtocol.js';
import type { CompileRequest, CompileResult } from './evalProtocol.js';
import { ensureWorkerBuilt, isWorkerBuilt } from './workerBuild.js';

const STDERR_LINES = 40;
/** How long an apply waits for the worker's first build before answering that it is under way (a tool call has 60 s). */
const BUILD_WAIT_MS = 40_000;
/** An evaluation answers sooner: it is bounded by the debugger host's request (25 s). */
const EVAL_BUILD_WAIT_MS = 10_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface WorkerTimings {
  /** Building the worker (first use of these sources on this machine). */
  buildMs?: number;
  /** Starting its process (Roslyn not loaded yet). */
  startMs?: number;
}

export class EncWorker {
  private static instance?: EncWorker;
  private process?: ChildProcess;
  private starting?: Promise<ChildProcess>;
  private readonly pending = new Map<number, Pending>();
  private readonly stderr: string[] = [];
  /** The build of the worker, which goes on when an apply stops waiting for it. */
  private building?: Promise<string>;
  private nextId = 1;
  /** Started by a prestart at idle priority, and not yet given a real request. */
  private lowered = false;
  /** The prestart's warm-up, while it runs. */
  private warming?: Promise<void>;
  /** Launches under way (giveWay), a warming worker stopped meanwhile, a prestart waiting for them. */
  private launches = 0;
  private held = false;
  private prestartAfterLaunches?: string;
  /** Started under `setpriv --pdeathsig`: the kernel kills it when the server dies. */
  private diesWithUs = false;
  readonly timings: WorkerTimings = {};

  /** The server's one worker. */
  static shared(): EncWorker {
    EncWorker.instance ??= new EncWorker();
    return EncWorker.instance;
  }

  /** Whether its process runs (so a session's state there is worth ending). */
  get running(): boolean {
    return !!this.process && this.process.exitCode === null && this.process.signalCode === null;
  }

  update(dotnet: string, request: UpdateRequest, timeoutMs: number): Promise<UpdateResult> {
    return this.request(dotnet, 'enc.update', request, timeoutMs) as Promise<UpdateResult>;
  }

  /**
   * Compiles an expression for a stopped frame. Not answering in time is no sign of a wedged worker
   * here (the first compile loads Roslyn and the framework's metadata): it is left to finish and warm.
   */
  compile(dotnet: string, request: CompileRequest, timeoutMs: number): Promise<CompileResult> {
    return this.request(dotnet, 'eval.compile', request, timeoutMs, false) as Promise<CompileResult>;
  }

  /** Starts the worker and has Roslyn compile once, so the first real compile is fast. */
  async warm(dotnet: string): Promise<void> {
    await this.request(dotnet, 'eval.warm', {}, 120_000, false);
  }

  /**
   * Starts and warms the worker ahead of need (a .NET program stopped: an evaluation may follow),
   * when it is built already: building it is left to the first real need.
   */
  prestart(dotnet: string): void {
    if (this.running || this.starting || !isWorkerBuilt() || !canRestorePriority()) return;
    if (this.launches > 0) {
      this.prestartAfterLaunches = dotnet;
      return;
    }
    this.warming = this.warm(dotnet)
      .catch(() => undefined)
      .finally(() => (this.warming = undefined));
  }

  /**
   * A .NET launch under way: a prestarted worker still warming (seconds of CPU loading Roslyn, at
   * idle priority, yet on two cores it slowed a launch to its first stop by ~100 ms) is stopped
   * until the last launch lets it go (the function returned), and a prestart waits for that too.
   * Only a worker the kernel kills with the server is stopped (a stopped one never reads its stdin's end).
   */
  giveWay(): () => void {
    this.launches++;
    // Never one serving a real need (it runs at our priority since): only a prestart still warming.
    if (this.warming && this.lowered && this.diesWithUs && !this.held && this.process?.pid) {
      this.held = signal(this.process.pid, 'SIGSTOP');
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.launches > 0) return;
      this.letGo();
      const dotnet = this.prestartAfterLaunches;
      this.prestartAfterLaunches = undefined;
      if (dotnet) this.prestart(dotnet);
    };
  }

  private letGo(): void {
    if (this.held && this.process?.pid) signal(this.process.pid, 'SIGCONT');
    this.held = false;
  }

  async commit(dotnet: string, session: string): Promise<void> {
    await this.request(dotnet, 'enc.commit', { session }, 30_000);
  }

  async discard(dotnet: string, session: string): Promise<void> {
    await this.request(dotnet, 'enc.discard', { session }, 30_000);
  }

  /** Forgets a session's workspace (nothing to do when the worker is not running). */
  async end(session: string): Promise<void> {
    if (!this.running) return;
    const ended = this.request('', 'enc.end', { session }, 10_000).catch(() => undefined);
    // A worker stopped for a launch (giveWay) answers once it goes on: the session's end need not wait.
    if (!this.held) await ended;
  }

  private async request(dotnet: string, method: string, params: unknown, timeoutMs: number, killOnTimeout = true): Promise<unknown> {
    const child = await this.start(dotnet, method);
    // A real need goes on at once, at the server's priority, whatever launch is under way; a warm-up
    // and a session's end (which the worker answers between two steps of its warm-up) are none.
    const realNeed = method !== 'eval.warm' && method !== 'enc.end';
    if (realNeed) this.letGo();
    if (this.lowered && realNeed && child.pid) {
      this.lowered = false;
      restorePriority([child.pid]);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // A worker that does not answer is restarted for the next request: its state is lost.
        if (killOnTimeout) child.kill('SIGKILL');
        reject(new DebugError('TIMEOUT', `the .NET worker did not answer ${method} within ${timeoutMs} ms`, 'Try again; the worker restarts.'));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      child.stdin!.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  private start(dotnet: string, method: string): Promise<ChildProcess> {
    if (this.running) return Promise.resolve(this.process!);
    this.starting ??= this.launch(dotnet, method).finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async launch(dotnet: string, method: string): Promise<ChildProcess> {
    if (!dotnet) throw new DebugError('ENGINE_UNAVAILABLE', 'the .NET worker is not running');
    const built = Date.now();
    this.building ??= ensureWorkerBuilt(dotnet).finally(() => {
      this.timings.buildMs ??= Date.now() - built;
    });
    this.building.catch(() => (this.building = undefined));
    let waited: NodeJS.Timeout | undefined;
    const dll = await Promise.race([
      this.building,
      new Promise<never>((_, reject) => {
        waited = setTimeout(
          () =>
            reject(
              method.startsWith('eval.')
                ? new DebugError(
                    'TIMEOUT',
                    'the .NET worker that compiles C# expressions (Roslyn) is being built with the SDK for the first time on this machine (a minute or two, once)',
                    'Evaluate it again in a minute: the build goes on meanwhile.',
                  )
                : new DebugError(
                    'TIMEOUT',
                    'the .NET worker that computes C# edits (Roslyn) is being built with the SDK for the first time on this machine (a minute or two, once); nothing was applied',
                    'Call session_apply_changes again in a minute: the build goes on meanwhile.',
                  ),
            ),
          method.startsWith('eval.') ? EVAL_BUILD_WAIT_MS : BUILD_WAIT_MS,
        );
        waited.unref();
      }),
    ]).finally(() => clearTimeout(waited));
    const started = Date.now();
    const { command, args } = killedWithUs(dotnet, [dll]);
    this.diesWithUs = command !== dotnet;
    const spawnWorker = () =>
      spawn(command, args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_TieredPGO: '0', DOTNET_TC_QuickJitForLoops: '1' },
      });
    // Only a prestart warms: a worker started for it runs at idle priority until a real need.
    const { started: child, lowered } = method === 'eval.warm' ? startAtLowPriority(spawnWorker) : { started: spawnWorker(), lowered: false };
    this.lowered = lowered;
    child.on('error', () => undefined);
    // An idle worker must not keep the server alive; its stdin closing (the server gone) ends it.
    child.unref();
    for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    createInterface({ input: child.stdout! }).on('line', (line) => this.answer(line));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      this.stderr.push(line);
      if (this.stderr.length > STDERR_LINES) this.stderr.shift();
    });
    child.once('exit', (code, signal) => {
      if (this.process === child) {
        this.process = undefined;
        this.held = false;
      }
      const error = new DebugError('INTERNAL', `the .NET worker ended (${signal ?? `exit code ${code}`})${this.stderr.length ? `:\n${this.stderr.slice(-5).join('\n')}` : ''}`, 'Try again; the worker restarts.');
      for (const [id, waiter] of this.pending) {
        clearTimeout(waiter.timer);
        waiter.reject(error);
        this.pending.delete(id);
      }
    });
    this.process = child;
    process.once('exit', () => child.kill('SIGKILL'));
    this.timings.startMs ??= Date.now() - started;
    return child;
  }

  private answer(line: string): void {
    let message: { id: number; result?: unknown; error?: { code: string; message: string } };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    this.pending.delete(message.id);
    clearTimeout(waiter.timer);
    if (message.error) waiter.reject(new DebugError('INTERNAL', `the .NET worker: ${message.error.message} (${message.error.code})`));
    else waiter.resolve(message.result);
  }
}

function signal(pid: number, name: 'SIGSTOP' | 'SIGCONT'): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // it ended meanwhile
  }
}
