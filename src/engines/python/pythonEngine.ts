/**
 * The Python engine: the core's Engine seam over DAP to debugpy. Launch runs debugpy's adapter
 * as our child (through the socket-tuning bootstrap); attach connects to the adapter a program
 * started with `debugpy --listen`.
 */
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent } from '../../core/engine.js';
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
  ThreadInfo,
  VariableInfo,
} from '../../core/types.js';
import { DapClient } from '../../dap/dapClient.js';
import type { DapArguments } from '../../dap/dapProtocol.js';
import { DapRequestError } from '../../dap/dapRequestError.js';
import type { DapTransport } from '../../dap/dapTransport.js';
import { SocketTransport } from '../../dap/socketTransport.js';
import { REQUEST_TIMEOUT_MS, startAdapter } from './adapterConnection.js';
import type { AdapterProcess } from './adapterProcess.js';
import { BreakpointIds } from './breakpointIds.js';
import { capabilitiesFrom, PYTHON_CAPABILITIES } from './capabilities.js';
import { ContainerPages } from './containerPages.js';
import { toEvaluateResult, toExceptionInfo, toFrame, toScope, toVariable } from './dapValues.js';
import { attachArguments, INITIALIZE_ARGUMENTS, launchArguments } from './debugpyArguments.js';
import { debugpyExceptionFilters } from './exceptionFilters.js';
import { findInterpreter, type PythonInterpreter } from './interpreter.js';
import { injectDebugpy } from './pidInjection.js';
import { descendantsOf, endProcesses } from './processTree.js';
import { evaluationError, requestError } from './requestErrors.js';
import { prepareSpareAdapter, takeSpareAdapter } from './spareAdapter.js';

const STEP_COMMANDS = { over: 'next', into: 'stepIn', out: 'stepOut' } as const;

type StartCommand = 'launch' | 'attach';

