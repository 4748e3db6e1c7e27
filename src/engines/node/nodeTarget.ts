/**
 * One V8 isolate being debugged: the program's main thread, a child node process it started, or
 * a worker thread. It owns its CDP session, its scripts and source maps, its breakpoints and the
 * hooks that bind them as code loads, and its pause: what stopped, the frames and the values.
 * What it shows the agent goes through its owner, which reports one stop at a time.
 */
import type { Protocol } from 'devtools-protocol';
import type { LogLevel } from '../../core/engine.js';
import { DebugError } from '../../core/errors.js';
import type {
  BreakpointBinding,
  BreakpointSpec,
  EvaluateResult,
  ExceptionBreakpointConfig,
  FrameInfo,
  FunctionBreakpointSpec,
  ScopeInfo,
  StepKind,
  VariableInfo,
} from '../../core/types.js';
import { failedCondition } from './breakpointConditions.js';
import { pauseOnExceptionsState } from './capabilities.js';
import type { CdpClient, CdpEventParams } from './cdpClient.js';
import { CdpRequestError } from './cdpRequestError.js';
import { causesOf, throwSite } from './exceptionSites.js';
import { mentionsException, withException } from './exceptionValue.js';
import { followMovedCode } from './framePositions.js';
import { FunctionBreakpoints } from './functionBreakpoints.js';
import { LoadHooks } from './loadHooks.js';
import { NodeBreakpoints } from './nodeBreakpoints.js';
import { isBreakOnStart, isExceptionPause, stopOf, type PausedStop } from './pausedStops.js';
import { ScriptRegistry } from './scriptRegistry.js';
import type { LoadedMap, SourceMapCache } from './sourceMaps.js';
import { StackFrames } from './stackFrames.js';
import { stepAgain, type StepOrigin } from './stepFilter.js';
import { ValueHandles, type CallFrame, type HandleCounter } from './valueHandles.js';
import { ValueReader } from './valueReader.js';

export type TargetKind = 'main' | 'process' | 'worker';

const STEP_METHODS = { over: 'Debugger.stepOver', into: 'Debugger.stepInto', out: 'Debugger.stepOut' } as const;
/** Callers V8 keeps across awaits. */
const ASYNC_STACK_DEPTH = 32;

/** What every isolate of the session should have armed. */
export interface WantedBreakpoints {
  lines: Map<string, BreakpointSpec[]>;
  functions: FunctionBreakpointSpec[];
  exceptions: ExceptionBreakpointConfig;
}

export interface TargetOwner {
  readonly maps: SourceMapCache;
  readonly counter: HandleCounter;
  /** URL of the preload script, when the program runs with it. */
  readonly preloadUrl?: string;
  /** Whether a file's line breakpoints bind by its own URL (else only through source maps). */
  direct(file: string): boolean;
  /** The compiled scripts on disk that will run a file, with their maps, when node runs compiled JavaScript. */
  predict(file: string): Promise<{ url: string; map: LoadedMap }[]>;
  wanted(): WantedBreakpoints;
  paused(target: NodeTarget): void;
  resumed(target: NodeTarget): void;
  binding(binding: BreakpointBinding): void;
  workerAttached(parent: NodeTarget, event: CdpEventParams<'NodeWorker.attachedToWorker'>): void;
  log(level: LogLevel, message: string): void;
}

export type TargetStop = PausedStop & { hitBreakpointIds: number[] };

export interface StartOptions {
  /** A launch: whether node's "Break on start" is shown. */
  entry?: { stopOnEntry: boolean };
  /**
   * Node holds the isolate until we let it run, and it may answer us before it starts waiting: a
   * launched program (--inspect-brk) while node runs its start-up JavaScript, a process the program
   * started between its preload's report and inspector.waitForDebugger().
   */
  held?: boolean;
}

interface Pause {
  frames: StackFrames;
  callFrames: CallFrame[];
  exception?: Protocol.Runtime.RemoteObject;
  stop: TargetStop;
}

export class NodeTarget {
  readonly scripts: ScriptRegistry;
  private readonly lines: NodeBreakpoints;
  private readonly functions: FunctionBreakpoints;
  private readonly hooks: LoadHooks;
  private readonly handles: ValueHandles;
  private readonly values: ValueReader;
  private current?: Pause;
  private expected?: 'step' | 'pause' | 'restart frame';
  private stepping?: StepOrigin;
  /** Until the first pause of a launch: whether to show node's "Break on start". */
  private entry?: { stopOnEntry: boolean };
  private quietResumes = 0;
  /** A pause asked to read the stack of a running isolate (see snapshot); whoever waits for it, if anyone still does. */
  private snapshotPause?: { levels: number; read?: (stack: { frames: FrameInfo[]; totalFrames: number }) => void };
  private mainContextId?: number;
  private readonly pauseWaiters = new Set<() => void>();

