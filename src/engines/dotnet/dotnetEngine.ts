/**
 * The .NET engine as the server sees it: it starts the program (suspended, so the debugger attaches
 * before any managed code runs), owns its output and exit status, and hands every debugging request
 * to the debugger host process (host/dotnetDebugger.ts), where symbols, breakpoints, stacks and steps
 * are handled beside ICorDebug. Every request is bounded in time.
 */
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent, LiveEditRequest, LiveEditResult } from '../../core/engine.js';
import { DebugError, type ErrorCode } from '../../core/errors.js';
import type {
  AttachConfig,
  BreakpointBinding,
  BreakpointSpec,
  EngineCapabilities,
  EvaluateResult,
  ExceptionBreakpointConfig,
  ExceptionInfo,
  FrameInfo,
  FunctionBreakpointSpec,
  LaunchConfig,
  LaunchResult,
  ScopeInfo,
  StepKind,
  PendingTaskReport,
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from '../../core/types.js';
import { loadAddon, type DotnetAddon } from './addon.js';
import { dotnetCapabilities } from './capabilities.js';
import { Debuggee, type ExitStatus } from './debuggee.js';
import { applyDotnetChanges } from './dotnetLiveEdit.js';
import { HostConnection, readyHost } from './debuggerHost.js';
import type { ConditionStats, HostApi, HostEvent, HostMethod, StartOptions } from './hostProtocol.js';
import { fromNative, withTimeout } from './nativeErrors.js';
import { explainLaunchFailure } from './launchFailure.js';
import { resolveExecutable } from './program.js';
import { serveHost } from './serveHost.js';
import { StartupTimeline, wallClock, type StartupTimes } from './startupTimeline.js';
import { assertDebuggingEnabled, assertSameTmpdir, findDbgShim, findDotnet, processEnvironment } from './runtimeEnv.js';
import { EncWorker } from './worker/encWorker.js';
import { WorkerTurn } from './worker/workerTurn.js';

interface Timeouts {
  startupMs: number;
  commandMs: number;
  exitGraceMs: number;
}

let encSessions = 0;

function numberOption(options: Record<string, unknown>, key: string, fallback: number): number {
  const v = options[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

export class DotnetEngine implements Engine {
  readonly capabilities: EngineCapabilities = dotnetCapabilities;
  private addon: DotnetAddon | undefined;
  private host: HostConnection | undefined;
  private debuggee: Debuggee | undefined;
  private attachedPid: number | undefined;
  private modules = 0;
  private timeouts: Timeouts = { startupMs: 30_000, commandMs: 10_000, exitGraceMs: 2_000 };
  private stopped = false;
  private readonly workerTurn = new WorkerTurn(() => this.prestartCompiler());
  private finished = false;
  private runtimeExited = false;
  private detached = false;
  private alivePoll: NodeJS.Timeout | undefined;
  private readonly stderrTail: string[] = [];
  private readonly pending = new Map<string, number>();
  private access: string | undefined;
  private conditions: ConditionStats = { filters: 0, evaluatedInHost: 0 };
  private readonly startup = new StartupTimeline();
  /** The host's side of the start, as of its answer, then of the first stop. */
  private hostStartup?: StartupTimes;
  /** The runtime-startup handshake this launch prepared (launch, Linux). */
  private startupKey?: { pid: number; key: string };
  private startedAt = wallClock();
  private dotnet: string | undefined;
  /** This session's Edit and Continue state in the server's worker. */
  private readonly encSession = `enc-${process.pid}-${++encSessions}`;
  /** What the host asks of the server (expressions compiled by Roslyn). */
  private readonly serveHost = serveHost(() => this.dotnet);

  constructor(private readonly context: EngineContext) {}

  get pid(): number | undefined {
    return this.debuggee?.pid ?? this.attachedPid;
  }

  // ---- start ----

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    this.startedAt = wallClock();
    this.workerTurn.launching();
    this.readOptions(config.options);
    // First: a host started now boots while the addon loads and the program starts.
    readyHost();
    const addon = this.loadAddon();
    const env = { ...process.env, ...config.env } as Record<string, string>;
    assertDebuggingEnabled(env, 'The launch environment');
    assertSameTmpdir(env, 'The program');
    const dbgshimPath = findDbgShim();
    this.dotnet = findDotnet(env);
    const executable = await this.track('build', resolveExecutable(config.program, config.args, config.cwd, this.dotnet, signal));
    this.startup.mark('built');

    let spawned;
    try {
      spawned = addon.spawnSuspended({
        file: executable.file,
        argv: executable.argv,
        env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
        cwd: config.cwd,
        // Without dbgshim (which makes its own handshake) the program starts now, its runtime
        // booting while the debugger host gets the launch; it waits for the host in its startup.
        startNow: !dbgshimPath && addon.ownRuntimeAccess,
      });
    } catch (e) {
      throw fromNative(e, 'LAUNCH_FAILED');
    }
    if (spawned.startupKey) this.startupKey = { pid: spawned.pid, key: spawned.startupKey };
    this.debuggee = new Debuggee(addon, spawned, (category, text) => {
      if (category === 'stderr') this.rememberStderr(text);
      this.emit({ type: 'output', category, text });
    });
    void this.debuggee.exited.then((status) => this.onKeeperStatus(status));
    this.startup.mark('spawned');
    // POSIX: the host's resume byte is relayed to the debuggee's resume pipe (none once the startup
    // handshake was prepared and the program runs); Windows: the host resumes its main thread.
    const resumedByHost = spawned.resumeThread !== undefined;
    this.host = new HostConnection((event) => this.onHostEvent(event), resumedByHost || spawned.resumeFd < 0 ? undefined : spawned.resumeFd, this.serveHost);
    try {
      await this.debuggee.connected;
      return await this.start({
        ...this.startOptions(config, dbgshimPath),
        mode: 'launch',
        pid: spawned.pid,
        entryAssembly: executable.assembly,
        startupPrepared: !!spawned.startupKey,
        ...(resumedByHost ? { resume: spawned.resumeThread } : {}),
      });
    } catch (e) {
      const error = await explainLaunchFailure(e, executable.argv, this.debuggee, this.stderrTail);
      await this.dispose();
      throw error;
    }
  }

  async attach(config: AttachConfig): Promise<LaunchResult> {
    this.startedAt = wallClock();
    this.readOptions(config.options);
    const pid = config.pid;
    if (!pid || !Number.isInteger(pid)) {
      throw new DebugError('INVALID_ARGUMENT', 'attaching to .NET needs the process id (pid)', 'Pass pid: the id of the running .NET process.');
    }
    this.loadAddon();
    const targetEnv = processEnvironment(pid);
    if (targetEnv) {
      assertDebuggingEnabled(targetEnv, `Process ${pid}`);
      assertSameTmpdir(targetEnv, `Process ${pid}`);
    }
    this.host = new HostConnection((event) => this.onHostEvent(event), undefined, this.serveHost);
    try {
      const result = await this.start({ ...this.startOptions({ ...config, stopOnEntry: false }, findDbgShim()), mode: 'attach', pid });
      this.attachedPid = pid;
      this.watchAttachedProcess(pid);
      return result;
    } catch (e) {
      await this.dispose();
      throw fromNative(e, 'ATTACH_FAILED');
    }
  }

  private startOptions(config: Omit<LaunchConfig, 'program' | 'args' | 'cwd' | 'env'>, dbgshimPath: string | undefined): Omit<StartOptions, 'mode' | 'pid'> {
    return {
      timeoutMs: this.timeouts.startupMs,
      dbgshimPath,
      breakpoints: config.breakpoints,
      functionBreakpoints: config.functionBreakpoints,
      exceptions: config.exceptions,
      stopOnEntry: config.stopOnEntry,
    };
  }

  private async start(options: StartOptions): Promise<LaunchResult> {
    const fallback = options.mode === 'launch' ? 'LAUNCH_FAILED' : 'ATTACH_FAILED';
    const result = await this.request('start', [options], this.timeouts.startupMs + 20_000, fallback);
    this.hostStartup = result.startup;
    this.startup.mark('answered');
    this.access = result.access;
    this.context.log('info', `dotnet: ${options.mode === 'launch' ? 'launched' : 'attached to'} pid ${options.pid} (${this.access})`);
    return { pid: options.pid, breakpoints: result.breakpoints };
  }

  // ---- breakpoints ----

  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.request('setBreakpoints', [file, specs]);
  }

  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.request('setFunctionBreakpoints', [specs]);
  }

  setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    return this.request('setExceptionBreakpoints', [config]);
  }

  // ---- execution ----

  // The session marks itself running before it asks; no `continued` event follows, since the next
  // stop can reach the session before this request's answer does.
  async continue(): Promise<void> {
    await this.request('continue', []);
    this.stopped = false;
  }

  async step(threadId: number, kind: StepKind): Promise<void> {
    await this.request('step', [threadId, kind]);
    this.stopped = false;
  }

  pause(): Promise<void> {
    return this.request('pause', []);
  }

  threads(): Promise<ThreadInfo[]> {
    return this.request('threads', []);
  }

  stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    return this.request('stackTrace', [threadId, startFrame, levels]);
  }

  scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.request('scopes', [frameId]);
  }
  variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    return this.request('variables', [ref, start, count]);
  }
  textSlice(expression: string, start: number, end: number): string {
    return `(${expression}).Substring(${start}, ${end - start})`;
  }

  evaluate(expression: string, frameId: number | undefined, context: 'repl' | 'watch' | 'hover' = 'repl', options?: { sideEffects?: boolean }): Promise<EvaluateResult> {
    // An evaluation may run code in the program (its own timeout, 5 s, plus the aborts) and may wait
    // for Roslyn's first compile in this server (30 s): those come first.
    const sideEffects = options?.sideEffects ?? context === 'repl';
    return this.request('evaluate', [expression, frameId, { sideEffects }], this.timeouts.commandMs + 45_000);
  }
  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    return this.request('setVariable', [containerRef, name, value]);
  }
  threadDumps(levels: number): Promise<ThreadDump[]> {
    return this.request('threadDumps', [levels]);
  }
  pendingTasks(levels: number): Promise<PendingTaskReport> {
    // The host bounds its heap walk and reads itself (PENDING_TASKS_BUDGET_MS); this is the margin past it.
    return this.request('pendingTasks', [levels], this.timeouts.commandMs + 10_000);
  }

  jump(threadId: number, file: string, line: number): Promise<void> {
    return this.request('jump', [threadId, file, line]);
  }
  exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined> {
    return this.request('exceptionInfo', [threadId]);
  }

  /** Edit and Continue: Roslyn's deltas from the server's worker, applied by the debugger host. */
  applyChanges(request: LiveEditRequest): Promise<LiveEditResult> {
    const dotnet = this.dotnet ?? findDotnet();
    if (!dotnet) throw new DebugError('ENGINE_UNAVAILABLE', 'applying C# edits needs the .NET SDK (dotnet) to build its Roslyn worker', 'Install the .NET SDK, or session_restart to run the edited program.');
    return this.track('applyChanges', applyDotnetChanges((method, args, timeoutMs) => this.request(method, args, timeoutMs), EncWorker.shared(), dotnet, this.encSession, request));
  }

  // ---- end ----

  async terminate(): Promise<void> {
    if (this.finished) return;
    const pid = this.pid;
    if (this.debuggee) {
      this.debuggee.kill();
      await withTimeout(this.debuggee.exited, this.timeouts.commandMs, 'ending the debuggee').catch(() => undefined);
    } else if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await this.waitFinished(this.timeouts.commandMs);
  }

  async detach(): Promise<void> {
    if (this.finished) return;
    await this.request('detach', []);
    this.detached = true;
    await this.closeHost();
    this.finish(undefined, true);
  }

  async dispose(): Promise<void> {
    this.workerTurn.end();
    if (this.alivePoll) clearInterval(this.alivePoll);
    if (this.debuggee && !this.debuggee.hasExited && !this.detached) {
      this.debuggee.kill();
      await withTimeout(this.debuggee.exited, 3_000, 'ending the debuggee').catch(() => undefined);
    }
    // Before the start answered, the debugger may be blocked in the runtime's handshake: it has
    // nothing to shut down cleanly, so it ends at once (a launch that timed out answers on time).
    const started = this.access !== undefined;
    if (started && this.host && this.debuggee?.hasExited) {
      await withTimeout(this.runtimeExit, this.timeouts.exitGraceMs, 'ExitProcess').catch(() => undefined);
    }
    await this.closeHost(!started);
    this.debuggee?.dispose();
    // A handshake the host never opened (a launch that failed) would stay in /dev/shm.
    if (this.startupKey) this.addon?.discardStartup?.(this.startupKey.pid, this.startupKey.key);
    await EncWorker.shared().end(this.encSession);
  }

  diagnostics(): EngineDiagnostics {
    const now = Date.now();
    return {
      adapterStderr: [...this.stderrTail],
      pendingRequests: [...this.pending.entries()].map(([command, since]) => ({ command, ageMs: now - since })),
      pid: this.pid,
      details: { access: this.access, modules: this.modules, stopped: this.stopped, exited: this.finished, conditions: this.conditions, startup: this.startup.relativeTo(this.startedAt, this.hostStartup) },
    };
  }

  // ---- internals ----

  private readOptions(options: Record<string, unknown>): void {
    this.timeouts = {
      startupMs: numberOption(options, 'startupTimeoutMs', this.timeouts.startupMs),
      commandMs: numberOption(options, 'commandTimeoutMs', this.timeouts.commandMs),
      exitGraceMs: this.timeouts.exitGraceMs,
    };
  }

  private loadAddon(): DotnetAddon {
    this.addon ??= loadAddon();
    return this.addon;
  }

  /** A request to the debugger host, bounded (a wedged debugger ends the session, see debuggerHost.ts). */
  private async request<M extends HostMethod>(
    method: M,
    args: Parameters<HostApi[M]>,
    timeoutMs = this.timeouts.commandMs + 5_000,
    fallback: ErrorCode = 'INTERNAL',
  ): Promise<Awaited<ReturnType<HostApi[M]>>> {
    const host = this.host;
    this.workerTurn.request();
    if (!host || this.finished) {
      throw new DebugError('INVALID_STATE', `cannot ${method}: the .NET program is not being debugged any more`, 'Launch it again.');
    }
    try {
      return await this.track(method, host.request(method, args, timeoutMs));
    } catch (e) {
      throw fromNative(e, fallback);
    }
  }

  private async track<T>(command: string, promise: Promise<T>): Promise<T> {
    this.pending.set(command, Date.now());
    try {
      return await promise;
    } finally {
      this.pending.delete(command);
    }
  }

  private emit(event: EngineEvent): void {
    this.context.emit(event);
  }

  private rememberStderr(text: string): void {
    this.stderrTail.push(...text.split('\n').filter(Boolean));
    if (this.stderrTail.length > 50) this.stderrTail.splice(0, this.stderrTail.length - 50);
  }

  /**
   * At the first stop, once it has been read (worker/workerTurn.ts): the worker that compiles C#
   * starts, so the first lambda evaluated does not wait for Roslyn to load
   * (DEBUGBRIDGE_COMPILER_PRESTART=0: on first need only).
   */
  private prestartCompiler(): void {
    if (process.env.DEBUGBRIDGE_COMPILER_PRESTART === '0') return;
    const dotnet = this.dotnet ?? findDotnet();
    if (dotnet) EncWorker.shared().prestart(dotnet);
  }

  private onHostEvent(event: HostEvent): void {
    switch (event.type) {
      case 'runtimeExited':
        this.runtimeExited = true;
        this.markRuntimeExited();
        void this.onRuntimeExited();
        return;
      case 'stopped':
        this.stopped = true;
        this.startup.mark('firstStop');
        this.workerTurn.stopCame();
        break;
      case 'conditionStats':
        this.conditions = { filters: event.filters, evaluatedInHost: event.evaluatedInHost };
        return;
      case 'startupTimes':
        this.hostStartup = event.times;
        return;
      case 'module':
        if (event.reason === 'new') this.modules++;
        break;
      case 'error':
        if (this.finished) return;
        void this.debuggerBroke(event.message);
        return;
    }
    this.emit(event);
  }

  /**
   * The debugger is gone or broken. A program that was killed can take libmscordbi down with it:
   * when the program has ended the session says so; otherwise the program ends too (nothing can
   * drive it now) and the session fails with the reason.
   */
  private async debuggerBroke(message: string): Promise<void> {
    const ended = this.debuggee ? await withTimeout(this.debuggee.exited, 300, 'exit').catch(() => undefined) : undefined;
    if (ended && !ended.execErrno) {
      this.runtimeExited = true;
      this.markRuntimeExited();
      await this.finishWith(ended);
      return;
    }
    this.debuggee?.kill();
    this.emit({ type: 'error', message });
  }

  /** ICorDebug saw the process go; the exit code comes from the keeper (launch) or is unknown (attach). */
  private async onRuntimeExited(): Promise<void> {
    let status: ExitStatus | undefined;
    if (this.debuggee) {
      status = await withTimeout(this.debuggee.exited, this.timeouts.exitGraceMs, 'exit status').catch(() => undefined);
    }
    await this.finishWith(status);
  }

  /** The keeper reported the end: that is authoritative, whether or not ICorDebug has noticed yet. */
  private onKeeperStatus(status: ExitStatus): void {
    if (this.finished || this.detached) return;
    void this.finishWith(status);
  }

  private async finishWith(status: ExitStatus | undefined): Promise<void> {
    if (this.finished || this.detached) return;
    if (this.debuggee) await withTimeout(this.debuggee.outputDone, this.timeouts.exitGraceMs, 'output').catch(() => undefined);
    this.finish(status, false);
    // ICorDebug must see the exit before it can shut down cleanly (else ILLEGAL_SHUTDOWN_ORDER).
    await withTimeout(this.runtimeExit, this.timeouts.exitGraceMs, 'ExitProcess').catch(() => undefined);
    void this.closeHost();
  }

  private markRuntimeExited: () => void = () => undefined;
  private readonly runtimeExit = new Promise<void>((resolve) => (this.markRuntimeExited = resolve));

  private finish(status: ExitStatus | undefined, detached: boolean): void {
    if (this.finished) return;
    this.finished = true;
    this.workerTurn.end();
    if (this.alivePoll) clearInterval(this.alivePoll);
    this.stopped = false;
    if (!detached) this.emit({ type: 'exited', exitCode: status?.exitCode, signal: status?.signal });
    this.emit({ type: 'terminated' });
    for (const waiter of this.finishWaiters.splice(0)) waiter();
  }

  private readonly finishWaiters: (() => void)[] = [];
  private waitFinished(ms: number): Promise<void> {
    if (this.finished) return Promise.resolve();
    return withTimeout(new Promise<void>((resolve) => this.finishWaiters.push(resolve)), ms, 'the end of the debuggee').catch(() => undefined);
  }

  /** An attached process is not our child: notice its end even if ICorDebug does not say so. */
  private watchAttachedProcess(pid: number): void {
    this.alivePoll = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        setTimeout(() => void this.finishWith(undefined), this.runtimeExited ? 0 : 1_000).unref();
        if (this.alivePoll) clearInterval(this.alivePoll);
      }
    }, 1_000);
    this.alivePoll.unref();
  }

  private async closeHost(now = false): Promise<void> {
    const host = this.host;
    this.host = undefined;
    await host?.close(now);
  }
}
