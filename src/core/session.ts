/**
 * One debugging session: a program, its engine, its breakpoints, what it printed and what happened.
 * The session owns the state machine; every wait (stop, exit, launch) goes through `waitFor` so a
 * timeout or a cancelled request ends it at once.
 */
import { BreakpointRegistry, type BreakpointRecord, type BreakpointRequest, type BreakpointSelection } from './breakpointRegistry.js';
import { CursorLog } from './cursorLog.js';
import type { Engine, EngineEvent, EngineFactory, LogLevel } from './engine.js';
import { DebugError, toDebugError } from './errors.js';
import { FrameCache } from './frameCache.js';
import { buildHangReport, HANG_FRAMES, readThreadDumps, type HangReport } from './hangReport.js';
import { Inspector } from './inspector.js';
import { startEngine } from './engineStart.js';
import { describeEvent, describeExit } from './eventSummary.js';
import { waitUntil } from './waitUntil.js';
import type { SessionConfig } from './sessionConfig.js';
import { ProgramOutput } from './programOutput.js';
import type { SessionEnd, SessionEvent, SessionSnapshot, Stop, WaitOptions, WaitResult } from './sessionTypes.js';
import { buildStop } from './stopBuilder.js';
import { StopAnnotator } from './stopAnnotator.js';
import { TraceLog } from './traceLog.js';
import { TraceRecorder } from './traceRecorder.js';
import { WatchList, type WatchValue } from './watchList.js';
import { planJump, type JumpTarget } from './jumpPlan.js';
import { waitForPause } from './pauseFallback.js';
import { RunTimings } from './runTimings.js';
import type { BreakpointBinding, ExceptionBreakpointConfig, SessionStateName, StepKind, ThreadInfo } from './types.js';

export interface SessionHooks {
  /** Something the agent should hear about without asking (stop, exit, failure). */
  notify(session: Session, level: LogLevel, message: string): void;
  /** Configuration or breakpoints changed: persist them. */
  changed(session: Session): void;
  /** The run is over (exited, failed or ended): its engine has been released. */
  ended?(session: Session): void;
  log(level: LogLevel, message: string): void;
}

const ACTIVE_STATES: SessionStateName[] = ['initializing', 'running', 'stopped'];
/** What an ended session keeps of its event log. */
const ENDED_EVENTS_KEPT = 100;

export class Session {
  readonly events = new CursorLog<SessionEvent>(2000);
  readonly output = new ProgramOutput();
  readonly breakpoints: BreakpointRegistry;
  readonly watches = new WatchList();
  readonly traces = new TraceLog();
  readonly startedAt = Date.now();
  /** When the agent last called on this session (or a call of it was still waiting). */
  lastActivity = Date.now();

  private engineInstance?: Engine;
  /** What the last engine could tell when it was released, for diagnostics after the end. */
  private releasedDiagnostics?: ReturnType<Engine['diagnostics']>;
  private pidValue?: number;
  private exitSignalValue?: string;
  private endedAtValue?: number;
  /** Starting, restarting and ending replace the run: they go one at a time. */
  private runQueue: Promise<unknown> = Promise.resolve();
  /** Aborts the start in progress when the session is stopped meanwhile. */
  private starting?: AbortController;
  private stateName: SessionStateName = 'initializing';
  private currentStop?: Stop;
  /** The thread of the last stop, known as soon as the stop is (its details come a moment later). */
  private stoppedThread?: number;
  /** Counts stops; a waiter wants a stop numbered above what it saw when it started. */
  private stopSeq = 0;
  private builtStopSeq = 0;
  private exitCodeValue?: number;
  private errorText?: string;
  private runNumber = 0;
  private readonly frames = new FrameCache(() => this.engine);
  private readonly annotator = new StopAnnotator(this.watches, () => this.engine);
  private readonly traceRecorder: TraceRecorder;
  private readonly changeListeners = new Set<() => void>();
  private readonly timings = new RunTimings();
  private launchNote?: string;

