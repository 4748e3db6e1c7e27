/**
 * One debugging session: a program, its engine, its breakpoints, what it printed and what happened.
 * The session owns the state machine; every wait (stop, exit, launch) goes through `waitFor` so a
 * timeout or a cancelled request ends it at once.
 */
import { BreakpointRegistry, type BreakpointRecord, type BreakpointRequest } from './breakpointRegistry.js';
import { CursorLog } from './cursorLog.js';
import type { Engine, EngineEvent, EngineFactory, LogLevel } from './engine.js';
import { DebugError, toDebugError } from './errors.js';
import { FrameCache } from './frameCache.js';
import { Inspector } from './inspector.js';
import { describeEvent } from './eventSummary.js';
import { waitUntil } from './waitUntil.js';
import type { OutputChunk, SessionEvent, SessionSnapshot, Stop, WaitOptions, WaitResult } from './sessionTypes.js';
import { buildStop } from './stopBuilder.js';
import type { BreakpointBinding, ExceptionBreakpointConfig, SessionStateName, StepKind, ThreadInfo } from './types.js';

export interface SessionConfig {
  language: string;
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stopOnEntry: boolean;
  exceptions: ExceptionBreakpointConfig;
  options: Record<string, unknown>;
  /** Set for attach sessions. */
  attach?: { pid?: number; host?: string; port?: number };
}

export interface SessionHooks {
  /** Something the agent should hear about without asking (stop, exit, failure). */
  notify(session: Session, level: LogLevel, message: string): void;
  /** Configuration or breakpoints changed: persist them. */
  changed(session: Session): void;
  log(level: LogLevel, message: string): void;
}

const ACTIVE_STATES: SessionStateName[] = ['initializing', 'running', 'stopped'];
const OUTPUT_TAIL_CHARS = 2000;
const OUTPUT_TAIL_LINES = 15;

export class Session {
  readonly events = new CursorLog<SessionEvent>(2000);
  readonly output = new CursorLog<OutputChunk>(5000);
  readonly breakpoints: BreakpointRegistry;
  readonly startedAt = Date.now();

  private engineInstance?: Engine;
  private stateName: SessionStateName = 'initializing';
  private currentStop?: Stop;
  /** Counts stops; a waiter wants a stop numbered above what it saw when it started. */
  private stopSeq = 0;
  private builtStopSeq = 0;
  private exitCodeValue?: number;
  private errorText?: string;
  private runNumber = 0;
  private readonly frames = new FrameCache(() => this.engine);
  private readonly changeListeners = new Set<() => void>();
  /** ms from the start of the run: the launch answered, the first stop came, its details were read. */
  private launchTimings: Record<string, number> = {};
  private runStartedAt = 0;