  constructor(
    readonly threadId: number,
    readonly kind: TargetKind,
    public name: string,
    readonly cdp: CdpClient,
    private readonly owner: TargetOwner,
    readonly pid?: number,
  ) {
    this.scripts = new ScriptRegistry(owner.maps);
    this.lines = new NodeBreakpoints(
      cdp,
      this.scripts,
      (file) => owner.direct(file),
      (file) => owner.predict(file),
    );
    this.functions = new FunctionBreakpoints(cdp, this.scripts);
    this.hooks = new LoadHooks(cdp, this.scripts, owner.maps, this.lines, this.functions, owner.preloadUrl);
    this.handles = new ValueHandles(owner.counter);
    this.values = new ValueReader(() => this.cdp, this.handles);
    this.listen();
  }

  /** The stop this isolate shows while it is paused where the agent should look. */
  get stop(): TargetStop | undefined {
    return this.current?.stop;
  }

  get paused(): boolean {
    return !!this.current;
  }

  /**
   * Enables the domains and arms every breakpoint (one pipelined burst: CDP answers in order), then
   * lets the isolate run; and again whenever node says it waits for the debugger.
   */
  async start(options: StartOptions = {}): Promise<void> {
    this.entry = options.entry;
    const wanted = this.owner.wanted();
    const cdp = this.cdp;
    // A program that ends at once may take its connection with it before node answers: it ran (its end is reported as such).
    const run = () =>
      cdp.send('Runtime.runIfWaitingForDebugger').catch((e: unknown) => {
        if (!(e instanceof CdpRequestError && e.failure === 'closed')) throw e;
      });
    // Node says when the isolate waits (at once if it already does). Workers wait before node
    // announces them; a node older than the event (nodejs/node#51560) refuses the enable.
    const told = this.kind === 'worker' ? Promise.resolve(false) : cdp.send('NodeRuntime.enable').then(() => true, () => false);
    // A program held by the preload (not by --inspect-brk) says it waits only once node has run its
    // start-up: the ACKs keep flowing until it does, else Nagle held that event for a delayed ACK (40 ms).
    if (options.held) {
      cdp.expectEvent('NodeRuntime.waitingForDebugger');
      void told.then((says) => says || cdp.forgetEvent('NodeRuntime.waitingForDebugger'));
    }
    let armed = false;
    let waits = false;
    cdp.on('NodeRuntime.waitingForDebugger', () => {
      waits = true;
      if (armed) run().catch(() => undefined);
    });
    const sent: Promise<unknown>[] = [
      cdp.send('Runtime.enable'),
      cdp.send('Debugger.enable', {}),
      cdp.send('Debugger.setAsyncCallStackDepth', { maxDepth: ASYNC_STACK_DEPTH }),
      cdp.send('Debugger.setPauseOnExceptions', { state: pauseOnExceptionsState(wanted.exceptions.filters) }),
      cdp.send('NodeWorker.enable', { waitForDebuggerOnStart: true }).catch(() => undefined),
      ...[...wanted.lines].map(([file, specs]) => this.lines.replaceFile(file, specs)),
    ];
    if (wanted.functions.length) sent.push(this.functions.replaceAll(wanted.functions));
    // The hooks follow where mapped breakpoints could be placed ahead.
    await Promise.all(sent);
    await this.hooks.update();
    armed = true;
    // Node answers requests before it waits, whenever it runs JavaScript, and loses a run request
    // read then (nodejs/node#34730): the program would wait forever. One node holds is let run
    // only once it says it waits; one that may not wait (attach) is let run at once too.
    if (waits || !options.held || !(await told)) await run();
  }

  // ── breakpoints ────────────────────────────────────────────────────────────────────────────

  async setLines(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    const bindings = await this.lines.replaceFile(file, specs);
    await this.hooks.update();
    return bindings;
  }

  async setFunctions(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    const bindings = await this.functions.replaceAll(specs);
    await this.hooks.update();
    return bindings;
  }