  constructor(
    readonly id: string,
    readonly config: SessionConfig,
    private readonly factory: EngineFactory,
    private readonly hooks: SessionHooks,
    breakpoints: BreakpointRecord[] = [],
  ) {
    this.breakpoints = new BreakpointRegistry(breakpoints);
    this.traceRecorder = new TraceRecorder(this.traces, this.breakpoints, {
      engine: () => this.engine,
      resendFile: (file) => (this.active ? this.syncFile(file) : undefined),
      warn: (message) => this.hooks.log('warning', `[${this.id}] ${message}`),
    });
  }

  get state(): SessionStateName {
    return this.stateName;
  }
  get active(): boolean {
    return ACTIVE_STATES.includes(this.stateName);
  }
  get stop(): Stop | undefined {
    return this.stateName === 'stopped' ? this.currentStop : undefined;
  }
  get exitCode(): number | undefined {
    return this.exitCodeValue;
  }
  /** The signal that killed the program, when one did. */
  get exitSignal(): string | undefined {
    return this.exitSignalValue;
  }
  /** When the run ended; undefined while it is active. */
  get endedAt(): number | undefined {
    return this.active ? undefined : this.endedAtValue;
  }
  private get engine(): Engine {
    if (!this.engineInstance) {
      if (!this.active) throw new DebugError('INVALID_STATE', `Session ${this.id} is ${this.stateName}.`, 'The program is not running: session_restart runs it again.');
      throw new DebugError('INVALID_STATE', `Session ${this.id} has not started.`, 'Wait for session_launch to answer.');
    }
    return this.engineInstance;
  }

  /** The agent used the session now. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  snapshot(): SessionSnapshot {
    return {
      sessionId: this.id,
      language: this.config.language,
      program: this.config.program,
      state: this.stateName,
      pid: this.engineInstance?.pid ?? this.pidValue,
      stop: this.stop,
      exitCode: this.exitCodeValue,
      exitSignal: this.exitSignalValue,
      error: this.errorText,
      startedAt: this.startedAt,
      run: this.runNumber,
      attached: !!this.config.attach,
      launchNote: this.launchNote,
    };
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  /** Starts the program with every breakpoint armed; resolves once it runs. */
  start(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.exclusive(() => this.startRun(timeoutMs, signal));
  }

  /** Ends the run there is (if any) and starts a new one, as one step: concurrent restarts go in turn. */
  restart(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.exclusive(async () => {
      await this.endRun(false);
      await this.startRun(timeoutMs, signal);
    });
  }

  /** Ends the session: terminates the debuggee (or detaches) and releases the engine. A start in progress is cancelled. */
  end(detach: boolean): Promise<SessionEnd> {
    this.starting?.abort();
    return this.exclusive(() => this.endRun(detach));
  }

  /** Ends everything now, whatever is in progress (the server is going away). */
  async dispose(): Promise<void> {
    this.starting?.abort();
    await this.engineInstance?.dispose().catch(() => undefined);
    if (this.active) this.setState('terminated');
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.runQueue.then(work, work);
    this.runQueue = next.catch(() => undefined);
    return next;
  }

  private async startRun(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.runNumber++;
    const run = this.runNumber;
    this.breakpoints.resetBindings();
    this.annotator.reset();
    this.traces.reset();
    this.setState('initializing');
    this.stopSeq = this.builtStopSeq = 0;
    this.currentStop = undefined;
    this.stoppedThread = undefined;
    this.exitCodeValue = undefined;
    this.exitSignalValue = undefined;
    this.errorText = undefined;
    this.pidValue = undefined;
    this.releasedDiagnostics = undefined;
    this.timings.start();
    const engine = this.factory.create({
      emit: (event) => {
        if (run === this.runNumber) this.onEngineEvent(event);
      },
      log: (level, message) => this.hooks.log(level, `[${this.id}] ${message}`),
    });
    this.engineInstance = engine;
    const stopped = (this.starting = new AbortController());
    try {
      const result = await startEngine(engine, this.config, this.breakpoints, { timeoutMs, signal, stopped: stopped.signal });
      for (const binding of result.breakpoints) this.breakpoints.applyBinding(binding);
      this.launchNote = result.note;
      this.timings.mark('startMs');
      if (this.stateName === 'initializing') this.setState('running');
      this.record({ type: 'started', summary: `${this.config.attach ? 'Attached to' : 'Launched'} ${this.config.program}${engine.pid ? ` (pid ${engine.pid})` : ''}` });
    } catch (e) {
      const error = toDebugError(e, this.config.attach ? 'ATTACH_FAILED' : 'LAUNCH_FAILED');
      this.fail(error.message);
      // Every process of the run is gone before the failure is answered.
      await engine.dispose().catch(() => undefined);
      throw error;
    } finally {
      if (this.starting === stopped) this.starting = undefined;
      this.touch();
    }
  }

