/**
 * The Python engine: the core's Engine seam over DAP to debugpy. Launch runs debugpy's adapter
 * as our child (through the socket-tuning bootstrap); attach connects to the adapter a program
 * started with `debugpy --listen`.
 */
import { existsSync } from 'node:fs';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent, LiveEditRequest, LiveEditResult } from '../../core/engine.js';
import { DebugError } from '../../core/errors.js';
import { moduleOfProgram } from '../../core/moduleProgram.js';
import { readStacks } from '../../core/hangReport.js';
import type {
  AttachConfig,
  BreakpointBinding,
  BreakpointSpec,
  EngineCapabilities,
  EvaluateResult,
  ExceptionBreakpointConfig,
  ExceptionCause,
  ExceptionInfo,
  FrameInfo,
  FunctionBreakpointSpec,
  LaunchConfig,
  LaunchResult,
  ScopeInfo,
  StepKind,
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from '../../core/types.js';
import { DapClient } from '../../dap/dapClient.js';
import { DapRequestError } from '../../dap/dapRequestError.js';
import { REQUEST_TIMEOUT_MS, startAdapter } from './adapterConnection.js';
import type { AdapterProcess } from './adapterProcess.js';
import { BreakpointIds } from './breakpointIds.js';
import { ConcurrentHits } from './concurrentHits.js';
import { capabilitiesFrom, PYTHON_CAPABILITIES } from './capabilities.js';
import { ContainerPages } from './containerPages.js';
import { toEvaluateResult, toExceptionInfo, toFrame, toScope, toVariable } from './dapValues.js';
import { attachArguments, INITIALIZE_ARGUMENTS, launchArguments } from './debugpyArguments.js';
import { connectToDebugpy } from './debugpyAttach.js';
import { DebugpyRequests } from './debugpyRequests.js';
import { debugpyExceptionFilters } from './exceptionFilters.js';
import { findInterpreter, type PythonInterpreter } from './interpreter.js';
import { exitEvent } from './launcherExit.js';
import { LaunchSteps } from './launchSteps.js';
import { PythonLiveEdit } from './liveEdit.js';
import { passThroughEvents } from './passThroughEvents.js';
import { injectDebugpy } from './pidInjection.js';
import { active, launchUnderWay, sessionEnded, whenQuiet } from './callsQuiet.js';
import { prepareNextReadyDebuggee, readyDebuggeeMayFit, readyTargetOf, takeReadyDebuggee, type ReadyDebuggee, type ReadyTarget } from './readyDebuggee.js';
import { GROUP_MEMBERS_EXPRESSION, groupMembers, isExceptionGroup } from './exceptionGroups.js';
import { evaluationError, requestError } from './requestErrors.js';
import { endPythonRun } from './runEnding.js';
import { delay, rejectOnAbort, startCancelled, startDebugpy, startReadyDebuggee, type Starting } from './startSequence.js';
import { prepareSpareAdapter, takeSpareAdapter } from './spareAdapter.js';
import { BEFORE_PROGRAM } from './sessionEnd.js';
import { StopReader } from './stopReader.js';
import { withWaits } from './threadWaits.js';

const STEP_COMMANDS = { over: 'next', into: 'stepIn', out: 'stepOut' } as const;
const JUMP_HINT = 'Pick a line of the current function; Python cannot jump into a block (loop, with, try) or out of a finally.';
/** How long an attach waits for the live edit helper to go in (it goes on after that). */
const LIVE_EDIT_WAIT_MS = 3000;

type StartCommand = 'launch' | 'attach';

export class PythonEngine implements Engine {
  private readonly dap = new DebugpyRequests();
  private adapter?: AdapterProcess;
  private interpreter?: PythonInterpreter;
  private adapterCapabilities?: DebugProtocol.Capabilities;
  private readonly breakpointIds = new BreakpointIds();
  private readonly stops = new StopReader(this.breakpointIds, this, this.dap);
  private readonly hits = new ConcurrentHits(this.dap, this.breakpointIds);
  private readonly pages = new ContainerPages({
    children: async (ref) => (await this.dap.call('variables', { variablesReference: ref }, 'VARIABLE_NOT_FOUND')).variables,
    evaluate: async (expression, frameId) => (await this.dap.call('evaluate', { expression, frameId, context: 'watch' }, 'VARIABLE_NOT_FOUND')).variablesReference,
  });
  private mode?: StartCommand;
  private debuggeePid?: number;
  private debuggeeIsLocal = false;
  /** Set once launch or attach answered: until then there is no program to say goodbye to. */
  private started = false;
  /** Which way the launch started (a ready debuggee or a normal launch), and why. */
  private startedAs?: { way: 'ready debuggee' | 'normal launch'; note?: string };
  private steps?: LaunchSteps;
  private specPath?: string;
  /** Set when a ready debuggee runs it: debugpy names that process after the ready launcher file. */
  private program?: string;
  private ending?: Promise<void>;
  private readonly liveEdit = new PythonLiveEdit(this.dap, () => this.threads());
  /** Events leave in the order they came, even when a stop needs a request to complete. */
  private emitted: Promise<void> = Promise.resolve();

  constructor(private readonly context: EngineContext) {}

  get capabilities(): EngineCapabilities {
    return this.adapterCapabilities ? capabilitiesFrom(this.adapterCapabilities) : PYTHON_CAPABILITIES;
  }

  get pid(): number | undefined {
    return this.debuggeePid;
  }

  // ── start ──────────────────────────────────────────────────────────────────────────────────

  launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    return launchUnderWay(() => this.launchProgram(config, signal));
  }

  private async launchProgram(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    const module = moduleOfProgram(config.program);
    if (!module && !existsSync(config.program)) {
      throw new DebugError('PROGRAM_NOT_FOUND', `${config.program} does not exist.`, 'Give the path of a Python file (absolute, or relative to cwd).');
    }
    const steps = (this.steps = new LaunchSteps());
    const socketTuning = config.options.socketTuning !== false;
    // With a single candidate interpreter its adapter starts now, while discovery probes it (unless
    // a ready debuggee waits for this launch: it needs none, and they would compete).
    if (socketTuning && !readyDebuggeeMayFit(config, socketTuning)) prepareSpareAdapter(config.options);
    const interpreter = await findInterpreter(config.options);
    steps.mark('interpreter');
    // Ended (timed out, cancelled) while the interpreter was found: start nothing.
    this.throwIfEnded(signal);
    this.interpreter = interpreter;
    this.mode = 'launch';
    const target = readyTargetOf(config, interpreter.executable, socketTuning);
    const ready = await this.readyDebuggeeFor(target, config, signal);
    this.throwIfEnded(signal);
    const adapter = ready?.adapter ?? ((socketTuning && takeSpareAdapter(config.options)) || startAdapter(interpreter.executable, { socketTuning }));
    steps.mark(ready ? 'ready' : 'adapter');
    this.adapter = adapter.process;
    const client = this.connect(adapter.client);
    const processStarted = client.once('process');
    if (ready) this.program = config.program;
    // Launched the normal way: the debugger's objects frozen and the session's end as the program's code ends (sessionEnd.ts); the ready launcher ends it itself.
    const start = { ...this.starting(client, signal), prelude: ready ? undefined : BEFORE_PROGRAM };
    const result = ready ? await startReadyDebuggee(start, ready, config) : await startDebugpy(start, adapter.capabilities, 'launch', launchArguments(config, interpreter.executable), config);
    this.started = true;
    // debugpy names the debuggee's pid just after answering `launch`.
    await Promise.race([processStarted, delay(2000)]);
    // The modules loaded before the helper goes in are taken as they are on disk then: it must be in
    // before the answer, or an edit made right after the first stop would pass for the loaded text.
    await Promise.race([this.prepareLiveEdit(module ? undefined : config.program), delay(LIVE_EDIT_WAIT_MS)]);
    // The next launch like this one finds a debuggee ready: prepared once the calls pause (callsQuiet.ts).
    whenQuiet('next ready debuggee', () => prepareNextReadyDebuggee(target));
    return { ...result, pid: this.debuggeePid };
  }

  /** The ready debuggee this launch takes, once ready; undefined (and why) when it starts normally. */
  private async readyDebuggeeFor(target: ReadyTarget, config: LaunchConfig, signal?: AbortSignal): Promise<ReadyDebuggee | undefined> {
    const taken = takeReadyDebuggee(target, config);
    if (!('debuggee' in taken)) {
      this.startedAs = { way: 'normal launch', note: taken.reason };
      return undefined;
    }
    // Ours from now on: a launch that times out or is cancelled while it waits ends it too.
    this.adapter = taken.debuggee.adapter.process;
    this.specPath = taken.debuggee.specPath;
    this.startedAs = { way: 'ready debuggee' };
    this.steps?.mark('readyStarted', taken.debuggee.startedAt);
    try {
      await Promise.race([taken.debuggee.ready, rejectOnAbort(signal)]);
    } catch (e) {
      if (e instanceof DebugError) throw e; // cancelled: ending the run kills it
      this.adapter = this.specPath = undefined;
      void taken.debuggee.discard();
      this.startedAs = { way: 'normal launch', note: `the ready debuggee failed: ${(e as Error).message}` };
      return undefined;
    }
    return taken.debuggee;
  }

  async attach(config: AttachConfig, signal?: AbortSignal): Promise<LaunchResult> {
    const transport = await connectToDebugpy(config, async (pid) => {
      this.interpreter = await findInterpreter(config.options);
      return injectDebugpy(this.interpreter, pid);
    });
    this.mode = 'attach';
    const client = this.connect(new DapClient(transport, { timeoutMs: REQUEST_TIMEOUT_MS }));
    const result = await startDebugpy(this.starting(client, signal), client.request('initialize', INITIALIZE_ARGUMENTS), 'attach', attachArguments(config), config);
    this.started = true;
    // The modules loaded before the attach are taken as they are on disk when the helper goes in:
    // it must be in before the answer, or an edit made right after it would pass for the loaded text.
    await Promise.race([this.prepareLiveEdit(), delay(LIVE_EDIT_WAIT_MS)]);
    return result;
  }

  /** The live edit helper goes in as the program starts, so that it sees the modules' text as they load. */
  private prepareLiveEdit(program?: string): Promise<void> {
    return this.liveEdit.install(program).catch((e: Error) => this.context.log('warning', `python live edit: ${e.message}`));
  }

  /** Live edit: the helper in the program swaps the changed functions' code (liveEdit.ts). */
  applyChanges(request: LiveEditRequest): Promise<LiveEditResult> {
    return this.liveEdit.apply(request);
  }

  private starting(client: DapClient, signal: AbortSignal | undefined): Starting {
    return {
      engine: this,
      client,
      signal,
      steps: this.steps,
      stderrHint: () => this.dap.stderrHint(),
      capabilitiesKnown: (capabilities) => (this.adapterCapabilities = capabilities),
    };
  }

  private throwIfEnded(signal: AbortSignal | undefined): void {
    if (this.ending || signal?.aborted) throw startCancelled();
  }

  private connect(client: DapClient): DapClient {
    this.dap.client = client;
    passThroughEvents(client, this.breakpointIds, (event) => this.emit(event));
    client.on('stopped', (body) => this.enqueue(() => this.stopped(body)));
    client.on('thread', (body) => (body.reason === 'exited' ? this.hits.threadExited(body.threadId) : this.hits.threadStarted(body.threadId)));
    client.on('continued', (body) => {
      this.stops.forgetStack();
      this.emit({ type: 'continued', threadId: body.threadId, allThreadsContinued: body.allThreadsContinued });
    });
    client.on('process', (body) => {
      this.debuggeePid = body.systemProcessId;
      this.debuggeeIsLocal = body.isLocalProcess ?? this.mode === 'launch';
      this.emit({ type: 'process', pid: body.systemProcessId, name: this.program ?? body.name });
    });
    client.on('exited', (body) => {
      // The program is over by itself, so is this session's workflow: the next ready debuggee may be prepared.
      if (!this.ending) sessionEnded();
      this.emit(exitEvent(body.exitCode));
    });
    client.on('terminated', () => {
      this.emit({ type: 'terminated' });
      // The program is over: let the adapter go now rather than when the session is disposed.
      void this.end('terminate');
    });
    client.onClose((reason) => {
      if (this.ending) return;
      this.emit({ type: 'error', message: `debugpy connection lost${reason ? `: ${reason.message}` : ''}. ${this.dap.stderrHint() ?? ''}`.trim() });
      this.emit({ type: 'terminated' });
    });
    return client;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  /** A stop pydevd told of, or (`told` false) one of a thread it left waiting at a hit unannounced (concurrentHits.ts). */
  private async stopped(body: DebugProtocol.StoppedEvent['body'], told = true): Promise<void> {
    this.pages.clear();
    this.steps?.mark('stopped');
    const event = await this.stops.read(body);
    if (event?.type === 'stopped' && told) this.hits.stopped(event.threadId);
    if (event) this.emit(event);
  }

  private emit(event: EngineEvent): void {
    this.enqueue(() => this.context.emit(event));
  }

  private enqueue(work: () => Promise<void> | void): void {
    this.emitted = this.emitted.then(work).catch((e: unknown) => this.context.log('warning', `python engine event: ${(e as Error).message}`));
  }

  // ── breakpoints ────────────────────────────────────────────────────────────────────────────

  async setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    const body = await this.dap.call('setBreakpoints', {
      source: { path: file },
      breakpoints: specs.map((s) => ({ line: s.line, column: s.column, condition: s.condition, hitCondition: s.hitCondition, logMessage: s.logMessage })),
    });
    return this.breakpointIds.replaceFile(file, specs, body.breakpoints);
  }

  async setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    if (!this.capabilities.functionBreakpoints) {
      if (specs.length === 0) return [];
      throw new DebugError('UNSUPPORTED', 'This debugpy has no function breakpoints.', 'Set a line breakpoint on the first line of the function instead.');
    }
    const body = await this.dap.call('setFunctionBreakpoints', {
      breakpoints: specs.map((s) => ({ name: s.function, condition: s.condition, hitCondition: s.hitCondition })),
    });
    return this.breakpointIds.replaceFunctions(specs, body.breakpoints);
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    if (config.typeNames?.length) {
      throw new DebugError('UNSUPPORTED', 'Python exception breakpoints cannot be limited to type names.', 'Use the filter "all" with a conditional breakpoint, or "uncaught".');
    }
    await this.dap.call('setExceptionBreakpoints', { filters: debugpyExceptionFilters(config.filters) });
  }

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  async continue(threadId?: number): Promise<void> {
    this.pages.clear();
    this.stops.forgetStack();
    const waiting = await this.hits.untold();
    if (waiting !== undefined) {
      const description = `It reached the breakpoint while the program was stopped on thread ${this.stops.lastThreadId}.`;
      return this.enqueue(() => this.stopped({ reason: 'breakpoint', threadId: waiting, allThreadsStopped: true, description }, false));
    }
    await this.dap.call('continue', { threadId: threadId ?? (await this.someThreadId()) });
  }

  async step(threadId: number, kind: StepKind): Promise<void> {
    this.pages.clear();
    this.stops.forgetStack();
    await this.dap.call(STEP_COMMANDS[kind], { threadId });
  }

  async pause(threadId?: number): Promise<void> {
    await this.dap.call('pause', { threadId: threadId ?? (await this.someThreadId()) });
  }

  /** debugpy moves the next statement in two requests: a target for the line, then `goto` it (answered by a `goto` stop). */
  async jump(threadId: number, file: string, line: number): Promise<void> {
    try {
      const { targets } = await this.dap.request('gotoTargets', { source: { path: file }, line });
      if (!targets[0]) throw new DebugError('JUMP_REFUSED', `debugpy has no place to go at line ${line}.`, JUMP_HINT);
      this.pages.clear();
      this.stops.forgetStack();
      await this.dap.request('goto', { threadId, targetId: targets[0].id });
    } catch (e) {
      throw requestError(e, 'JUMP_REFUSED', JUMP_HINT);
    }
  }

  private async someThreadId(): Promise<number> {
    if (this.stops.lastThreadId !== undefined) return this.stops.lastThreadId;
    const [first] = await this.threads();
    if (!first) throw new DebugError('THREAD_NOT_FOUND', 'The program has no threads (it may have exited).', 'Check session_state.');
    return first.id;
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  async threads(): Promise<ThreadInfo[]> {
    const body = await this.dap.call('threads', undefined);
    return body.threads.map((t) => ({ id: t.id, name: t.name }));
  }

  async stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    const kept = this.stops.takeStack(threadId, startFrame, levels);
    if (kept) return kept;
    const body = await this.dap.call('stackTrace', { threadId, startFrame, levels }, 'THREAD_NOT_FOUND');
    return { frames: body.stackFrames.map(toFrame), totalFrames: body.totalFrames };
  }

  /** debugpy reads a running thread's stack too (after half a second of waiting for it to stop). */
  async threadDumps(levels: number): Promise<ThreadDump[]> {
    return (await readStacks(this, levels)).map(withWaits);
  }

  async scopes(frameId: number): Promise<ScopeInfo[]> {
    const body = await this.dap.call('scopes', { frameId }, 'FRAME_NOT_FOUND');
    this.pages.noteScopes(frameId, body.scopes);
    return body.scopes.map(toScope);
  }

  async variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    // debugpy answers a container whole (and capped); pages are cut, and reach past the caps, there.
    return (await this.pages.page(ref, start, count)).map(toVariable);
  }

  textSlice(expression: string, start: number, end: number): string {
    return `(${expression})[${start}:${end}]`;
  }

  async evaluate(expression: string, frameId: number | undefined, context: 'repl' | 'watch' | 'hover'): Promise<EvaluateResult> {
    try {
      const body = await this.dap.request('evaluate', { expression, frameId, context });
      this.pages.noteEvaluated(frameId, expression, body.variablesReference);
      return toEvaluateResult(body);
    } catch (e) {
      throw evaluationError(e);
    }
  }

  async setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    try {
      return toEvaluateResult(await this.dap.request('setVariable', { variablesReference: containerRef, name, value }));
    } catch (e) {
      throw evaluationError(e);
    }
  }

  /** An ExceptionGroup's members, read in the thread's top frame; none when that fails. */
  private async groupMembers(threadId: number): Promise<ExceptionCause[]> {
    try {
      const [top] = (await this.dap.request('stackTrace', { threadId, startFrame: 0, levels: 1 })).stackFrames;
      return top ? groupMembers((await this.dap.request('evaluate', { expression: GROUP_MEMBERS_EXPRESSION, frameId: top.id, context: 'watch' })).result) : [];
    } catch {
      return [];
    }
  }

  async exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined> {
    try {
      const info = toExceptionInfo(await this.dap.request('exceptionInfo', { threadId }));
      if (isExceptionGroup(info.type)) info.causes = [...(await this.groupMembers(threadId)), ...(info.causes ?? [])];
      return info;
    } catch (e) {
      if (e instanceof DapRequestError && e.failure === 'rejected') return undefined;
      throw requestError(e, 'ADAPTER_FAILED', this.dap.stderrHint());
    }
  }

  // ── end ────────────────────────────────────────────────────────────────────────────────────

  terminate(): Promise<void> {
    return this.end('terminate');
  }

  detach(): Promise<void> {
    return this.end('detach');
  }

  dispose(): Promise<void> {
    // A program we launched does not outlive its session; one we attached to does.
    return this.end(this.mode === 'launch' ? 'terminate' : 'detach');
  }

  /** The first call decides; later calls wait for the same ending. */
  private end(how: 'terminate' | 'detach'): Promise<void> {
    active();
    this.ending ??= this.finish(how);
    // Once the ending's first requests are on their way; a launch right after it finds the next debuggee under way.
    setImmediate(sessionEnded);
    return this.ending;
  }

  private finish(how: 'terminate' | 'detach'): Promise<void> {
    const ourProgram = this.mode === 'launch' || this.debuggeeIsLocal ? this.debuggeePid : undefined;
    const run = { client: this.dap.client, adapter: this.adapter, launchUnanswered: this.mode === 'launch' && !this.started, ourProgram, specPath: this.specPath };
    return endPythonRun(run, how, (message) => this.context.log('warning', message));
  }

  diagnostics(): EngineDiagnostics {
    return {
      adapterStderr: this.dap.client?.stderrTail() ?? [],
      pendingRequests: (this.dap.client?.pendingRequests() ?? []).map(({ command, ageMs }) => ({ command, ageMs })),
      pid: this.debuggeePid,
      details: {
        transport: this.dap.client?.description,
        mode: this.mode,
        interpreter: this.interpreter?.executable,
        python: this.interpreter?.pythonVersion,
        debugpy: this.interpreter?.debugpyVersion,
        adapterPid: this.adapter?.pid,
        start: this.startedAs?.way,
        startNote: this.startedAs?.note,
        launchSteps: this.steps?.marks,
      },
    };
  }
}
