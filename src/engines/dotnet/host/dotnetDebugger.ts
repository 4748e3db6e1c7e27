/**
 * The .NET debugger proper, running in the host process beside the native addon: it reads symbols
 * when modules load, binds breakpoints before their code runs, decides what each runtime stop means
 * (a breakpoint of the user's, the entry, a step, an exception of a chosen type) and answers the
 * server's requests. Native events and state-changing requests run one at a time, in order.
 */
import { basename } from 'node:path';
import { DebugError } from '../../../core/errors.js';
import { MAX_CAUSES } from '../../../core/exceptionAutopsy.js';
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
import { asyncCatchSites } from './asyncCatchSites.js';
import { exceptionPath } from './asyncExceptionPath.js';
import { AsyncTaskReader } from './asyncTaskReader.js';
import { PendingTasks, type PendingTaskGraph } from './pendingTasks.js';
import { BreakpointBook } from './breakpointBook.js';
import { BreakpointRules } from './breakpointRules.js';
import { ModuleRegistry, type LoadedModule } from './moduleRegistry.js';
import type { NativeEvent } from './nativeEvents.js';
import { Native } from './nativeSession.js';
import { Inspection } from './inspection.js';
import { EditAndContinue, type EditApplied, type EditPreparation } from './editAndContinue.js';
import type { ModuleDelta } from '../worker/encProtocol.js';
import { StackReader } from './stackReader.js';
import { threadWait } from './threadWaits.js';
import { asyncResumeTag, awaiterResumeTag, Stepper } from './stepper.js';
import { innerExceptions } from './values/innerExceptions.js';