  constructor(
    readonly id: string,
    readonly config: SessionConfig,
    private readonly factory: EngineFactory,
    private readonly hooks: SessionHooks,
    breakpoints: BreakpointRecord[] = [],
  ) {
    this.breakpoints = new BreakpointRegistry(breakpoints);
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
  private get engine(): Engine {
    if (!this.engineInstance) throw new DebugError('INVALID_STATE', `Session ${this.id} has not started.`, 'Wait for session_launch to answer.');
    return this.engineInstance;
  }

  snapshot(): SessionSnapshot {
    return {
      sessionId: this.id,
      language: this.config.language,
      program: this.config.program,
      state: this.stateName,
      pid: this.engineInstance?.pid,
      stop: this.stop,
      exitCode: this.exitCodeValue,
      error: this.errorText,
      startedAt: this.startedAt,
      run: this.runNumber,
      attached: !!this.config.attach,
    };
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  /** Starts (or restarts) the program with every breakpoint armed; resolves once it runs. */
  async start(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.runNumber++;
    const run = this.runNumber;
    this.breakpoints.resetBindings();
    this.setState('initializing');
    this.stopSeq = this.builtStopSeq = 0;
    this.currentStop = undefined;
    this.exitCodeValue = undefined;
    this.errorText = undefined;
    const t0 = (this.runStartedAt = performance.now());
    this.launchTimings = {};
    const engine = this.factory.create({
      emit: (event) => {
        if (run === this.runNumber) this.onEngineEvent(event);
      },
      log: (level, message) => this.hooks.log(level, `[${this.id}] ${message}`),
    });
    this.engineInstance = engine;
    const timeout = AbortSignal.timeout(timeoutMs);
    const aborted = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const common = {
      breakpoints: this.breakpoints.lineSpecs(),
      functionBreakpoints: this.breakpoints.functionSpecs(),
      exceptions: this.config.exceptions,
      options: this.config.options,
    };
    try {
      const work = this.config.attach
        ? engine.attach({ ...common, ...this.config.attach }, aborted)
        : engine.launch(
            {
              ...common,
              program: this.config.program,
              args: this.config.args,
              cwd: this.config.cwd,
              env: this.config.env,
              stopOnEntry: this.config.stopOnEntry,
            },
            aborted,
          );
      const result = await raceAbort(work, aborted, () =>
        signal?.aborted
          ? new DebugError('CANCELLED', 'The launch was cancelled.', 'Launch again when ready.')
          : new DebugError('TIMEOUT', `The program did not start within ${timeoutMs} ms.`, 'Check session_diagnostics and session_output, or raise timeoutMs.'),
      );
      for (const binding of result.breakpoints) this.breakpoints.applyBinding(binding);
      this.launchTimings.startMs = Math.round(performance.now() - t0);
      if (this.stateName === 'initializing') this.setState('running');
      this.record({ type: 'started', summary: `${this.config.attach ? 'Attached to' : 'Launched'} ${this.config.program}${engine.pid ? ` (pid ${engine.pid})` : ''}` });
    } catch (e) {
      const error = toDebugError(e, this.config.attach ? 'ATTACH_FAILED' : 'LAUNCH_FAILED');
      this.fail(error.message);
      await engine.dispose().catch(() => undefined);
      throw error;
    }
  }

  /** Ends the session: terminates the debuggee (or detaches) and releases the engine. */
  /** `wasRunning`: the program was still running, so ending the session terminated it (or detached from it). */
  async end(detach: boolean): Promise<{ exitCode?: number; outputTail: string; wasRunning: boolean }> {
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
    this.record({ type: 'ended', summary: detach ? 'Detached; the program runs on.' : 'Session ended.' });
    return { exitCode: this.exitCodeValue, outputTail: this.outputTail(), wasRunning: wasActive };
  }

  async dispose(): Promise<void> {
    await this.engineInstance?.dispose().catch(() => undefined);
    if (this.active) this.setState('terminated');
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
      { timeoutMs, signal, onTick: (ms) => onProgress?.(`waiting for a stop: ${this.stateName}, ${Math.round(ms / 1000)} s`) },
    );
    const base = { state: this.stateName, waitedMs: Date.now() - t0 };
    if (outcome.kind === 'cancelled') return { ...base, status: 'timeout', error: 'cancelled by the client' };
    if (outcome.kind === 'timeout') return { ...base, status: 'timeout' };
    if (outcome.value === 'stopped') return { ...base, status: 'stopped', stop: this.currentStop };
    return { ...base, status: 'exited', exitCode: this.exitCodeValue, error: this.errorText, outputTail: this.outputTail() };
  }

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  async continue(options: WaitOptions & { wait: boolean; threadId?: number }): Promise<WaitResult> {
    this.requireState(['stopped', 'running'], 'continue');
    const seen = this.stopSeq;
    if (this.stateName === 'stopped') {
      const stop = this.currentStop;
      this.resumed();
      await this.engine.continue(options.threadId ?? stop?.threadId).catch((e: unknown) => this.stillStopped(stop, seen, e));
    }
    if (!options.wait) return { status: 'timeout', state: this.stateName, waitedMs: 0 };
    return this.waitForStopAfter(seen, options);
  }

  async step(kind: StepKind, options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    this.requireState(['stopped'], 'step');
    const threadId = options.threadId ?? this.currentStop!.threadId;
    const seen = this.stopSeq;
    const stop = this.currentStop;
    this.resumed();
    await this.engine.step(threadId, kind).catch((e: unknown) => this.stillStopped(stop, seen, e));
    return this.waitForStopAfter(seen, options);
  }

  async pause(options: WaitOptions & { threadId?: number }): Promise<WaitResult> {
    if (this.stateName === 'stopped') return this.waitForStop(options);
    this.requireState(['running'], 'pause');
    const seen = this.stopSeq;
    await this.engine.pause(options.threadId);
    return this.waitForStopAfter(seen, options);
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
    let record: BreakpointRecord;
    const existing = request.file && request.line ? this.breakpoints.findAt(request.file, request.line) : undefined;
    if (existing && !existing.temporary) {
      Object.assign(existing, request);
      record = existing;
    } else {
      record = this.breakpoints.add(request);
    }
    if (this.engineInstance && this.active) {
      if (record.kind === 'function') await this.syncFunctions();
      else await this.syncFile(record.file!);
    }
    this.hooks.changed(this);
    return this.breakpoints.get(record.id)!;
  }

  async removeBreakpoints(select: { id?: number; file?: string; line?: number; all?: boolean }): Promise<BreakpointRecord[]> {
    const victims = this.breakpoints.all(false).filter((r) => {
      if (select.all) return true;
      if (select.id !== undefined) return r.id === select.id;
      if (select.file) return r.file === select.file && (select.line === undefined || r.line === select.line || r.binding?.line === select.line);
      return false;
    });
    if (victims.length === 0) {
      const what = select.id !== undefined ? `#${select.id}` : select.file ? `${select.file}${select.line ? `:${select.line}` : ''}` : 'any';
      throw new DebugError('BREAKPOINT_NOT_FOUND', `No breakpoint matches ${what}.`, 'Call breakpoint_list to see the breakpoints and their ids.');
    }
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
    return this.frames.page(threadId ?? this.currentStop!.threadId, start, count);
  }

  /** Engine handle of a frame, by index from the top (0) of a thread (default: the stopped one). */
  async frameId(frameIndex = 0, threadId?: number): Promise<number> {
    this.requireState(['stopped'], 'inspect values');
    return (await this.frames.frame(threadId ?? this.currentStop!.threadId, frameIndex)).id;
  }

  inspector(): Inspector {
    this.requireState(['stopped'], 'inspect values');
    return new Inspector(this.engine);
  }

  /** After a value changed, the stop's locals summary is stale: rebuild it. */
  async refreshStop(): Promise<void> {
    if (this.stateName !== 'stopped' || !this.currentStop) return;
    this.frames.clear();
    const { stop, frames } = await buildStop(this.engine, {
      type: 'stopped',
      reason: this.currentStop.reason,
      threadId: this.currentStop.threadId,
      hitBreakpointIds: this.currentStop.hitBreakpointIds,
      exception: this.currentStop.exception,
    });
    this.currentStop = { ...stop, at: this.currentStop.at };
    this.frames.seed(stop.threadId, frames);
  }

  /** The end of what the program printed: the last lines, capped in size. */
  outputTail(lines = OUTPUT_TAIL_LINES, chars = OUTPUT_TAIL_CHARS): string {
    const text = this.output
      .last(200)
      .filter((e) => e.value.category !== 'console')
      .map((e) => e.value.text)
      .join('');
    const kept = text.split('\n');
    const tail = kept.length > lines + 1 ? `…\n${kept.slice(-(lines + 1)).join('\n')}` : text;
    return tail.length > chars ? `…${tail.slice(-chars)}` : tail;
  }

  diagnostics() {
    return {
      ...this.snapshot(),
      engine: this.engineInstance?.diagnostics(),
      recentEvents: this.events.last(15).map((e) => ({ at: e.at, ...e.value })),
      timings: this.launchTimings,
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
      case 'module':
      case 'thread':
      case 'process':
        break;
      case 'breakpoint':
        this.breakpoints.applyBinding(event.binding);
        break;
      case 'exited':
        this.exitCodeValue = event.exitCode;
        if (this.active) this.setState('exited');
        this.hooks.notify(this, 'info', `Session ${this.id}: the program exited with code ${event.exitCode ?? 'unknown'}.`);
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
    const seq = ++this.stopSeq;
    if (seq === 1) this.launchTimings.firstStopMs = Math.round(performance.now() - this.runStartedAt);
    this.frames.clear();
    this.setState('stopped');
    const event = withoutOneShotHits(stopped, this.breakpoints);
    this.breakpoints.countHits(event.hitBreakpointIds ?? []);
    void buildStop(this.engine, event).then(
      ({ stop, frames }) => {
        if (seq !== this.stopSeq) return; // the program ran on before the details came back
        this.currentStop = stop;
        this.frames.seed(stop.threadId, frames);
        this.builtStopSeq = seq;
        if (seq === 1) this.launchTimings.firstStopBuiltMs = Math.round(performance.now() - this.runStartedAt);
        const where = `${stop.frame.name} (${stop.frame.file ?? '?'}:${stop.frame.line})`;
        this.record({ type: 'stopped', summary: `Stopped (${stop.reason}) in ${where}, thread ${stop.threadId}`, data: { reason: stop.reason, threadId: stop.threadId, hitBreakpointIds: stop.hitBreakpointIds } });
        this.hooks.notify(this, 'info', `Session ${this.id} stopped (${stop.reason}) in ${where}.`);
        this.changed();
      },
      (e) => this.hooks.log('warning', `[${this.id}] could not read the stop: ${(e as Error).message}`),
    );
  }

  private resumed(): void {
    this.frames.clear();
    this.currentStop = undefined;
    this.setState('running');
  }

  /** The engine refused to resume: the program is where it was, so the session is too. */
  private stillStopped(stop: Stop | undefined, seenSeq: number, error: unknown): never {
    if (this.stateName === 'running' && this.stopSeq === seenSeq && stop) {
      this.currentStop = stop;
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
    this.stateName = state;
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

function raceAbort<T>(work: Promise<T>, signal: AbortSignal, makeError: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(makeError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(makeError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