export class PythonEngine implements Engine {
  private client?: DapClient;
  private adapter?: AdapterProcess;
  private interpreter?: PythonInterpreter;
  private adapterCapabilities?: DebugProtocol.Capabilities;
  private readonly breakpointIds = new BreakpointIds();
  private readonly pages = new ContainerPages({
    children: async (ref) => (await this.call('variables', { variablesReference: ref }, 'VARIABLE_NOT_FOUND')).variables,
    evaluate: async (expression, frameId) => (await this.call('evaluate', { expression, frameId, context: 'watch' }, 'VARIABLE_NOT_FOUND')).variablesReference,
  });
  private mode?: StartCommand;
  private debuggeePid?: number;
  private debuggeeIsLocal = false;
  private lastStoppedThreadId?: number;
  /** Set once launch or attach answered: until then there is no program to say goodbye to. */
  private started = false;
  private ending?: Promise<void>;
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

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    if (!existsSync(config.program)) {
      throw new DebugError('PROGRAM_NOT_FOUND', `${config.program} does not exist.`, 'Give the path of a Python file (absolute, or relative to cwd).');
    }
    const socketTuning = config.options.socketTuning !== false;
    // With a single candidate interpreter its adapter starts now, while discovery probes it.
    if (socketTuning) prepareSpareAdapter(config.options);
    const interpreter = await findInterpreter(config.options);
    // Ended (timed out, cancelled) while the interpreter was found: start nothing.
    if (this.ending || signal?.aborted) throw new DebugError('CANCELLED', 'Cancelled while starting the Python program.', 'Start it again when ready.');
    this.interpreter = interpreter;
    this.mode = 'launch';
    const adapter = (socketTuning && takeSpareAdapter(config.options)) || startAdapter(interpreter.executable, { socketTuning });
    this.adapter = adapter.process;
    const client = this.connect(adapter.client);
    const processStarted = client.once('process');
    const result = await this.start(client, adapter.capabilities, 'launch', launchArguments(config, interpreter), config, signal);
    // debugpy names the debuggee's pid just after answering `launch`.
    await Promise.race([processStarted, delay(2000)]);
    return { ...result, pid: this.debuggeePid };
  }

  async attach(config: AttachConfig, signal?: AbortSignal): Promise<LaunchResult> {
    let host = config.host ?? '127.0.0.1';
    let port = config.port;
    if (port === undefined) {
      if (config.pid === undefined) {
        throw new DebugError('INVALID_ARGUMENT', 'Attaching to Python needs a port (or a pid).', 'Give the host and port the program listens on with `debugpy --listen`.');
      }
      this.interpreter = await findInterpreter(config.options);
      port = await injectDebugpy(this.interpreter, config.pid);
      host = '127.0.0.1';
    }
    let transport: DapTransport;
    try {
      transport = await SocketTransport.connectWhenListening(host, port, 10_000);
    } catch (e) {
      throw new DebugError(
        'ATTACH_FAILED',
        `Cannot connect to debugpy at ${host}:${port}: ${(e as Error).message}.`,
        'Check that the program was started with `python -m debugpy --listen HOST:PORT` and is still running.',
      );
    }
    this.mode = 'attach';
    const client = this.connect(new DapClient(transport, { timeoutMs: REQUEST_TIMEOUT_MS }));
    return this.start(client, client.request('initialize', INITIALIZE_ARGUMENTS), 'attach', attachArguments(config), config, signal);
  }

  /** initialize → launch/attach → (initialized) breakpoints, filters → configurationDone → answer. */
  private async start(
    client: DapClient,
    capabilities: Promise<DebugProtocol.Capabilities | undefined>,
    command: StartCommand,
    args: DapArguments<'launch'> & DapArguments<'attach'>,
    config: LaunchConfig | AttachConfig,
    signal?: AbortSignal,
  ): Promise<LaunchResult> {
    const failure: ErrorCode = command === 'launch' ? 'LAUNCH_FAILED' : 'ATTACH_FAILED';
    const cancelled = rejectOnAbort(signal);
    const lost = new Promise<never>((_, reject) =>
      client.onClose((reason) => reject(new DebugError(failure, `debugpy went away during ${command}${reason ? `: ${reason.message}` : ''}.`, this.stderrHint()))),
    );
    const guard = <T>(work: Promise<T>) => Promise.race([work, cancelled, lost]);
    try {
      this.adapterCapabilities = await guard(capabilities);
      const initialized = client.once('initialized');
      const started = client.request(command, args, { timeoutMs: 60_000 });
      started.catch(() => {}); // awaited below; an early failure also ends the wait for `initialized`
      await guard(Promise.race([initialized, started]));
      const bindings = await guard(this.configure(config));
      await guard(client.request('configurationDone', undefined));
      await guard(started);
      this.started = true;
      return { breakpoints: bindings };
    } catch (e) {
      throw requestError(e, failure, this.stderrHint());
    }
  }

  private async configure(config: LaunchConfig | AttachConfig): Promise<BreakpointBinding[]> {
    const byFile = new Map<string, BreakpointSpec[]>();
    for (const spec of config.breakpoints) byFile.set(spec.file, [...(byFile.get(spec.file) ?? []), spec]);
    const bindings: BreakpointBinding[] = [];
    for (const [file, specs] of byFile) bindings.push(...(await this.setBreakpoints(file, specs)));
    if (config.functionBreakpoints.length) bindings.push(...(await this.setFunctionBreakpoints(config.functionBreakpoints)));
    await this.setExceptionBreakpoints(config.exceptions);
    return bindings;
  }

  private connect(client: DapClient): DapClient {
    this.client = client;
    client.on('stopped', (body) => this.enqueue(() => this.stopped(body)));
    client.on('continued', (body) => this.emit({ type: 'continued', threadId: body.threadId, allThreadsContinued: body.allThreadsContinued }));
    client.on('output', (body) => this.output(body));
    client.on('breakpoint', (body) => {
      const binding = this.breakpointIds.changed(body.breakpoint);
      if (binding) this.emit({ type: 'breakpoint', binding });
    });
    client.on('module', (body) => this.emit({ type: 'module', reason: body.reason, name: body.module.name, path: body.module.path }));
    client.on('thread', (body) => this.emit({ type: 'thread', reason: body.reason === 'exited' ? 'exited' : 'started', threadId: body.threadId }));
    client.on('process', (body) => {
      this.debuggeePid = body.systemProcessId;
      this.debuggeeIsLocal = body.isLocalProcess ?? this.mode === 'launch';
      this.emit({ type: 'process', pid: body.systemProcessId, name: body.name });
    });
    client.on('exited', (body) => this.emit(exitEvent(body.exitCode)));
    client.on('terminated', () => {
      this.emit({ type: 'terminated' });
      // The program is over: let the adapter go now rather than when the session is disposed.
      void this.end('terminate');
    });
    client.onClose((reason) => {
      if (this.ending) return;
      this.emit({ type: 'error', message: `debugpy connection lost${reason ? `: ${reason.message}` : ''}. ${this.stderrHint() ?? ''}`.trim() });
      this.emit({ type: 'terminated' });
    });
    client.handleReverseRequest('runInTerminal', () => {
      throw new Error('debugbridge runs programs with console "internalConsole" and has no terminal');
    });
    client.handleReverseRequest('startDebugging', () => {
      throw new Error('debugbridge does not debug child processes');
    });
    return client;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  private async stopped(body: DebugProtocol.StoppedEvent['body']): Promise<void> {
    this.pages.clear();
    const threadId = body.threadId ?? this.lastStoppedThreadId ?? 1;
    this.lastStoppedThreadId = threadId;
    let hitBreakpointIds = body.hitBreakpointIds?.length ? this.breakpointIds.sessionIdsOf(body.hitBreakpointIds) : undefined;
    if (!hitBreakpointIds && /breakpoint/.test(body.reason)) hitBreakpointIds = await this.breakpointsAtTopFrame(threadId);
    const exception = body.reason === 'exception' ? await this.exceptionInfo(threadId).catch(() => undefined) : undefined;
    if (exception?.type === 'SystemExit') {
      // debugpy treats sys.exit(non-zero) as an uncaught exception; it is how the program chose to end.
      await this.call('continue', { threadId });
      return;
    }
    this.emit({
      type: 'stopped',
      reason: body.reason,
      threadId,
      allThreadsStopped: body.allThreadsStopped,
      hitBreakpointIds,
      description: body.description ?? body.text,
      exception: exception ?? (body.reason === 'exception' && body.text ? { message: body.text } : undefined),
    });
  }

  /** debugpy does not say which breakpoint it stopped at: match the top frame against the bindings. */
  private async breakpointsAtTopFrame(threadId: number): Promise<number[]> {
    const { frames } = await this.stackTrace(threadId, 0, 1).catch(() => ({ frames: [] as FrameInfo[] }));
    const top = frames[0];
    return top ? this.breakpointIds.sessionIdsAt(top.file, top.line, top.name) : [];
  }

  private output(body: DebugProtocol.OutputEvent['body']): void {
    const category = body.category ?? 'console';
    if (category === 'telemetry') return;
    this.emit({ type: 'output', category: category === 'stdout' || category === 'stderr' ? category : 'console', text: body.output });
  }

  private emit(event: EngineEvent): void {
    this.enqueue(() => this.context.emit(event));
  }

  private enqueue(work: () => Promise<void> | void): void {
    this.emitted = this.emitted.then(work).catch((e: unknown) => this.context.log('warning', `python engine event: ${(e as Error).message}`));
  }

  // ── breakpoints ────────────────────────────────────────────────────────────────────────────

  async setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    const body = await this.call('setBreakpoints', {
      source: { path: file },
      breakpoints: specs.map((s) => ({ line: s.line, column: s.column, condition: s.condition, hitCondition: s.hitCondition, logMessage: s.logMessage })),
    });
    return this.breakpointIds.replaceFile(file, specs.map((s) => s.id), body.breakpoints);
  }

  async setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    if (!this.capabilities.functionBreakpoints) {
      if (specs.length === 0) return [];
      throw new DebugError('UNSUPPORTED', 'This debugpy has no function breakpoints.', 'Set a line breakpoint on the first line of the function instead.');
    }
    const body = await this.call('setFunctionBreakpoints', {
      breakpoints: specs.map((s) => ({ name: s.function, condition: s.condition, hitCondition: s.hitCondition })),
    });
    return this.breakpointIds.replaceFunctions(specs, body.breakpoints);
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    if (config.typeNames?.length) {
      throw new DebugError('UNSUPPORTED', 'Python exception breakpoints cannot be limited to type names.', 'Use the filter "all" with a conditional breakpoint, or "uncaught".');
    }
    await this.call('setExceptionBreakpoints', { filters: debugpyExceptionFilters(config.filters) });
  }

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  async continue(threadId?: number): Promise<void> {
    this.pages.clear();
    await this.call('continue', { threadId: threadId ?? (await this.someThreadId()) });
  }

  async step(threadId: number, kind: StepKind): Promise<void> {
    this.pages.clear();
    await this.call(STEP_COMMANDS[kind], { threadId });
  }

  async pause(threadId?: number): Promise<void> {
    await this.call('pause', { threadId: threadId ?? (await this.someThreadId()) });
  }

  private async someThreadId(): Promise<number> {
    if (this.lastStoppedThreadId !== undefined) return this.lastStoppedThreadId;
    const [first] = await this.threads();
    if (!first) throw new DebugError('THREAD_NOT_FOUND', 'The program has no threads (it may have exited).', 'Check session_state.');
    return first.id;
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  async threads(): Promise<ThreadInfo[]> {
    const body = await this.call('threads', undefined);
    return body.threads.map((t) => ({ id: t.id, name: t.name }));
  }

  async stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    const body = await this.call('stackTrace', { threadId, startFrame, levels }, 'THREAD_NOT_FOUND');
    return { frames: body.stackFrames.map(toFrame), totalFrames: body.totalFrames };
  }

  async scopes(frameId: number): Promise<ScopeInfo[]> {
    const body = await this.call('scopes', { frameId }, 'FRAME_NOT_FOUND');
    this.pages.noteScopes(frameId, body.scopes);
    return body.scopes.map(toScope);
  }

  async variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    // debugpy answers a container whole (and capped); pages are cut, and reach past the caps, there.
    return (await this.pages.page(ref, start, count)).map(toVariable);
  }

  async evaluate(expression: string, frameId: number | undefined, context: 'repl' | 'watch' | 'hover'): Promise<EvaluateResult> {
    try {
      const body = await this.request('evaluate', { expression, frameId, context });
      this.pages.noteEvaluated(frameId, expression, body.variablesReference);
      return toEvaluateResult(body);
    } catch (e) {
      throw evaluationError(e);
    }
  }

  async setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    try {
      return toEvaluateResult(await this.request('setVariable', { variablesReference: containerRef, name, value }));
    } catch (e) {
      throw evaluationError(e);
    }
  }

  async exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined> {
    try {
      return toExceptionInfo(await this.request('exceptionInfo', { threadId }));
    } catch (e) {
      if (e instanceof DapRequestError && e.failure === 'rejected') return undefined;
      throw requestError(e, 'ADAPTER_FAILED', this.stderrHint());
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
    this.ending ??= this.finish(how);
    return this.ending;
  }

  private async finish(how: 'terminate' | 'detach'): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (this.mode === 'launch' && !this.started) {
      // A launch that timed out or was cancelled: its processes may be stuck; end them at once.
      client.close();
      await this.adapter?.kill();
      return;
    }
    const terminating = how === 'terminate';
    const ownsDebuggee = terminating && this.debuggeePid !== undefined && (this.mode === 'launch' || this.debuggeeIsLocal);
    // Looked up before the program ends: its children lose their parent link once it is gone.
    const program = ownsDebuggee ? [this.debuggeePid!, ...descendantsOf(this.debuggeePid!)] : [];
    if (!client.closed) {
      // Answered after the debuggee exited (debugpy kills its process group) and its last output and exit code came.
      await client.request('disconnect', { terminateDebuggee: terminating, restart: false }, { timeoutMs: 3000 }).catch(() => undefined);
    }
    client.close();
    // The adapter and the launcher end by themselves now (~10 ms); what they leave is ended.
    await Promise.all([
      this.adapter?.end({ withDescendants: terminating }).catch((e: unknown) => this.context.log('warning', `python adapter end: ${(e as Error).message}`)),
      endProcesses(program),
    ]);
  }

  diagnostics(): EngineDiagnostics {
    return {
      adapterStderr: this.client?.stderrTail() ?? [],
      pendingRequests: (this.client?.pendingRequests() ?? []).map(({ command, ageMs }) => ({ command, ageMs })),
      pid: this.debuggeePid,
      details: {
        transport: this.client?.description,
        mode: this.mode,
        interpreter: this.interpreter?.executable,
        python: this.interpreter?.pythonVersion,
        debugpy: this.interpreter?.debugpyVersion,
        adapterPid: this.adapter?.pid,
      },
    };
  }

  // ── requests ───────────────────────────────────────────────────────────────────────────────

  private request<C extends Parameters<DapClient['request']>[0]>(command: C, args: DapArguments<C>) {
    const client = this.client;
    if (!client || client.closed) {
      return Promise.reject(new DebugError('INVALID_STATE', 'The Python debug session is not running.', 'Launch or attach first, or check session_state.'));
    }
    return client.request(command, args);
  }

  /** A request whose refusal is a DebugError with `rejectedCode` (the adapter said no). */
  private async call<C extends Parameters<DapClient['request']>[0]>(command: C, args: DapArguments<C>, rejectedCode: ErrorCode = 'ADAPTER_FAILED') {
    try {
      return await this.request(command, args);
    } catch (e) {
      throw requestError(e, rejectedCode, this.stderrHint());
    }
  }

  private stderrHint(): string | undefined {
    const tail = this.client?.stderrTail() ?? [];
    return tail.length ? `debugpy said: ${tail.slice(-5).join(' | ')}` : undefined;
  }
}

/** Our launcher reports a debuggee killed by a signal as the negative signal number (launcherExit.ts). */
function exitEvent(exitCode: number): EngineEvent {
  if (exitCode >= 0) return { type: 'exited', exitCode };
  const signal = Object.entries(constants.signals).find(([, n]) => n === -exitCode)?.[0];
  return { type: 'exited', signal: signal ?? `signal ${-exitCode}` };
}

function rejectOnAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    const abort = () => reject(new DebugError('CANCELLED', 'Cancelled while starting the Python program.', 'Start it again when ready.'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