const ENTRY = 'entry';
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
  private exceptions: ExceptionBreakpointConfig = { filters: ['uncaught'] };
  private options?: StartOptions;
  private pid = 0;
  private entryPlaced = false;
  private lastException?: ExceptionInfo;
  /** The last exception stopped on as unhandled in the user's code (an async method's). */
  private userUnhandled?: ExceptionInfo;
  private serial: Promise<unknown> = Promise.resolve();
  private entryLoaded = deferred();
  private exited = false;
  /** A stop was reported and the program has not been resumed since. */
  private reportedStop = false;
  private stopThread = 0;
  private readonly startup = new StartupTimeline();
  /** The first framework module: System.Private.CoreLib. */
  private frameworkLibrary?: string;
  /** Assemblies read before the launch (readAhead). */
  private readonly readAheadFiles = new Set<string>();

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
    for (const file of files) {
      if (loadModuleSymbols(file).metadata) this.readAheadFiles.add(file);
    }
    this.startup.mark('readAhead');
  }

  // ---- requests ----

  async start(options: StartOptions): Promise<StartResult> {
    this.startup.mark('hostStart');
    this.options = options;
    this.pid = options.pid;
    this.exceptions = options.exceptions;
    this.enc.launched = options.mode === 'launch';
    const native = new Native((event) => this.onNative(event));
    this.native = native;
    const result = await this.inOrder(async () => {
      const byFile = new Map<string, BreakpointSpec[]>();
      for (const spec of options.breakpoints) byFile.set(spec.file, [...(byFile.get(spec.file) ?? []), spec]);
      for (const [file, specs] of byFile) await this.breakpoints.setLines(file, specs);
      await this.breakpoints.setFunctions(options.functionBreakpoints);
      // Both queued at once, in order, on the debugger thread: a launched program's runtime waits for the attach.
      const configured = native.call('configure', { holdModuleLoads: true, ...this.exceptionFlags() });
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
    await Promise.race([this.entryLoaded.promise, sleep(options.mode === 'launch' ? ENTRY_MODULE_WAIT_MS : 2_000)]);
    return { access: result.access, breakpoints: this.breakpoints.bindings(), startup: this.startup.current };
  }

  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.inOrder(() => this.breakpoints.setLines(file, specs));
  }

  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.inOrder(() => this.breakpoints.setFunctions(specs));
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    this.exceptions = config;
    await this.inOrder(() => this.requireNative().call('configure', this.exceptionFlags()));
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
        if (event.reason === 'load') return this.moduleLoaded(event);
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
        this.entryLoaded.resolve();
        this.emitConditionStats();
        this.emit({ type: 'runtimeExited' });
        return;
      case 'debuggerError':
        this.emit({ type: 'error', message: `the .NET debugger reported an internal error (HRESULT 0x${(event.hr >>> 0).toString(16)}, code ${event.code})` });
        return;
    }
  }

  private async moduleLoaded({ handle, path, held, framework }: Extract<NativeEvent, { event: 'module'; reason: 'load' }>): Promise<void> {
    try {
      const prepare = () => this.prepareModule(handle, path, framework);
      await (held ? this.startup.heldLoad(prepare) : prepare());
    } finally {
      // Whatever failed, the program must not stay held in LoadModule.
      if (held) await this.native?.call('release', {}).catch(() => undefined);
    }
  }

  private async prepareModule(handle: number, path: string, framework: boolean): Promise<void> {
    const module = this.modules.add(handle, path, framework);
    this.emit({ type: 'module', reason: 'new', name: module.name, path });
    if (module.symbols) {
      await this.requireNative().call('setUserCode', {
        module: handle,
        user: true,
        nonUserTokens: module.symbols.nonUserMethodTokens(),
        disableOptimizations: true,
      });
      await this.enc.moduleLoaded(module);
      for (const binding of await this.breakpoints.moduleLoaded(module)) this.emit({ type: 'breakpoint', binding });
      await this.placeEntry(module);
    }
    if (framework && !this.frameworkLibrary) {
      this.frameworkLibrary = path;
      if (this.readAheadFiles.has(path)) this.startup.mark('readAheadUsed');
    }
    if (this.isEntryModule(module)) {
      this.startup.mark('entryModule');
      this.entryLoaded.resolve();
      // System.Private.CoreLib's metadata names the framework's values (decimal, DateTime, List…) at
      // the first stop: it is read while the program runs there, not while the stop is built.
      const library = this.frameworkLibrary;
      if (library) setImmediate(() => this.modules.metadata(library));
    }
  }

  private isEntryModule(module: LoadedModule): boolean {
    const entry = this.options?.entryAssembly;
    return entry ? basename(entry) === module.name : !!module.symbols;
  }

  private async placeEntry(module: LoadedModule): Promise<void> {
    if (!this.options?.stopOnEntry || this.entryPlaced || !this.isEntryModule(module)) return;
    const target = module.symbols?.entryStatement();
    if (!target) return;
    await this.breakpoints.placeInternal(ENTRY, module.handle, target);
    this.entryPlaced = true;
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

  private async exception(event: Extract<NativeEvent, { event: 'exception' }>): Promise<void> {
    if (!event.held) {
      if (event.kind === 'firstChance') {
        this.emit({ type: 'output', category: 'console', text: `Exception thrown: '${event.type}'${event.message ? `: ${event.message}` : ''}\n` });
      }
      return;
    }
    if (!(await this.stopsFor(event))) {
      await this.requireNative().call('release', {});
      return;
    }
    const userUnhandled = event.kind === 'catchHandlerFound';
    const causes = await innerExceptions(this.requireNative(), this.inspection.reader, event.threadId, MAX_CAUSES + 1).catch(() => []);
    const info: ExceptionInfo = { type: event.type || undefined, message: event.message || undefined, kind: userUnhandled ? 'userUnhandled' : event.kind, ...(causes.length ? { causes } : {}) };
    Object.assign(info, await this.awaitedFrom(event.threadId));
    const catchSites = await asyncCatchSites(this.stack, this.modules, event.threadId, event.types).catch(() => []);
    if (catchSites.length) info.catchSites = catchSites;
    if (userUnhandled) this.userUnhandled = info;
    await this.stepper.cancel();
    this.lastException = info;
    const what = event.kind === 'userFirstChance' ? 'Exception thrown' : userUnhandled ? 'Exception unhandled in your code' : 'Unhandled exception';
    this.stopped('exception', event.threadId, {
      exception: info,
      description: `${what}: ${event.type}${event.message ? `: ${event.message}` : ''}`,
    });
  }

  /**
   * An exception an async method took from a task it awaited was thrown elsewhere, in methods that
   * have returned since: where, and the way it came (its stack trace), when that is not here.
   */
  private async awaitedFrom(threadId: number): Promise<Pick<ExceptionInfo, 'path' | 'thrownAt'>> {
    // Taken from a task, it is thrown again by the runtime's awaiter (external code) inside the
    // awaiting method; thrown by the user's code itself, it is where it was thrown.
    const { frames } = await this.stack.frames(threadId, 0, 20).catch(() => ({ frames: [] as FrameInfo[] }));
    if (!frames[0] || frames[0].id > 0) return {};
    const top = frames.find((f) => f.id > 0 && !f.async);
    const handle = top && this.stack.handle(top.id);
    if (!top || !handle || !this.asyncChains.isAsyncBody(handle.module, handle.methodToken)) return {};
    const { reader, funcEval } = this.inspection;
    const path = await exceptionPath(this.requireNative(), reader, funcEval, threadId).catch(() => []);
    const thrown = path.find((f) => f.file);
    if (!thrown || (thrown.file === top.file && thrown.line === top.line)) return {};
    return { path, thrownAt: { file: thrown.file, line: thrown.line } };
  }

  /** Whether a held exception event is a stop the user asked for. */
  private async stopsFor(event: Extract<NativeEvent, { event: 'exception' }>): Promise<boolean> {
    switch (event.kind) {
      case 'userFirstChance':
        return this.matchesTypeFilter(event.types);
      case 'catchHandlerFound': {
        // Caught by the compiler's handler that hands an async method's exception to its task: it
        // leaves the user's code unhandled, and the throw site is still on the stack.
        const handler = event.handler;
        const symbols = handler ? this.modules.get(handler.module)?.symbols : undefined;
        return !!handler && symbols?.asyncInfo(handler.token)?.catchHandlerOffset === handler.ilOffset;
      }
      case 'unhandled': {
        // The framework rethrowing an exception already stopped on as unhandled in the user's code.
        const seen = this.userUnhandled;
        this.userUnhandled = undefined;
        if (seen && seen.type === event.type && (seen.message ?? '') === event.message) return (await this.stack.top(event.threadId)) !== undefined;
        return true;
      }
      default:
        return false;
    }
  }

  /** `exceptionTypes` match the thrown type or any base type, by full or simple name. */
  private matchesTypeFilter(types: string[]): boolean {
    const wanted = this.exceptions.typeNames ?? [];
    if (wanted.length === 0) return true;
    return types.some((t) => wanted.some((w) => w === t || w === t.split('.').pop()));
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

  private exceptionFlags(): { stopOnUnhandled: boolean; stopOnFirstChance: boolean } {
    const filters = this.exceptions.filters;
    return {
      stopOnUnhandled: filters.includes('uncaught') || filters.includes('unhandled'),
      stopOnFirstChance: filters.includes('all') || filters.includes('raised'),
    };
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

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
