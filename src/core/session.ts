/**
 * One debugging session: a program, its engine, its breakpoints, what it printed and what happened.
 * The session starts, restarts and ends the run, takes in the engine's events and turns the agent's
 * calls into engine requests; its state machine and stops are in `SessionStateMachine`, whose waits
 * end at once on a timeout or a cancelled request.
 */
import { BreakpointRegistry, type BreakpointRecord, type BreakpointRequest, type BreakpointSelection } from './breakpointRegistry.js';
import { BreakpointSync } from './breakpointSync.js';
import { CursorLog } from './cursorLog.js';
import type { Engine, EngineEvent, EngineFactory, LiveEditRequest, LogLevel } from './engine.js';
import { DebugError, toDebugError } from './errors.js';
import { FrameCache } from './frameCache.js';
import { FrameStep } from './frameStep.js';
import { buildHangReport, HANG_FRAMES, readPendingTasks, readThreadDumps, type HangReport } from './hangReport.js';
import { Inspector } from './inspector.js';
import { startEngine } from './engineStart.js';
import { describeEvent, describeExit } from './eventSummary.js';
import type { SessionConfig } from './sessionConfig.js';
import { ProgramOutput } from './programOutput.js';
import { SessionStateMachine } from './sessionStateMachine.js';
import type { SessionEnd, SessionEvent, SessionSnapshot, Stop, WaitOptions, WaitResult } from './sessionTypes.js';
import { StopAnnotator } from './stopAnnotator.js';
import { StopIntake } from './stopIntake.js';
import { TraceLog } from './traceLog.js';
import { TraceRecorder } from './traceRecorder.js';
import { WatchList, type WatchValue } from './watchList.js';
import { planJump, type JumpTarget } from './jumpPlan.js';
import { applyLiveEdit, type LiveEditAnswer } from './liveEdit.js';
import { waitForPause } from './pauseFallback.js';
import { RunTimings } from './runTimings.js';
import type { ExceptionBreakpointConfig, RunVerdict, SessionStateName, StepKind, ThreadInfo } from './types.js';