  async setExceptions(config: ExceptionBreakpointConfig): Promise<void> {
    await this.cdp.send('Debugger.setPauseOnExceptions', { state: pauseOnExceptionsState(config.filters) });
  }

  async bindings(ids: number[]): Promise<BreakpointBinding[]> {
    const [lines, functions] = await Promise.all([this.lines.bindings(ids), this.functions.bindings(ids)]);
    return [...lines, ...functions];
  }

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  resume(): Promise<unknown> {
    this.leavePause();
    return this.cdp.send('Debugger.resume', {});
  }

  async step(kind: StepKind): Promise<unknown> {
    const pause = this.requirePaused();
    const top = pause.callFrames[0];
    const at = await this.scripts.location(top.location.scriptId, top.location.lineNumber, top.location.columnNumber ?? 0);
    this.stepping = { kind, file: at.file, line: at.line, mapped: at.mapped, depth: pause.callFrames.length, count: 0 };
    this.expected = 'step';
    this.leavePause();
    return this.cdp.send(STEP_METHODS[kind], {});
  }

  /** V8 runs the frame again from its first statement and pauses there (mode StepInto: it resumes by itself). */
  async restartFrame(frameId: number): Promise<unknown> {
    this.requirePaused();
    const handle = this.handles.frame(frameId);
    if (handle?.kind !== 'sync') throw new DebugError('FRAME_NOT_FOUND', `Frame ${frameId} is not a running frame of this thread.`, 'Pick a frame index from inspect_stack (not an [async] one).');
    this.expected = 'restart frame';
    this.cdp.expectEvent('Debugger.paused');
    try {
      return await this.cdp.send('Debugger.restartFrame', { callFrameId: handle.frame.callFrameId, mode: 'StepInto' });
    } catch (e) {
      this.expected = undefined; // refused: still paused where it was
      throw e;
    }
  }

  /**
   * A live edit of one script (V8's LiveEdit). With `restartTopFrame`, V8 may change the function
   * the isolate is paused in: it then runs that frame again from its start and pauses there, which
   * comes as a 'restart frame' stop.
   */
  editScript(scriptId: string, scriptSource: string, options: { dryRun: boolean; restartTopFrame: boolean }): Promise<Protocol.Debugger.SetScriptSourceResponse> {
    if (options.restartTopFrame && !options.dryRun) {
      this.expected = 'restart frame';
      this.cdp.expectEvent('Debugger.paused');
    }
    return this.cdp.send('Debugger.setScriptSource', { scriptId, scriptSource, dryRun: options.dryRun, allowTopFrameEditing: options.restartTopFrame || undefined });
  }

  /** After a live edit: the paused frames at the places V8 moved their code to. */
  async followEdit(): Promise<void> {
    if (this.current) await followMovedCode(this.cdp, this.current.callFrames);
  }

  /** The current text of a script as V8 runs it. */
  async scriptSource(scriptId: string): Promise<string> {
    return (await this.cdp.send('Debugger.getScriptSource', { scriptId })).scriptSource;
  }

  /** Where the paused top frame's function starts (V8's place), when paused. */
  get topFunction(): Protocol.Debugger.Location | undefined {
    return this.current?.callFrames[0]?.functionLocation;
  }