  private async endRun(detach: boolean): Promise<SessionEnd> {
    const engine = this.engineInstance;
    const wasActive = this.active;
    if (engine && wasActive) {
      try {
        if (detach) await engine.detach();
        else await engine.terminate();
      } catch (e) {
        this.hooks.log('warning', `[${this.id}] ${detach ? 'detach' : 'terminate'} failed: ${(e as Error).message}`);
      }
    }
    await engine?.dispose().catch(() => undefined);
    // The exit that terminate causes is part of ending the session, not an exit of its own.
    if (wasActive) this.setState('terminated');
    if (engine) this.record({ type: 'ended', summary: detach ? 'Detached; the program runs on.' : 'Session ended.' });
    return { exitCode: this.exitCodeValue, exitSignal: this.exitSignalValue, outputTail: this.output.tail(), wasRunning: wasActive };
  }

  /** Once the run is over its engine (processes, sockets, child-process objects) is let go. */
  private release(): void {
    const engine = this.engineInstance;
    if (!engine) return;
    void engine
      .dispose()
      .catch(() => undefined)
      .then(() => {
        if (this.engineInstance !== engine || this.active) return; // a new run started meanwhile
        this.pidValue = engine.pid;
        this.releasedDiagnostics = engine.diagnostics();
        this.engineInstance = undefined;
        this.frames.clear();
        // An ended session is kept for reading; what it keeps is trimmed to what is read then.
        this.events.retain(ENDED_EVENTS_KEPT);
        this.output.trimEnded();
        this.hooks.ended?.(this);
      });
  }

  // ── waiting ────────────────────────────────────────────────────────────────────────────────

  /** The current stop if stopped; else waits for the next stop or the end. */
  waitForStop(options: WaitOptions): Promise<WaitResult> {
    const since = this.stateName === 'stopped' ? this.stopSeq - 1 : this.stopSeq;
    return this.waitForStopAfter(since, options);
  }

  private async waitForStopAfter(seenSeq: number, { timeoutMs, signal, onProgress }: WaitOptions): Promise<WaitResult> {
    const t0 = Date.now();
    const outcome = await waitUntil(
      { subscribe: (listener) => (this.changeListeners.add(listener), () => this.changeListeners.delete(listener)) },
      () => (this.builtStopSeq > seenSeq && this.stateName === 'stopped' ? 'stopped' : !this.active ? 'ended' : undefined),
      {
        timeoutMs,
        signal,
        onTick: (ms) => {
          this.touch(); // waiting on the session is using it
          onProgress?.(`waiting for a stop: ${this.stateName}, ${Math.round(ms / 1000)} s`);
        },
      },
    );
    this.touch();
    const base = { state: this.stateName, waitedMs: Date.now() - t0 };
    if (outcome.kind === 'cancelled') return { ...base, status: 'timeout', error: 'cancelled by the client' };
    if (outcome.kind === 'timeout') return { ...base, status: 'timeout' };
    if (outcome.value === 'stopped') return { ...base, status: 'stopped', stop: this.currentStop };
    return { ...base, status: 'exited', exitCode: this.exitCodeValue, exitSignal: this.exitSignalValue, error: this.errorText, outputTail: this.output.tail() };
  }

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  async continue(options: WaitOptions & { wait: boolean; threadId?: number }): Promise<WaitResult> {
    this.requireState(['stopped', 'running'], 'continue');
    const seen = this.stopSeq;
    if (this.stateName === 'stopped') {
      const threadId = options.threadId ?? this.currentStop?.threadId ?? this.stoppedThread;
      await this.resume(() => this.engine.continue(threadId));
    }
    if (!options.wait) return { status: 'timeout', state: this.stateName, waitedMs: 0 };
    return this.waitForStopAfter(seen, options);
  }