export interface SessionHooks {
  /** Something the agent should hear about without asking (stop, exit, failure). */
  notify(session: Session, level: LogLevel, message: string): void;
  /** Configuration or breakpoints changed: persist them. */
  changed(session: Session): void;
  /** The run is over (exited, failed or ended): its engine has been released. */
  ended?(session: Session): void;
  log(level: LogLevel, message: string): void;
}

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
  /** Starting, restarting and ending replace the run: they go one at a time. */
  private runQueue: Promise<unknown> = Promise.resolve();
  /** Aborts the start in progress when the session is stopped meanwhile. */
  private starting?: AbortController;
  private exitCodeValue?: number;
  private verdictValue?: RunVerdict;
  private errorText?: string;
  private runNumber = 0;
  private readonly machine: SessionStateMachine;
  private readonly frames = new FrameCache(() => this.engine);
  private readonly frameStep = new FrameStep(() => this.engine, (message) => this.hooks.log('info', `[${this.id}] ${message}`));
  private readonly annotator = new StopAnnotator(this.watches, () => this.engine);
  private readonly sync: BreakpointSync;
  private readonly traceRecorder: TraceRecorder;
  private readonly stops: StopIntake;
  private readonly timings = new RunTimings();
  private launchNote?: string;

  constructor(
    readonly id: string,
    readonly config: SessionConfig,
    private readonly factory: EngineFactory,
    private readonly hooks: SessionHooks,
    breakpoints: BreakpointRecord[] = [],
  ) {
    this.machine = new SessionStateMachine(id, {
      resumed: () => this.frames.clear(),
      ended: () => this.release(),
      touch: () => this.touch(),
      endOfRun: () => ({ exitCode: this.exitCodeValue, exitSignal: this.exitSignalValue, error: this.errorText, outputTail: this.output.tail(), verdict: this.verdictValue }),
    });
    this.breakpoints = new BreakpointRegistry(breakpoints);
    this.sync = new BreakpointSync(this.breakpoints, () => this.engine, () => this.active);
    this.traceRecorder = new TraceRecorder(this.traces, this.breakpoints, {
      engine: () => this.engine,
      resendFile: (file) => (this.active ? this.sync.file(file) : undefined),
      warn: (message) => this.hooks.log('warning', `[${this.id}] ${message}`),
    });
    const { machine, frames, frameStep, annotator, sync, traceRecorder, timings } = this;
    this.stops = new StopIntake({
      machine, frames, frameStep, annotator, sync, breakpoints: this.breakpoints, traceRecorder, timings,
      engine: () => this.engine,
      record: (event) => this.record(event),
      notify: (message) => this.hooks.notify(this, 'info', `Session ${this.id} ${message}`),
      warn: (message) => this.hooks.log('warning', `[${this.id}] ${message}`),
    });
  }

  get state(): SessionStateName {
    return this.machine.state;
  }
  get active(): boolean {
    return this.machine.active;
  }
  get stop(): Stop | undefined {
    return this.machine.stop;
  }
  get exitCode(): number | undefined {
    return this.exitCodeValue;
  }
  /** How the run judged itself (a test run), once the engine knows. */
  get verdict(): RunVerdict | undefined {
    return this.verdictValue;
  }
  /** The signal that killed the program, when one did. */
  get exitSignal(): string | undefined {
    return this.exitSignalValue;
  }
  /** When the run ended; undefined while it is active. */
  get endedAt(): number | undefined {
    return this.machine.endedAt;
  }
  private get engine(): Engine {
    if (!this.engineInstance) {
      if (!this.active) throw new DebugError('INVALID_STATE', `Session ${this.id} is ${this.state}.`, 'The program is not running: session_restart runs it again.');
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
      state: this.state,
      pid: this.engineInstance?.pid ?? this.pidValue,
      stop: this.stop,
      exitCode: this.exitCodeValue,
      exitSignal: this.exitSignalValue,
      error: this.errorText,
      startedAt: this.startedAt,
      run: this.runNumber,
      attached: !!this.config.attach,
      launchNote: this.launchNote,
      verdict: this.verdictValue,
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
    if (this.active) this.machine.set('terminated');
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
    this.frameStep.cancel();
    // Traces given with the launch (or kept from a stored session) get their tables here.
    for (const record of this.breakpoints.all(false)) if (record.trace?.length && !this.traces.get(record.id)) this.traceRecorder.arm(record);
    this.machine.newRun();
    this.exitCodeValue = undefined;
    this.exitSignalValue = undefined;
    this.verdictValue = undefined;
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
      if (this.state === 'initializing') this.machine.set('running');
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
    this.frameStep.cancel();
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
    if (wasActive) this.machine.set('terminated');
    if (engine) this.record({ type: 'ended', summary: detach ? 'Detached; the program runs on.' : 'Session ended.' });
    return { exitCode: this.exitCodeValue, exitSignal: this.exitSignalValue, outputTail: this.output.tail(), wasRunning: wasActive, verdict: this.verdictValue };
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

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  /** The current stop if stopped; else waits for the next stop or the end. */
  waitForStop(options: WaitOptions): Promise<WaitResult> {
    return this.machine.waitForStop(options);
  }

  async continue(options: WaitOptions & { wait: boolean; threadId?: number }): Promise<WaitResult> {
    this.machine.require(['stopped', 'running'], 'continue');
    const seen = this.machine.stopCount;
    this.frameStep.cancel();
    if (this.state === 'stopped') {
      const threadId = options.threadId ?? this.machine.resumeThreadId();
      await this.machine.resume(() => this.engine.continue(threadId));
    }
    if (!options.wait) return { status: 'timeout', state: this.state, waitedMs: 0 };
    return this.machine.waitForStopAfter(seen, options);
  }

  /** Steps from the stop's current frame (core/frameStep.ts when frames lie above it). */
  async step(kind: StepKind, options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    this.machine.require(['stopped'], 'step');
    const threadId = options.threadId ?? this.stoppedThreadId();
    const index = this.currentFrameOf(threadId);
    const from = index > 0 ? await this.frames.frame(threadId, index) : undefined;
    const move = from ? () => this.frameStep.start(threadId, index, from, kind) : () => this.engine.step(threadId, kind);
    return this.machine.waitForStopAfter(await this.machine.resume(move), options);
  }

  async pause(options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    if (this.state === 'stopped') return this.waitForStop(options);
    this.machine.require(['running'], 'pause');
    const seen = this.machine.stopCount;
    this.frameStep.cancel();
    await this.engine.pause(options.threadId);
    const run = {
      waitForStop: (timeoutMs: number) => this.machine.waitForStopAfter(seen, { ...options, timeoutMs }),
      stopped: () => this.machine.stopCount > seen,
      hangReport: () => this.hangReport(HANG_FRAMES),
      state: () => this.state,
    };
    return waitForPause(run, options.timeoutMs);
  }

  /** Every thread's stack and what it waits on, grouped (read while running where the engine can). */
  async hangReport(levels = HANG_FRAMES): Promise<HangReport> {
    this.machine.require(['stopped', 'running'], 'read the threads\' stacks');
    const dumps = await readThreadDumps(this.engine, levels);
    return buildHangReport(dumps, await readPendingTasks(this.engine, levels));
  }

  /** A source file's lines where the program runs (a target's file that is not here); undefined when there is no such place or file. */
  async sourceLinesThere(file: string): Promise<string[] | undefined> {
    return this.engineInstance?.sourceLines?.(file);
  }

  /** Moves the next statement to `line` of the top frame, or runs a frame again from its start; answers the new position. */
  async jump(target: JumpTarget, options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    this.machine.require(['stopped'], 'move the next statement');
    const threadId = options.threadId ?? this.stoppedThreadId();
    const move = await planJump(this.engine, this.config.language, target, (index) => this.frames.frame(threadId, index), threadId);
    return this.machine.waitForStopAfter(await this.machine.resume(move), options);
  }

  /** Runs to file:line through a one-shot breakpoint that is removed once anything stops. */
  async runTo(file: string, line: number, options: WaitOptions): Promise<WaitResult> {
    this.machine.require(['stopped', 'running'], 'run to a line');
    return this.sync.withOneShot(file, line, () => this.continue({ ...options, wait: true }));
  }

  /** Applies the source edits made on disk to the running program (stopped or running); see liveEdit.ts. */
  applyChanges(request: LiveEditRequest, signal?: AbortSignal): Promise<LiveEditAnswer> {
    const host = { engine: () => this.engine, engineName: this.factory.displayName, machine: this.machine, breakpoints: this.breakpoints, sync: this.sync, refreshStop: () => this.refreshStop(), record: (e: SessionEvent) => this.record(e) };
    return applyLiveEdit(host, request, signal);
  }

  // ── breakpoints ────────────────────────────────────────────────────────────────────────────

  async setBreakpoint(request: BreakpointRequest): Promise<BreakpointRecord> {
    const record = this.breakpoints.set(request);
    this.traceRecorder.arm(record);
    if (this.engineInstance && this.active) await this.sync.send(record);
    this.hooks.changed(this);
    // A call in flight beside this one may have removed it already: answer what was set.
    return this.breakpoints.get(record.id) ?? record;
  }

  /** Changes breakpoint `id` in place; a new trace starts a new table. */
  async editBreakpoint(id: number, changes: BreakpointRequest): Promise<BreakpointRecord> {
    const { record, before } = this.breakpoints.edit(id, changes);
    if (changes.trace !== undefined || changes.maxHits !== undefined) this.traceRecorder.arm(record);
    if (this.engineInstance && this.active) {
      if (before.file && before.file !== record.file) await this.sync.file(before.file);
      await this.sync.send(record);
    }
    this.hooks.changed(this);
    return record;
  }

  async removeBreakpoints(select: BreakpointSelection): Promise<BreakpointRecord[]> {
    const victims = this.breakpoints.selected(select);
    for (const v of victims) this.breakpoints.remove(v.id);
    if (this.engineInstance && this.active) await this.sync.sendWithout(victims);
    this.hooks.changed(this);
    return victims;
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    this.config.exceptions = config;
    if (this.engineInstance && this.active) await this.engine.setExceptionBreakpoints(config);
    this.hooks.changed(this);
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  /** The thread that stopped, for calls that default to it. */
  stoppedThreadId(): number {
    return this.machine.stoppedThreadId();
  }

  async threads(): Promise<ThreadInfo[]> {
    this.machine.require(['stopped', 'running'], 'list threads');
    return this.engine.threads();
  }

  stackPage(threadId: number | undefined, start: number, count: number) {
    this.machine.require(['stopped'], 'read the stack');
    return this.frames.page(threadId ?? this.stoppedThreadId(), start, count);
  }

  /** Engine handle of a frame, by index from the top (0) of a thread (default: the stopped one); no index: the stop's current frame. */
  async frameId(frameIndex?: number, threadId?: number): Promise<number> {
    this.machine.require(['stopped'], 'inspect values');
    const thread = threadId ?? this.stoppedThreadId();
    return (await this.frames.frame(thread, frameIndex ?? this.currentFrameOf(thread))).id;
  }

  /** The stop's current frame on its own thread (core/currentFrame.ts); the top frame on any other. */
  private currentFrameOf(threadId: number): number {
    const stop = this.stop;
    return stop?.threadId === threadId ? stop.frameIndex : 0;
  }

  inspector(): Inspector {
    this.machine.require(['stopped'], 'inspect values');
    return new Inspector(this.engine);
  }

  /** After a value changed, the stop's locals summary is stale: rebuild it. */
  refreshStop(): Promise<void> {
    return this.stops.reread();
  }

  /** The watches' values at the current stop (after watches were added); undefined when not stopped. */
  watchValues(): Promise<WatchValue[] | undefined> {
    return this.stops.watchValues();
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
        this.stops.take(event);
        return;
      case 'continued':
        if (this.state === 'stopped') this.machine.resumed();
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
      case 'verdict':
        this.verdictValue = event.verdict;
        break;
      case 'exited':
        this.exitCodeValue = event.exitCode;
        this.exitSignalValue = event.signal;
        if (this.active) this.machine.set('exited');
        this.hooks.notify(this, 'info', `Session ${this.id}: the program ${describeExit(event.exitCode, event.signal)}.`);
        break;
      case 'terminated':
        if (this.active) this.machine.set(this.exitCodeValue !== undefined ? 'exited' : 'terminated');
        break;
      case 'error':
        this.fail(event.message);
        break;
    }
    this.record(describeEvent(event));
  }

  private fail(message: string): void {
    this.errorText = message;
    if (this.active) this.machine.set('failed');
    this.hooks.notify(this, 'error', `Session ${this.id} failed: ${message}`);
  }

  private record(event: SessionEvent): void {
    this.events.append(event);
  }
}