  /** Waits for the next pause this isolate shows: true when it came within `timeoutMs`, false when not or when cancelled. */
  nextPause(timeoutMs: number): { paused: Promise<boolean>; cancel(): void } {
    let cancel = () => undefined as void;
    const paused = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (shown: boolean) => {
        clearTimeout(timer);
        this.pauseWaiters.delete(waiter);
        resolve(shown);
      };
      const waiter = () => done(true);
      this.pauseWaiters.add(waiter);
      cancel = () => done(false);
    });
    return { paused, cancel };
  }

  pause(): Promise<unknown> {
    this.expected = 'pause';
    this.cdp.expectEvent('Debugger.paused');
    return this.cdp.send('Debugger.pause');
  }

  /**
   * The top frames of this isolate: those of its pause, or read in a pause it does not show
   * (paused, read, resumed at once). Undefined when no pause lands within the time: the isolate
   * runs no JavaScript (its event loop waits); the pause it asked for is then let go when it lands.
   */
  async snapshot(levels: number, timeoutMs: number): Promise<{ frames: FrameInfo[]; totalFrames: number } | undefined> {
    if (this.current) return this.stackTrace(0, levels);
    const read = new Promise<{ frames: FrameInfo[]; totalFrames: number }>((resolve) => this.askSnapshot({ levels, read: resolve }));
    let giveUp = (): void => undefined;
    const late = new Promise<undefined>((resolve) => (giveUp = () => resolve(undefined)));
    const timer = setTimeout(giveUp, timeoutMs);
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
      if (this.snapshotPause) this.snapshotPause.read = undefined;
    }
  }

  /** V8 folds pause requests into one pause: a request sent while another is pending costs nothing. */
  private askSnapshot(ask: NonNullable<NodeTarget['snapshotPause']>): void {
    this.snapshotPause = ask;
    this.cdp.expectEvent('Debugger.paused');
    this.cdp.send('Debugger.pause').catch(() => (this.snapshotPause = undefined));
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  ownsFrame(frameId: number): boolean {
    return !!this.handles.frame(frameId);
  }

  ownsValue(ref: number): boolean {
    return this.handles.has(ref);
  }

  async stackTrace(start: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames: number }> {
    const { frames } = this.requirePaused();
    return { frames: await frames.page(start, levels), totalFrames: frames.total };
  }

  async scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.values.scopes(this.syncFrame(frameId));
  }

  variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    return this.values.variables(this.handles.get(ref), start, count);
  }

  async evaluate(expression: string, frameId: number | undefined): Promise<EvaluateResult> {
    const frame = frameId !== undefined ? this.syncFrame(frameId) : this.current?.callFrames[0];
    if (frame && mentionsException(expression)) expression = await withException(this.cdp, expression, this.current?.exception, frame);
    return this.values.evaluate(expression, frame);
  }

  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    return this.values.setVariable(this.handles.get(containerRef), name, value, this.current?.callFrames[0]);
  }

  /** The pid of the process this isolate runs in, as it says. */
  async remotePid(): Promise<number | undefined> {
    const answer = await this.cdp.send('Runtime.evaluate', { expression: 'process.pid', silent: true }).catch(() => undefined);
    return typeof answer?.result.value === 'number' ? answer.result.value : undefined;
  }

  private syncFrame(frameId: number): CallFrame {
    const handle = this.handles.frame(frameId);
    if (!handle) throw new DebugError('FRAME_NOT_FOUND', `No frame #${frameId} (frames are valid while the program stays stopped).`, 'Read the stack again with inspect_stack.');
    if (handle.kind === 'async') {
      throw new DebugError('INVALID_ARGUMENT', `Frame ${handle.name || '<anonymous>'} is an async caller (it awaits across an await): V8 keeps no values for it.`, 'Pick a frame above the first one inspect_stack marks async.');
    }
    return handle.frame;
  }

  private requirePaused(): Pause {
    if (!this.current) throw new DebugError('INVALID_STATE', `Thread ${this.threadId} (${this.name}) is not paused.`, 'Wait for a stop (breakpoint_wait) or pause it (execution_pause).');
    return this.current;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  private listen(): void {
    const cdp = this.cdp;
    cdp.on('Debugger.scriptParsed', (e) => {
      this.scripts.parsed(e);
      // A script whose load no hook paused for (attach, or no hook needed then): bind as soon as we can.
      if (e.sourceMapURL && e.url.startsWith('file:') && this.lines.mappedFiles().length) {
        const script = this.scripts.get(e.scriptId);
        void this.scripts.mapOf(script).then((map) => map && this.lines.bindMapped(e.url, map));
      }
    });
    cdp.on('Debugger.breakpointResolved', (e) => {
      const binding = this.lines.resolved(e) ?? this.functions.resolved(e);
      void binding?.then((b) => b?.verified && this.owner.binding(b));
    });
    cdp.on('Debugger.paused', (e) => void this.onPaused(e).catch((err: Error) => this.owner.log('warning', `node engine pause: ${err.message}`)));
    cdp.on('Debugger.resumed', () => this.onResumed());
    cdp.on('NodeWorker.attachedToWorker', (e) => this.owner.workerAttached(this, e));
    if (this.kind !== 'worker') {
      cdp.on('Runtime.executionContextCreated', (e) => {
        if (this.mainContextId === undefined && (e.context.auxData as { isDefault?: boolean } | undefined)?.isDefault) this.mainContextId = e.context.id;
      });
      // The program is over; node waits for us to hang up before it exits (nodejs/node#13888).
      cdp.on('Runtime.executionContextDestroyed', (e) => {
        if (e.executionContextId === this.mainContextId) cdp.close();
      });
    }
  }

  private async onPaused(event: Protocol.Debugger.PausedEvent): Promise<void> {
    const snapshot = this.snapshotPause;
    this.snapshotPause = undefined;
    // A pause of our own took the place of the one a snapshot waits for: ask again once resumed.
    const askAgain = () => snapshot?.read && this.askSnapshot(snapshot);
    if (this.hooks.owns(event)) {
      await this.hooks.handle(event).catch((e: Error) => this.owner.log('warning', `node engine load hook: ${e.message}`));
      this.resumeQuietly();
      return void askAgain();
    }
    this.handles.clear();
    const entry = this.entry;
    this.entry = undefined;
    const expected = this.expected;
    this.expected = undefined;
    const hits = event.hitBreakpoints ?? [];
    if (hits.length) await Promise.all([this.lines.settled(), this.functions.settled()]);
    const hitBreakpointIds = this.lines.sessionIdsOf(hits);
    const hitFunctionIds = this.functions.sessionIdsOf(hits);
    const quiet = !hitBreakpointIds.length && !hitFunctionIds.length && !isExceptionPause(event);
    const atStart = isBreakOnStart(event);
    if (atStart && quiet && !entry?.stopOnEntry) {
      this.resumeQuietly();
      return void askAgain();
    }
    if (snapshot && quiet && !atStart && !expected) {
      const frames = new StackFrames(event.callFrames, event.asyncStackTrace, this.scripts, this.handles, this.owner.preloadUrl);
      snapshot.read?.({ frames: await frames.page(0, snapshot.levels), totalFrames: frames.total });
      return this.resumeQuietly();
    }
    if (expected === 'step' && quiet && this.stepping && (await stepAgain(this.stepping, event.callFrames, this.scripts))) {
      this.expected = 'step';
      this.stepping.count++;
      this.quietResumes++;
      this.cdp.expectEvent('Debugger.paused');
      await this.cdp.send(STEP_METHODS[this.stepping.kind], {});
      return;
    }
    this.stepping = undefined;
    const stop = stopOf(event, { hitBreakpointIds, hitFunctionIds, atStart, expected });
    const conditions = this.lines.conditionsOf(hitBreakpointIds);
    if (conditions.length && event.callFrames[0]) stop.description = await failedCondition(this.cdp, event.callFrames[0].callFrameId, conditions);
    if (stop.exception) {
      stop.exception.thrownAt = await throwSite(this.scripts, stop.exception.stackTrace, event.callFrames[0]);
      const causes = await causesOf(this.cdp, this.scripts, event.data as Protocol.Runtime.RemoteObject | undefined);
      if (causes.length) stop.exception.causes = causes;
    }
    this.current = {
      frames: new StackFrames(event.callFrames, event.asyncStackTrace, this.scripts, this.handles, this.owner.preloadUrl),
      callFrames: event.callFrames,
      exception: isExceptionPause(event) ? (event.data as Protocol.Runtime.RemoteObject) : undefined,
      stop: { ...stop, hitBreakpointIds: [...hitBreakpointIds, ...hitFunctionIds] },
    };
    if (snapshot?.read) void this.stackTrace(0, snapshot.levels).then(snapshot.read, () => undefined);
    this.owner.paused(this);
    for (const waiter of [...this.pauseWaiters]) waiter();
  }

  private onResumed(): void {
    this.forgetPause();
    if (this.quietResumes > 0) {
      this.quietResumes--;
      return;
    }
    this.owner.resumed(this);
  }

  /** We let the isolate run on (resume, step): nothing of this pause is needed any more. */
  private leavePause(): void {
    // Only while paused: a running worker may be ending, and it is to be sent nothing it need not.
    if (this.current) this.values.release();
    this.forgetPause();
  }

  private forgetPause(): void {
    this.current = undefined;
    this.handles.clear();
  }

  /**
   * Lets a pause of our own go on (the launch's break on start, a load hook). The program most often
   * pauses again soon (the launch's first breakpoint, the next hook): the ACKs keep flowing, else
   * Nagle held node's `resumed` and the next `paused` for a delayed ACK (40 ms of a first stop).
   */
  private resumeQuietly(): void {
    this.quietResumes++;
    this.cdp.expectEvent('Debugger.paused');
    this.cdp.send('Debugger.resume', {}).catch(() => this.quietResumes--);
  }
}
