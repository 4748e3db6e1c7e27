/**
 * The .NET debugger proper, running in the host process beside the native addon: it reads symbols
 * when modules load, binds breakpoints before their code runs, decides what each runtime stop means
 * (a breakpoint of the user's, the entry, a step, an exception of a chosen type) and answers the
 * server's requests. Native events and state-changing requests run one at a time, in order.
 */
import { DebugError } from '../../../core/errors.js';
import type {
  BreakpointBinding,
  BreakpointSpec,
  EvaluateResult,
  ExceptionBreakpointConfig,
  ExceptionInfo,
  FrameInfo,
  FunctionBreakpointSpec,
  PendingTaskReport,
  ScopeInfo,
  StepKind,
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from '../../../core/types.js';
import type { EvaluateOptions, HostApi, HostEvent, StartOptions, StartResult } from '../hostProtocol.js';
import { StartupTimeline } from '../startupTimeline.js';
import { loadModuleSymbols } from '../symbols/symbolLoader.js';
import { AsyncAwaiters } from './asyncAwaiter.js';
import { AsyncChains } from './asyncChain.js';
import { AsyncTaskReader } from './asyncTaskReader.js';
import { PendingTasks, type PendingTaskGraph } from './pendingTasks.js';
import { BreakpointBook } from './breakpointBook.js';
import { BreakpointRules } from './breakpointRules.js';
import { ExceptionStops, type ExceptionEvent } from './exceptionStops.js';
import { ModuleLoads, ENTRY } from './moduleLoads.js';
import { ModuleRegistry } from './moduleRegistry.js';
import type { NativeEvent } from './nativeEvents.js';
import { Native } from './nativeSession.js';
import { Inspection } from './inspection.js';
import { EditAndContinue, type EditApplied, type EditPreparation } from './editAndContinue.js';
import type { ModuleDelta } from '../worker/encProtocol.js';
import { followProgramCulture } from './programCulture.js';
import { StackReader } from './stackReader.js';
import { threadWait } from './threadWaits.js';
import { asyncResumeTag, awaiterResumeTag, Stepper } from './stepper.js';

/** How long a launch answer waits for the program's own module to load and its breakpoints to bind. */
const ENTRY_MODULE_WAIT_MS = 15_000;
const RESUME_RELAY_FD = 3;

export class DotnetDebugger implements HostApi {
  private native?: Native;
  private readonly modules = new ModuleRegistry();
  private readonly stack = new StackReader(() => this.native, this.modules);
  private readonly inspection = new Inspection(() => this.native, this.modules, this.stack);
  private readonly breakpoints: BreakpointBook = new BreakpointBook(
    () => this.native,
    this.modules,
    (spec) => this.rules.validate(spec),
    (nativeId) => this.rules.forget(nativeId),
  );
  private readonly rules = new BreakpointRules(this.breakpoints, this.inspection, () => this.native, this.stack);
  private readonly awaiters = new AsyncAwaiters(() => this.native, this.modules, () => this.inspection);
  private readonly asyncChains = new AsyncChains(new AsyncTaskReader(this.inspection.reader, () => this.native), this.modules, () => this.native);
  private readonly pending = new PendingTasks(this.asyncChains, this.modules, () => this.native);
  /** The heap's pending async methods, read once per stop (the hang report's threads and tasks both use them). */
  private taskGraph?: Promise<PendingTaskGraph>;
  private readonly stepper = new Stepper(() => this.native, this.stack, this.modules, this.breakpoints, this.awaiters);
  private readonly enc = new EditAndContinue(() => this.native, this.modules, this.stack, () => this.inspection.funcEval);
  /** The program was stopped for an edit, not by a stop the session knows of. */
  private pausedForEdit = false;
  private readonly exceptions = new ExceptionStops(() => this.requireNative(), this.modules, this.stack, this.inspection, this.asyncChains);
  private options?: StartOptions;
  private pid = 0;
  private lastException?: ExceptionInfo;
  private serial: Promise<unknown> = Promise.resolve();
  private exited = false;
  /** A stop was reported and the program has not been resumed since. */
  private reportedStop = false;
  private stopThread = 0;
  private readonly startup = new StartupTimeline();
  private readonly loads = new ModuleLoads({
    native: () => this.native,
    requireNative: () => this.requireNative(),
    options: () => this.options,
    modules: this.modules,
    breakpoints: this.breakpoints,
    enc: this.enc,
    startup: this.startup,
    emit: (event) => this.emit(event),
  });

  constructor(private readonly emit: (event: HostEvent) => void) {
    this.stack.followAwaiters(this.asyncChains);
  }

  /**
   * A host readied ahead of its launch reads the runtime's own library while it waits: its metadata
   * names the framework's types and frames at the first stop, read then while the program runs to it.
   */
  readAhead(files: string[]): void {
    // Its launch came first (the host had no time): the launched program would wait for this read.
    if (this.options) return;
    this.loads.readAhead(files);
    this.startup.mark('readAhead');
  }

  // ---- requests ----

  async start(options: StartOptions): Promise<StartResult> {
    this.startup.mark('hostStart');
    this.options = options;
    this.pid = options.pid;
    followProgramCulture(options.pid);
    this.exceptions.config = options.exceptions;
    this.enc.launched = options.mode === 'launch';
    const native = new Native((event) => this.onNative(event));
    this.native = native;
    const result = await this.inOrder(async () => {
      const byFile = new Map<string, BreakpointSpec[]>();
      for (const spec of options.breakpoints) byFile.set(spec.file, [...(byFile.get(spec.file) ?? []), spec]);
      for (const [file, specs] of byFile) await this.breakpoints.setLines(file, specs);
      await this.breakpoints.setFunctions(options.functionBreakpoints);
      // Both queued at once, in order, on the debugger thread: a launched program's runtime waits for the attach.
      const configured = native.call('configure', { holdModuleLoads: true, ...this.exceptions.flags() });
      const attached =
        options.mode === 'launch'
          ? native.call('attachAtStartup', { pid: options.pid, resume: options.startupPrepared ? -1 : (options.resume ?? RESUME_RELAY_FD), timeoutMs: options.timeoutMs, dbgshimPath: options.dbgshimPath })
          : native.call('attachRunning', { pid: options.pid, timeoutMs: options.timeoutMs, dbgshimPath: options.dbgshimPath });
      // The program's own symbols are read while the attach is made and its runtime starts, not
      // before (it would wait for them) nor while it waits in its module load.
      if (options.entryAssembly) setImmediate(() => loadModuleSymbols(options.entryAssembly!).symbols?.nonUserMethodTokens());
      return (await Promise.all([configured, attached]))[1];
    });
    this.startup.merge(result.marks);
    // The answer says where the breakpoints bound: wait for the program's module (bounded).
    await Promise.race([this.loads.entryLoaded.promise, sleep(options.mode === 'launch' ? ENTRY_MODULE_WAIT_MS : 2_000)]);
    return { access: result.access, breakpoints: this.breakpoints.bindings(), startup: this.startup.current };
  }

  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.inOrder(() => this.breakpoints.setLines(file, specs));
  }

  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.inOrder(() => this.breakpoints.setFunctions(specs));
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    this.exceptions.config = config;
    await this.inOrder(() => this.requireNative().call('configure', this.exceptions.flags()));
  }

  continue(): Promise<void> {
    return this.inOrder(async () => {
      this.reportedStop = false;
      this.resumed();
      await this.stepper.cancel();
      await this.requireNative().call('continue', {});
    });
  }

  step(threadId: number, kind: StepKind): Promise<void> {
    return this.inOrder(async () => {
      this.reportedStop = false;
      this.resumed();
      await this.stepper.start(threadId, kind);
    });
  }

  pause(): Promise<void> {
    return this.inOrder(async () => {
      if (this.reportedStop) return;
      // Also while a module load is held for us: the pause outlasts its release.
      await this.requireNative().call('pause', {});
      await this.stepper.cancel();
      const { threads } = await this.requireNative().call('threads', {});
      const main = threads.find((t) => t.id === this.pid) ?? threads[0];
      this.stopped('pause', main?.id ?? 0, { description: 'Paused' });
    });
  }

  /** SetIP in the thread's innermost frame, to the first instruction of the statement at `line`; checked first, so a refusal leaves the program as it was. */
  jump(threadId: number, file: string, line: number): Promise<void> {
    return this.inOrder(async () => {
      if (!this.reportedStop) throw new DebugError('INVALID_STATE', 'the next statement can move only while the program is stopped');
      const top = await this.stack.top(threadId);
      if (!top) throw new DebugError('JUMP_REFUSED', 'the innermost frame of this thread is not your code', 'Step out into your code (execution_step out), then jump.');
      const symbols = this.modules.get(top.handle.module)?.symbols;
      const target = symbols?.statementIn(top.handle.methodToken, file, line) ?? { ok: false as const, message: 'the current method has no symbols' };
      if (!target.ok) throw new DebugError('JUMP_REFUSED', `Cannot move to line ${line}: ${target.message}.`, `Pick a line of ${top.name}.`);
      const native = this.requireNative();
      await native.call('setIp', { threadId, ilOffset: target.ilOffset, check: true });
      await native.call('setIp', { threadId, ilOffset: target.ilOffset });
      this.resumed();
      this.stopped('goto', threadId, { description: `Next statement moved to line ${target.line}` });
    });
  }

  async threads(): Promise<ThreadInfo[]> {
    const { threads } = await this.requireNative().call('threads', {});
    return threads.map((t) => ({ id: t.id, name: t.name ?? (t.id === this.pid ? 'Main Thread' : `Thread ${t.id}`) }));
  }

  stackTrace(threadId: number, start: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames: number }> {
    return this.stack.frames(threadId, start, levels);
  }

  /** Every thread's stack and what it waits on; ICorDebug reads stacks of a stopped program only. */
  async threadDumps(levels: number): Promise<ThreadDump[]> {
    if (!this.reportedStop) throw new DebugError('INVALID_STATE', 'the threads\' stacks are read while the program is stopped', 'Pause it (execution_pause): its answer carries them.');
    const native = this.requireNative();
    const threads = await this.threads();
    const graph = await this.tasks().catch(() => undefined);
    return Promise.all(
      threads.map(async ({ id, name }) => {
        try {
          const { frames, totalFrames } = await this.stack.frames(id, 0, levels);
          return { id, name, frames, totalFrames, wait: await threadWait(native, id, frames, (lock) => graph?.blockedOn(lock)) };
        } catch (e) {
          return { id, name, frames: [], error: (e as Error).message };
        }
      }),
    );
  }

  /** The async methods no thread runs: read from the heap while the program is stopped. */
  async pendingTasks(): Promise<PendingTaskReport> {
    if (!this.reportedStop) throw new DebugError('INVALID_STATE', 'pending tasks are read while the program is stopped', 'Pause it (execution_pause): its answer carries them.');
    const graph = await this.tasks();
    const threads = await this.threads();
    return graph.report(await this.pending.blockedThreads(graph, threads.map((t) => t.id)));
  }

  private tasks(): Promise<PendingTaskGraph> {
    this.taskGraph ??= this.pending.scan();
    return this.taskGraph;
  }

  async exceptionInfo(): Promise<ExceptionInfo | undefined> {
    return this.lastException;
  }

  /** Frame id 0 is "[External Code]": its scopes are those of the innermost frame of the user's code. */
  scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.inOrder(async () => this.inspection.scopes(frameId || (await this.topFrameId())));
  }

  variables(ref: number, start?: number | null, count?: number | null): Promise<VariableInfo[]> {
    return this.inOrder(() => this.inspection.variables(ref, start, count));
  }

  evaluate(expression: string, frameId: number | undefined, options?: EvaluateOptions | null): Promise<EvaluateResult> {
    return this.inOrder(async () => {
      if (!this.reportedStop) throw new DebugError('INVALID_STATE', 'evaluation needs the program stopped', 'Wait for a stop, or pause it with execution_pause.');
      return this.inspection.evaluate(expression, frameId || (await this.topFrameId()), options?.sideEffects ?? true);
    });
  }

  /** The innermost frame of the user's code on the stopped thread. */
  private async topFrameId(): Promise<number> {
    const { frames } = await this.stack.frames(this.stopThread, 0, 50);
    const top = frames.find((f) => f.id > 0);
    if (!top) throw new DebugError('INVALID_STATE', 'the stopped thread runs no code of yours right now', 'Step back into your code (execution_step out) or pick a thread with inspect_threads.');
    return top.id;
  }

  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    return this.inOrder(() => this.inspection.setVariable(containerRef, name, value));
  }

  /** Stops the program if it runs (the session still sees it running) and reads what Roslyn needs. */
  prepareEdit(files?: string[]): Promise<EditPreparation> {
    return this.inOrder(async () => {
      const native = this.requireNative();
      if (!this.reportedStop && !this.pausedForEdit) {
        await native.call('pause', {});
        this.pausedForEdit = true;
      }
      try {
        return await this.enc.prepare(this.reportedStop ? this.stopThread : undefined, files);
      } catch (e) {
        await this.endPause();
        throw e;
      }
    });
  }

  applyEdit(deltas: ModuleDelta[]): Promise<EditApplied> {
    return this.inOrder(async () => {
      if (!this.reportedStop && !this.pausedForEdit) throw new DebugError('INVALID_STATE', 'changes are applied while the program is stopped');
      const applied = await this.enc.apply(deltas);
      this.resumed();
      return applied;
    });
  }

  /** Lets the program run again if it was stopped for the edit. */
  endEdit(): Promise<void> {
    return this.inOrder(() => this.endPause());
  }

  private async endPause(): Promise<void> {
    if (!this.pausedForEdit) return;
    this.pausedForEdit = false;
    this.resumed();
    await this.requireNative().call('continue', {});
  }

  detach(): Promise<void> {
    return this.inOrder(async () => {
      await this.stepper.cancel();
      await this.requireNative().call('detach', {});
    });
  }

  async close(): Promise<void> {
    const native = this.native;
    this.native = undefined;
    await native?.close();
  }

  // ---- native events ----

  private onNative(event: NativeEvent): void {
    if (event.event === 'breakpoint') this.startup.mark('firstHit');
    // A compiled expression's assembly loads during an evaluation, which holds the queue below.
    if (event.event === 'module' && event.reason === 'load' && event.inMemory) this.inspection.assemblies.moduleLoaded(event.handle);
    void this.inOrder(() => this.handle(event)).catch((e: unknown) =>
      this.emit({ type: 'output', category: 'console', text: `debugbridge: handling ${event.event} failed: ${(e as Error).message}\n` }),
    );
  }

  private async handle(event: NativeEvent): Promise<void> {
    switch (event.event) {
      case 'process':
        this.emit({ type: 'process', pid: event.pid });
        return;
      case 'module':
        if (event.reason === 'load') return this.loads.loaded(event);
        this.breakpoints.moduleUnloaded(event.handle);
        this.enc.moduleUnloaded(event.handle);
        this.emit({ type: 'module', reason: 'removed', name: this.modules.remove(event.handle)?.name ?? `module ${event.handle}` });
        return;
      case 'thread':
        this.emit({ type: 'thread', reason: event.reason, threadId: event.threadId });
        return;
      case 'breakpoint':
        return this.breakpointHit(event.id, event.threadId);
      case 'stepComplete':
        if ((await this.stepper.completed(event.threadId)) === 'stop') this.stopped('step', event.threadId, { description: 'Step' });
        return;
      case 'userBreak':
        await this.stepper.cancel();
        this.stopped('pause', event.threadId, { description: 'System.Diagnostics.Debugger.Break()' });
        return;
      case 'exception':
        return this.exception(event);
      case 'log':
        this.emit({ type: 'output', category: 'console', text: event.message });
        return;
      case 'remapOpportunity':
        return this.enc.remapOpportunity(event);
      case 'remapComplete':
        // A step under way was on the old body: it starts again from the same statement in the new one.
        if (!(await this.stepper.restart(event.threadId).catch(() => false))) await this.requireNative().call('release', {});
        return;
      case 'exited':
        this.exited = true;
        this.loads.entryLoaded.resolve();
        this.emitConditionStats();
        this.emit({ type: 'runtimeExited' });
        return;
      case 'debuggerError':
        this.emit({ type: 'error', message: `the .NET debugger reported an internal error (HRESULT 0x${(event.hr >>> 0).toString(16)}, code ${event.code})` });
        return;
    }
  }

  private async breakpointHit(nativeId: number, threadId: number): Promise<void> {
    const owners = this.breakpoints.ownersOf(nativeId);
    const users = owners.flatMap((o) => (o.kind === 'user' ? [o] : []));
    if (users.length > 0) {
      const ids = users.map((u) => u.id);
      const where = this.rules.needsFrame(ids) ? this.breakpoints.whereIs(nativeId) : undefined;
      const frame = where && { threadId, nativeIndex: 0, ...where };
      const decision = await this.rules.decide(ids, frame, threadId);
      if (!decision.description && users.length === owners.length && (await this.rules.learn(nativeId, ids, frame))) this.emitConditionStats();
      for (const line of decision.logs) this.emit({ type: 'output', category: 'console', text: `${line}\n` });
      for (const trace of decision.traces) this.emit({ type: 'trace', breakpointId: trace.id, threadId, values: trace.values });
      if (decision.stop.length === 0 && !owners.some((o) => o.kind === 'internal')) {
        this.resumed();
        await this.requireNative().call('release', {});
        return;
      }
      if (decision.stop.length > 0) {
        await this.stepper.cancel();
        const stopping = users.filter((u) => decision.stop.includes(u.id));
        const reason = stopping.every((u) => u.function) ? 'function breakpoint' : 'breakpoint';
        this.stopped(reason, threadId, { hitBreakpointIds: decision.stop, description: decision.description });
        return;
      }
    }
    if (owners.some((o) => o.kind === 'internal' && o.tag === ENTRY)) {
      await this.breakpoints.removeInternal(ENTRY);
      this.stopped('entry', threadId, { description: 'Entry' });
      return;
    }
    if (owners.some((o) => o.kind === 'internal' && o.tag === asyncResumeTag)) {
      await this.stepper.resumed(threadId);
      return;
    }
    if (owners.some((o) => o.kind === 'internal' && o.tag === awaiterResumeTag)) {
      await this.stepper.awaiterResumed(threadId);
      return;
    }
    await this.requireNative().call('release', {});
  }

  private async exception(event: ExceptionEvent): Promise<void> {
    if (!event.held) {
      if (event.kind === 'firstChance') {
        this.emit({ type: 'output', category: 'console', text: `Exception thrown: '${event.type}'${event.message ? `: ${event.message}` : ''}\n` });
      }
      return;
    }
    if (!(await this.exceptions.stopsFor(event))) {
      await this.requireNative().call('release', {});
      return;
    }
    const userUnhandled = event.kind === 'catchHandlerFound';
    const info = await this.exceptions.describe(event);
    await this.stepper.cancel();
    this.lastException = info;
    const what = event.kind === 'userFirstChance' ? 'Exception thrown' : userUnhandled ? 'Exception unhandled in your code' : 'Unhandled exception';
    this.stopped('exception', event.threadId, {
      exception: info,
      description: `${what}: ${event.type}${event.message ? `: ${event.message}` : ''}`,
    });
  }

  private stopped(reason: string, threadId: number, extra: { hitBreakpointIds?: number[]; description?: string; exception?: ExceptionInfo }): void {
    this.stack.clear();
    this.taskGraph = undefined;
    this.reportedStop = true;
    this.stopThread = threadId;
    this.inspection.exceptionThread = reason === 'exception' ? threadId : undefined;
    this.inspection.returnSite = reason === 'step' ? this.stepper.returnSite : undefined;
    this.emitConditionStats();
    if (!this.startup.marks.stopDecided) {
      this.startup.mark('stopDecided');
      this.emit({ type: 'startupTimes', times: this.startup.current });
    }
    this.emit({ type: 'stopped', reason, threadId, allThreadsStopped: true, ...extra });
    // Read while the event travels to the server, which asks for these frames first.
    this.stack.readAhead(threadId);
  }

  private emitConditionStats(): void {
    this.emit({ type: 'conditionStats', ...this.rules.stats() });
  }

  /** Frames and values read at a stop are gone once the program runs. */
  private resumed(): void {
    this.stack.clear();
    this.taskGraph = undefined;
    this.inspection.clear();
  }

  private requireNative(): Native {
    if (!this.native || this.exited) throw new DebugError('INVALID_STATE', 'the .NET program is not being debugged any more');
    return this.native;
  }

  /** Runs `work` after everything queued before it (native events and state-changing requests). */
  private inOrder<T>(work: () => Promise<T>): Promise<T> {
    const run = this.serial.then(work, work);
    this.serial = run.catch(() => undefined);
    return run;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