  async step(kind: StepKind, options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    this.requireState(['stopped'], 'step');
    const threadId = options.threadId ?? this.stoppedThreadId();
    return this.waitForStopAfter(await this.resume(() => this.engine.step(threadId, kind)), options);
  }

  async pause(options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    if (this.stateName === 'stopped') return this.waitForStop(options);
    this.requireState(['running'], 'pause');
    const seen = this.stopSeq;
    await this.engine.pause(options.threadId);
    const run = {
      waitForStop: (timeoutMs: number) => this.waitForStopAfter(seen, { ...options, timeoutMs }),
      stopped: () => this.stopSeq > seen,
      hangReport: () => this.hangReport(HANG_FRAMES),
      state: () => this.stateName,
    };
    return waitForPause(run, options.timeoutMs);
  }

  /** Every thread's stack and what it waits on, grouped (read while running where the engine can). */
  async hangReport(levels = HANG_FRAMES): Promise<HangReport> {
    this.requireState(['stopped', 'running'], 'read the threads\' stacks');
    return buildHangReport(await readThreadDumps(this.engine, levels));
  }

  /** Moves the next statement to `line` of the top frame, or runs a frame again from its start; answers the new position. */
  async jump(target: JumpTarget, options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    this.requireState(['stopped'], 'move the next statement');
    const threadId = options.threadId ?? this.stoppedThreadId();
    const move = await planJump(this.engine, this.config.language, target, (index) => this.frames.frame(threadId, index), threadId);
    return this.waitForStopAfter(await this.resume(move), options);
  }

  /** Runs to file:line through a one-shot breakpoint that is removed once anything stops. */
  async runTo(file: string, line: number, options: WaitOptions): Promise<WaitResult> {
    this.requireState(['stopped', 'running'], 'run to a line');
    const temp = this.breakpoints.add({ file, line }, true);
    try {
      const [binding] = (await this.syncFile(file)).filter((b) => b.id === temp.id);
      if (binding && !binding.verified) {
        throw new DebugError('INVALID_ARGUMENT', `Cannot run to ${file}:${line}: ${binding.message ?? 'no code there'}.`, 'Pick a line with code (inspect_source shows the file).');
      }
      return await this.continue({ ...options, wait: true });
    } finally {
      this.breakpoints.remove(temp.id);
      if (this.active) await this.syncFile(file).catch(() => undefined);
    }
  }

  // ── breakpoints ────────────────────────────────────────────────────────────────────────────

  async setBreakpoint(request: BreakpointRequest): Promise<BreakpointRecord> {
    const record = this.breakpoints.set(request);
    this.traceRecorder.arm(record);
    if (this.engineInstance && this.active) {
      if (record.kind === 'function') await this.syncFunctions();
      else await this.syncFile(record.file!);
    }
    this.hooks.changed(this);
    return this.breakpoints.get(record.id)!;
  }

  async removeBreakpoints(select: BreakpointSelection): Promise<BreakpointRecord[]> {
    const victims = this.breakpoints.selected(select);
    for (const v of victims) this.breakpoints.remove(v.id);
    if (this.engineInstance && this.active) {
      for (const file of new Set(victims.flatMap((v) => (v.file ? [v.file] : [])))) await this.syncFile(file);
      if (victims.some((v) => v.kind === 'function')) await this.syncFunctions();
    }
    this.hooks.changed(this);
    return victims;
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    this.config.exceptions = config;
    if (this.engineInstance && this.active) await this.engine.setExceptionBreakpoints(config);
    this.hooks.changed(this);
  }

