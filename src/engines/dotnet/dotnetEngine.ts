/**
 * The .NET engine: drives ICorDebug through the native addon. This part covers launch / attach,
 * runtime events (process, modules, threads, user breaks, exceptions, exit), pause, threads,
 * continue, detach and terminate. Breakpoints, stacks, values and stepping come with part 2.
 */
import { basename } from 'node:path';
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent } from '../../core/engine.js';
import { DebugError } from '../../core/errors.js';
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
  ThreadInfo,
  VariableInfo,
} from '../../core/types.js';
import { loadAddon, type DotnetAddon, type NativeSession } from './addon.js';
import { Debuggee, type ExitStatus } from './debuggee.js';
import { dotnetCapabilities } from './capabilities.js';
import { fromNative, withTimeout } from './nativeErrors.js';
import { HostedSession } from './debuggerHost.js';
import { parseNativeEvent, type NativeEvent, type NativeThread } from './nativeEvents.js';
import { resolveExecutable } from './program.js';
import {
  assertDebuggingEnabled,
  assertSameTmpdir,
  findDbgShim,
  findDotnet,
  processEnvironment,
} from './runtimeEnv.js';

const notYet = (what: string): DebugError =>
  new DebugError('UNSUPPORTED', `${what} is not yet supported for .NET in this version of debugbridge`, 'Use session_events, session_output, execution_pause and inspect_threads meanwhile.');

interface Timeouts {
  startupMs: number;
  commandMs: number;
  exitGraceMs: number;
}