  private async syncFile(file: string): Promise<BreakpointBinding[]> {
    const bindings = await this.engine.setBreakpoints(file, this.breakpoints.lineSpecs(file));
    for (const b of bindings) this.breakpoints.applyBinding(b);
    return bindings;
  }

  private async syncFunctions(): Promise<void> {
    const bindings = await this.engine.setFunctionBreakpoints(this.breakpoints.functionSpecs());
    for (const b of bindings) this.breakpoints.applyBinding(b);
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  async threads(): Promise<ThreadInfo[]> {
    this.requireState(['stopped', 'running'], 'list threads');
    return this.engine.threads();
  }

  stackPage(threadId: number | undefined, start: number, count: number) {
    this.requireState(['stopped'], 'read the stack');
    return this.frames.page(threadId ?? this.stoppedThreadId(), start, count);
  }

  /** Engine handle of a frame, by index from the top (0) of a thread (default: the stopped one). */
  async frameId(frameIndex = 0, threadId?: number): Promise<number> {
    this.requireState(['stopped'], 'inspect values');
    return (await this.frames.frame(threadId ?? this.stoppedThreadId(), frameIndex)).id;
  }

  inspector(): Inspector {
    this.requireState(['stopped'], 'inspect values');
    return new Inspector(this.engine);
  }

  /** After a value changed, the stop's locals summary is stale: rebuild it. */
  async refreshStop(): Promise<void> {
    if (this.stateName !== 'stopped' || !this.currentStop) return;
    this.frames.clear();
    const { stop, frames } = await this.annotator.reread(this.currentStop);
    this.currentStop = { ...stop, at: this.currentStop.at };
    this.frames.seed(stop.threadId, frames);
  }

  /** The watches' values at the current stop (after watches were added); undefined when not stopped. */
  async watchValues(): Promise<WatchValue[] | undefined> {
    if (this.stateName !== 'stopped' || !this.currentStop) return undefined;
    const values = await this.annotator.watchValues();
    this.currentStop = { ...this.currentStop, watches: values.length ? values : undefined };
    return values;
  }

  diagnostics() {
    return {
      ...this.snapshot(),
      engine: this.engineInstance?.diagnostics() ?? this.releasedDiagnostics,
      recentEvents: this.events.last(15).map((e) => ({ at: e.at, ...e.value })),
      timings: this.timings.marks,
    };
  }

  // ── engine events ──────────────────────────────────────────────────────────────────────────

  private onEngineEvent(event: EngineEvent): void {
    switch (event.type) {
      case 'stopped':
        this.onStopped(event);
        return;
      case 'continued':
        if (this.stateName === 'stopped') this.resumed();
        return;
      case 'output':
        this.output.append({ category: event.category, text: event.text });
        return;
      case 'trace':
        this.traceRecorder.record(event.breakpointId, event.threadId, event.values);
        return;
      case 'module':
      case 'thread':
      case 'process':
        break;
      case 'breakpoint':
        this.breakpoints.applyBinding(event.binding);
        break;
      case 'exited':
        this.exitCodeValue = event.exitCode;
        this.exitSignalValue = event.signal;
        if (this.active) this.setState('exited');
        this.hooks.notify(this, 'info', `Session ${this.id}: the program ${describeExit(event.exitCode, event.signal)}.`);
        break;
      case 'terminated':
        if (this.active) this.setState(this.exitCodeValue !== undefined ? 'exited' : 'terminated');
        break;
      case 'error':
        this.fail(event.message);
        break;
    }
    this.record(describeEvent(event));
  }

  private onStopped(stopped: Extract<EngineEvent, { type: 'stopped' }>): void {
    if (!this.active) return;
    // A stop at trace breakpoints alone is no stop for the agent: it is recorded and the program runs on.
    if (this.traceRecorder.onlyTraces(stopped.hitBreakpointIds)) {
      void this.traceRecorder.traceAndResume(stopped.threadId, stopped.hitBreakpointIds!);
      return;
    }
    const seq = ++this.stopSeq;
    if (seq === 1) this.timings.mark('firstStopMs');
    this.frames.clear();
    this.stoppedThread = stopped.threadId;
    this.setState('stopped');
    const event = withoutOneShotHits(stopped, this.breakpoints);
    this.breakpoints.countHits(event.hitBreakpointIds ?? []);
    void buildStop(this.engine, event).then(
      async (built) => {
        if (seq !== this.stopSeq) return; // the program ran on before the details came back
        const stop = await this.annotator.annotate(built.stop, built.frames, true);
        if (seq !== this.stopSeq) return;
        const frames = built.frames;
        this.currentStop = stop;
        this.frames.seed(stop.threadId, frames);
        this.builtStopSeq = seq;
        if (seq === 1) this.timings.mark('firstStopBuiltMs');
        const where = `${stop.frame.name} (${stop.frame.file ?? '?'}:${stop.frame.line})`;
        this.record({ type: 'stopped', summary: `Stopped (${stop.reason}) in ${where}, thread ${stop.threadId}`, data: { reason: stop.reason, threadId: stop.threadId, hitBreakpointIds: stop.hitBreakpointIds } });
        this.hooks.notify(this, 'info', `Session ${this.id} stopped (${stop.reason}) in ${where}.`);
        this.changed();
      },
      (e) => this.hooks.log('warning', `[${this.id}] could not read the stop: ${(e as Error).message}`),
    );
  }

  /** The thread that stopped, for calls that default to it. */
  stoppedThreadId(): number {
    if (this.stateName !== 'stopped' || this.stoppedThread === undefined) this.requireState(['stopped'], 'use the stopped thread');
    return this.stoppedThread!;
  }

  private resumed(): void {
    this.frames.clear();
    this.currentStop = undefined;
    this.stoppedThread = undefined;
    this.setState('running');
  }

  /** Lets the program run through `move`; answers the stop count it had, which a wait then counts from. */
  private async resume(move: () => Promise<void>): Promise<number> {
    const seen = this.stopSeq;
    const [stop, thread] = [this.currentStop, this.stoppedThread];
    this.resumed();
    await move().catch((e: unknown) => this.stillStopped(stop, thread, seen, e));
    return seen;
  }

  /** The engine refused to resume: the program is where it was, so the session is too. */
  private stillStopped(stop: Stop | undefined, thread: number | undefined, seenSeq: number, error: unknown): never {
    if (this.stateName === 'running' && this.stopSeq === seenSeq && stop) {
      this.currentStop = stop;
      this.stoppedThread = thread;
      this.setState('stopped');
    }
    throw error;
  }

  private fail(message: string): void {
    this.errorText = message;
    if (this.active) this.setState('failed');
    this.hooks.notify(this, 'error', `Session ${this.id} failed: ${message}`);
  }

  private setState(state: SessionStateName): void {
    if (this.stateName === state) return;
    const wasActive = this.active;
    this.stateName = state;
    if (wasActive && !this.active) {
      this.endedAtValue = Date.now();
      this.release();
    }
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.changeListeners]) listener();
  }

  private record(event: SessionEvent): void {
    this.events.append(event);
  }

  private requireState(allowed: SessionStateName[], action: string): void {
    if (allowed.includes(this.stateName)) return;
    const next =
      this.stateName === 'running'
        ? 'Wait for a stop with breakpoint_wait, or interrupt with execution_pause.'
        : this.stateName === 'initializing'
          ? 'Wait for session_launch to answer.'
          : 'The program is not running: session_restart runs it again.';
    throw new DebugError('INVALID_STATE', `Cannot ${action}: session ${this.id} is ${this.stateName}.`, next);
  }
}

/** run_to's one-shot breakpoint is no breakpoint of the user's: a stop there is reason 'run to'. */
function withoutOneShotHits(event: Extract<EngineEvent, { type: 'stopped' }>, breakpoints: BreakpointRegistry): Extract<EngineEvent, { type: 'stopped' }> {
  const hits = event.hitBreakpointIds ?? [];
  const userHits = hits.filter((id) => !breakpoints.get(id)?.temporary);
  if (userHits.length === hits.length) return event;
  return { ...event, reason: userHits.length ? event.reason : 'run to', hitBreakpointIds: userHits };
}