function numberOption(options: Record<string, unknown>, key: string, fallback: number): number {
  const v = options[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

export class DotnetEngine implements Engine {
  readonly capabilities: EngineCapabilities = dotnetCapabilities;
  private addon: DotnetAddon | undefined;
  private native: NativeSession | undefined;
  private debuggee: Debuggee | undefined;
  private attachedPid: number | undefined;
  private readonly modules = new Map<number, string>();
  private exceptionConfig: ExceptionBreakpointConfig = { filters: ['uncaught'] };
  private timeouts: Timeouts = { startupMs: 30_000, commandMs: 10_000, exitGraceMs: 2_000 };
  private stopped = false;
  private finished = false;
  private runtimeExited = false;
  private detached = false;
  private alivePoll: NodeJS.Timeout | undefined;
  private readonly stderrTail: string[] = [];
  private readonly pending = new Map<string, number>();
  private access: string | undefined;

  constructor(private readonly context: EngineContext) {}

  get pid(): number | undefined {
    return this.debuggee?.pid ?? this.attachedPid;
  }

  // ---- start ----

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    this.readOptions(config.options);
    this.exceptionConfig = config.exceptions;
    const addon = this.loadAddon();
    const env = { ...process.env, ...config.env } as Record<string, string>;
    assertDebuggingEnabled(env, 'The launch environment');
    assertSameTmpdir(env, 'The program');
    const dbgshimPath = findDbgShim();
    const dotnet = findDotnet(env);
    const executable = await this.track('build', resolveExecutable(config.program, config.args, config.cwd, dotnet, signal));
    if (config.stopOnEntry) this.context.log('warning', 'stopOnEntry is not supported for .NET yet; the program runs until an exception or a pause');

    let spawned;
    try {
      spawned = addon.spawnSuspended({
        file: executable.file,
        argv: executable.argv,
        env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
        cwd: config.cwd,
      });
    } catch (e) {
      throw fromNative(e, 'LAUNCH_FAILED');
    }
    this.debuggee = new Debuggee(addon, spawned, (category, text) => {
      if (category === 'stderr') this.rememberStderr(text);
      this.emit({ type: 'output', category, text });
    });
    void this.debuggee.exited.then((status) => this.onKeeperStatus(status));
    const native = this.createNative(spawned.resumeFd);
    try {
      await this.configureExceptions();
      const result = await this.track(
        'attachAtStartup',
        withTimeout(
          native.attachAtStartup({ pid: spawned.pid, resumeFd: spawned.resumeFd, timeoutMs: this.timeouts.startupMs, dbgshimPath }),
          this.timeouts.startupMs + 5_000,
          'attaching to the starting .NET runtime',
        ),
      );
      this.access = (JSON.parse(result) as { access: string }).access;
    } catch (e) {
      const error = await this.explainLaunchFailure(e, executable.argv);
      await this.dispose();
      throw error;
    }
    this.context.log('info', `dotnet: launched ${executable.argv.join(' ')} as pid ${spawned.pid} (${this.access})`);
    return { pid: spawned.pid, breakpoints: config.breakpoints.map((b) => this.unbound(b)) };
  }

  async attach(config: AttachConfig): Promise<LaunchResult> {
    this.readOptions(config.options);
    this.exceptionConfig = config.exceptions;
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
    const native = this.createNative();
    try {
      await this.configureExceptions();
      const result = await this.track(
        'attachRunning',
        withTimeout(native.attachRunning({ pid, timeoutMs: this.timeouts.startupMs, dbgshimPath: findDbgShim() }), this.timeouts.startupMs + 5_000, `attaching to process ${pid}`),
      );
      this.access = (JSON.parse(result) as { access: string }).access;
    } catch (e) {
      await this.dispose();
      throw fromNative(e, 'ATTACH_FAILED');
    }
    this.attachedPid = pid;
    this.watchAttachedProcess(pid);
    return { pid, breakpoints: config.breakpoints.map((b) => this.unbound(b)) };
  }

  // ---- breakpoints (part 2) ----

  async setBreakpoints(_file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return specs.map((b) => this.unbound(b));
  }

  async setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    return specs.map((b) => ({ id: b.id, verified: false, message: 'function breakpoints are not yet supported for .NET' }));
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    this.exceptionConfig = config;
    if (this.native) await this.configureExceptions();
  }

  // ---- execution ----

  async continue(): Promise<void> {
    await this.call('continue', (n) => n.continue());
    this.stopped = false;
    this.emit({ type: 'continued', allThreadsContinued: true });
  }

  async pause(): Promise<void> {
    const result = JSON.parse(await this.call('pause', (n) => n.pause(this.timeouts.commandMs))) as {
      wasRunning: boolean;
      threads: { threads: NativeThread[] };
    };
    if (!result.wasRunning && this.stopped) return;
    this.stopped = true;
    const threads = result.threads.threads;
    const main = threads.find((t) => t.id === this.pid) ?? threads[0];
    this.emit({ type: 'stopped', reason: 'pause', threadId: main?.id ?? 0, allThreadsStopped: true, description: 'Paused' });
  }

  async step(): Promise<void> {
    throw notYet('Stepping');
  }

  async threads(): Promise<ThreadInfo[]> {
    const result = JSON.parse(await this.call('threads', (n) => n.threads(this.timeouts.commandMs))) as { threads: NativeThread[] };
    return result.threads.map((t) => ({
      id: t.id,
      name: t.name ?? (t.id === this.pid ? 'Main Thread' : `Thread ${t.id}`),
    }));
  }

  async stackTrace(): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    throw notYet('The call stack');
  }
  async scopes(): Promise<ScopeInfo[]> {
    throw notYet('Variables');
  }
  async variables(): Promise<VariableInfo[]> {
    throw notYet('Variables');
  }
  async evaluate(): Promise<EvaluateResult> {
    throw notYet('Evaluation');
  }
  async setVariable(): Promise<EvaluateResult> {
    throw notYet('Setting a variable');
  }
  async exceptionInfo(): Promise<ExceptionInfo | undefined> {
    return this.lastException;
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
    await this.call('detach', (n) => n.detach(this.timeouts.commandMs));
    this.detached = true;
    await this.closeNative();
    this.finish(undefined, true);
  }

  async dispose(): Promise<void> {
    if (this.alivePoll) clearInterval(this.alivePoll);
    if (this.debuggee && !this.debuggee.hasExited && !this.detached) {
      this.debuggee.kill();
      await withTimeout(this.debuggee.exited, 3_000, 'ending the debuggee').catch(() => undefined);
    }
    if (this.native && this.debuggee?.hasExited) {
      await withTimeout(this.runtimeExit, this.timeouts.exitGraceMs, 'ExitProcess').catch(() => undefined);
    }
    await this.closeNative();
    this.debuggee?.dispose();
  }

  diagnostics(): EngineDiagnostics {
    const now = Date.now();
    return {
      adapterStderr: [...this.stderrTail],
      pendingRequests: [...this.pending.entries()].map(([command, since]) => ({ command, ageMs: now - since })),
      pid: this.pid,
      details: { access: this.access, modules: this.modules.size, stopped: this.stopped, exited: this.finished },
    };
  }

  // ---- internals ----

  private lastException: ExceptionInfo | undefined;

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

  /** ICorDebug runs in a host process of its own (see debuggerHost.ts); `resumeFd` when launching. */
  private createNative(resumeFd?: number): NativeSession {
    this.native = new HostedSession((json) => this.onNativeEvent(parseNativeEvent(json)), resumeFd);
    return this.native;
  }

  private async configureExceptions(): Promise<void> {
    const filters = this.exceptionConfig.filters;
    await this.call('configure', (n) =>
      n.configure({
        stopOnUnhandled: filters.includes('uncaught') || filters.includes('unhandled'),
        stopOnFirstChance: filters.includes('all') || filters.includes('raised'),
      }),
    );
  }

  private async call(command: string, run: (native: NativeSession) => Promise<string>): Promise<string> {
    const native = this.native;
    if (!native || this.finished) {
      throw new DebugError('INVALID_STATE', `cannot ${command}: the .NET program is not being debugged any more`);
    }
    try {
      return await this.track(command, withTimeout(run(native), this.timeouts.commandMs + 5_000, `.NET ${command}`));
    } catch (e) {
      throw fromNative(e);
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

  private unbound(spec: BreakpointSpec): BreakpointBinding {
    return { id: spec.id, verified: false, message: 'line breakpoints are not yet supported for .NET (coming with the next engine version)' };
  }

  private emit(event: EngineEvent): void {
    this.context.emit(event);
  }

  private rememberStderr(text: string): void {
    this.stderrTail.push(...text.split('\n').filter(Boolean));
    if (this.stderrTail.length > 50) this.stderrTail.splice(0, this.stderrTail.length - 50);
  }

  private onNativeEvent(event: NativeEvent): void {
    switch (event.event) {
      case 'process':
        this.emit({ type: 'process', pid: event.pid, name: this.debuggee ? undefined : `pid ${event.pid}` });
        return;
      case 'module':
        if (event.reason === 'load') {
          this.modules.set(event.handle, event.path);
          this.emit({ type: 'module', reason: 'new', name: basename(event.path), path: event.path });
        } else {
          const path = this.modules.get(event.handle);
          this.modules.delete(event.handle);
          this.emit({ type: 'module', reason: 'removed', name: path ? basename(path) : `module ${event.handle}`, path });
        }
        return;
      case 'thread':
        this.emit({ type: 'thread', reason: event.reason, threadId: event.threadId });
        return;
      case 'stopped':
        this.stopped = true;
        this.emit({ type: 'stopped', reason: 'pause', threadId: event.threadId, allThreadsStopped: true, description: 'System.Diagnostics.Debugger.Break()' });
        return;
      case 'exception': {
        const info: ExceptionInfo = { type: event.type || undefined, message: event.message || undefined, kind: event.kind };
        if (event.stopped) {
          this.lastException = info;
          this.stopped = true;
          const what = event.kind === 'unhandled' ? 'Unhandled exception' : 'Exception thrown';
          this.emit({
            type: 'stopped',
            reason: 'exception',
            threadId: event.threadId,
            allThreadsStopped: true,
            exception: info,
            description: `${what}: ${event.type}${event.message ? `: ${event.message}` : ''}`,
          });
        } else if (event.kind === 'firstChance') {
          this.emit({ type: 'output', category: 'console', text: `Exception thrown: '${event.type}'${event.message ? `: ${event.message}` : ''}\n` });
        }
        return;
      }
      case 'log':
        this.emit({ type: 'output', category: 'console', text: event.message });
        return;
      case 'exited':
        this.runtimeExited = true;
        this.markRuntimeExited();
        void this.onRuntimeExited();
        return;
      case 'hostExited':
        // The debugger died under the program: end the program too, nothing can drive it now.
        this.debuggee?.kill();
        this.emit({ type: 'error', message: `the .NET debugger process ended unexpectedly (${event.signal ?? `exit code ${event.code}`})` });
        return;
      case 'debuggerError':
        this.emit({ type: 'error', message: `the .NET debugger reported an internal error (HRESULT 0x${(event.hr >>> 0).toString(16)}, code ${event.code})` });
        return;
    }
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
    void this.closeNative();
  }

  private markRuntimeExited: () => void = () => undefined;
  private readonly runtimeExit = new Promise<void>((resolve) => (this.markRuntimeExited = resolve));

  private finish(status: ExitStatus | undefined, detached: boolean): void {
    if (this.finished) return;
    this.finished = true;
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

  private async closeNative(): Promise<void> {
    const native = this.native;
    this.native = undefined;
    if (!native) return;
    await withTimeout(native.close(), 5_000, 'closing the .NET debugger').catch((e: unknown) =>
      this.context.log('warning', `dotnet: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  private async explainLaunchFailure(e: unknown, argv: string[]): Promise<DebugError> {
    const error = fromNative(e, 'LAUNCH_FAILED');
    const status = this.debuggee ? await withTimeout(this.debuggee.exited, 1_000, 'exit').catch(() => undefined) : undefined;
    if (status?.execErrno !== undefined && status.execErrno > 0) {
      return new DebugError('LAUNCH_FAILED', `cannot start ${argv[0]}: errno ${status.execErrno}`, 'Check that the program path is executable.');
    }
    if (status && (status.exitCode !== undefined || status.signal)) {
      const tail = this.stderrTail.slice(-5).join('\n');
      return new DebugError(
        error.code,
        `${error.message}; the program ended with ${status.signal ?? `exit code ${status.exitCode}`}${tail ? `:\n${tail}` : ''}`,
        error.hint,
        error.details,
      );
    }
    return error;
  }
}
