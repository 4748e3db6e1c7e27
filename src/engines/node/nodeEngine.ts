/**
 * The Node.js engine: the core's Engine seam over the Chrome DevTools Protocol to V8. Launch runs
 * `node --inspect-brk` as our child and arms every breakpoint before the first line runs; attach
 * connects to the inspector of a program that already runs.
 */
import { existsSync } from 'node:fs';
import type { Protocol } from 'devtools-protocol';
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent } from '../../core/engine.js';
import { DebugError, type ErrorCode } from '../../core/errors.js';
import type {
  AttachConfig,
  BreakpointBinding,
  BreakpointSpec,
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
import { CdpClient, type CdpMethod, type CdpParams, type CdpResult } from './cdpClient.js';
import { CdpRequestError } from './cdpRequestError.js';
import { NODE_CAPABILITIES, pauseOnExceptionsState } from './capabilities.js';
import { DEFAULT_INSPECTOR_PORT, findDebuggerUrl, openInspectorOf } from './inspectorTargets.js';
import { InspectorProcess } from './inspectorProcess.js';
import { NodeBreakpoints } from './nodeBreakpoints.js';
import { findRuntime, INSTALL_NODE, runtimeArgs, type NodeRuntime } from './nodeRuntime.js';
import { isExceptionPause, stopOf } from './pausedStops.js';
import { endPid } from './processEnd.js';
import { valueText } from './remoteObjects.js';
import { ScriptRegistry } from './scriptRegistry.js';
import { ValueHandles, type CallFrame } from './valueHandles.js';
import { ValueReader } from './valueReader.js';

const THREAD_ID = 1;
const STEP_METHODS = { over: 'Debugger.stepOver', into: 'Debugger.stepInto', out: 'Debugger.stepOut' } as const;
const ATTACH_TIMEOUT_MS = 10_000;

type Mode = 'launch' | 'attach';

export class NodeEngine implements Engine {
  readonly capabilities = NODE_CAPABILITIES;
  private client?: CdpClient;
  private debuggee?: InspectorProcess;
  private runtime?: NodeRuntime;
  private mode?: Mode;
  private attachedPid?: number;
  private readonly scripts = new ScriptRegistry();
  private readonly breakpoints = new NodeBreakpoints(this.scripts);
  private readonly handles = new ValueHandles();
  private readonly values = new ValueReader(() => this.connected(), this.handles);
  /** The paused call frames, and their handles as they are asked for. */
  private callFrames?: CallFrame[];
  private frameIds: number[] = [];
  private exception?: ExceptionInfo;
  private expectedStop?: 'step' | 'pause';
  /** Set by launch until the first pause, which is handled before launch answers. */
  private entry?: { stopOnEntry: boolean; handled(): void };
  private swallowNextResumed = false;
  private mainContextId?: number;
  private exitReported = false;
  private ending?: Promise<void>;
  private readonly gone: Promise<void>;
  private markGone!: () => void;

  constructor(private readonly context: EngineContext) {
    this.gone = new Promise((resolve) => (this.markGone = resolve));
  }

  get pid(): number | undefined {
    return this.debuggee?.pid ?? this.attachedPid;
  }

  // ── start ──────────────────────────────────────────────────────────────────────────────────

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    if (!existsSync(config.program)) {
      throw new DebugError('PROGRAM_NOT_FOUND', `${config.program} does not exist.`, 'Give the path of a JavaScript file (absolute, or relative to cwd).');
    }
    this.mode = 'launch';
    this.runtime = await findRuntime(config.options).catch((e: Error) => {
      throw new DebugError('ENGINE_UNAVAILABLE', e.message, INSTALL_NODE);
    });
    const { process: debuggee, url } = await InspectorProcess.start(
      { runtime: this.runtime.executable, runtimeArgs: runtimeArgs(config.options), program: config.program, args: config.args, cwd: config.cwd, env: config.env },
      {
        output: (category, text) => this.emit({ type: 'output', category, text }),
        waitingForDisconnect: () => this.client?.close(),
        exit: (code, sig) => this.exited(code, sig),
      },
      signal,
    );
    this.debuggee = debuggee;
    this.emit({ type: 'process', pid: debuggee.pid, name: config.program });
    const entered = new Promise<void>((handled) => (this.entry = { stopOnEntry: config.stopOnEntry, handled }));
    return this.starting('LAUNCH_FAILED', signal, async () => {
      const client = await this.connect(url, config.options);
      await this.configure(client, config);
      await client.send('Runtime.runIfWaitingForDebugger');
      await Promise.race([entered, this.gone]);
      return { breakpoints: this.breakpoints.bindings(config.breakpoints.map((b) => b.id)), pid: debuggee.pid };
    });
  }

  async attach(config: AttachConfig, signal?: AbortSignal): Promise<LaunchResult> {
    this.mode = 'attach';
    let host = config.host ?? '127.0.0.1';
    let port = config.port;
    if (port === undefined) {
      if (config.pid === undefined) {
        throw new DebugError('INVALID_ARGUMENT', 'Attaching to node needs a port (or a pid).', 'Give the port the program listens on with `node --inspect=PORT`.');
      }
      openInspectorOf(config.pid);
      [host, port] = ['127.0.0.1', DEFAULT_INSPECTOR_PORT];
    }
    const url = await findDebuggerUrl(host, port, ATTACH_TIMEOUT_MS, signal);
    return this.starting('ATTACH_FAILED', signal, async () => {
      const client = await this.connect(url, config.options);
      await this.configure(client, config);
      await client.send('Runtime.runIfWaitingForDebugger');
      this.attachedPid = await this.remotePid(client);
      if (config.pid !== undefined && this.attachedPid !== config.pid) {
        throw new DebugError(
          'ATTACH_FAILED',
          `Port ${port} belongs to node process ${this.attachedPid}, not ${config.pid}.`,
          'Stop the process that holds the port, or start the program with `node --inspect=PORT` and attach by port.',
        );
      }
      return { breakpoints: this.breakpoints.bindings(config.breakpoints.map((b) => b.id)), pid: this.attachedPid };
    });
  }

  /** Runs the start-up steps; cancellation and a lost connection end them with `failure`. */
  private async starting(failure: ErrorCode, signal: AbortSignal | undefined, work: () => Promise<LaunchResult>): Promise<LaunchResult> {
    const cancelled = new Promise<never>((_, reject) => {
      const abort = () => reject(new DebugError('CANCELLED', 'Cancelled while starting the node program.', 'Start it again when ready.'));
      if (signal?.aborted) abort();
      else signal?.addEventListener('abort', abort, { once: true });
    });
    try {
      return await Promise.race([work(), cancelled]);
    } catch (e) {
      await this.dispose();
      if (e instanceof DebugError) throw e;
      throw new DebugError(failure, `Cannot debug the node program: ${(e as Error).message}.`, this.stderrHint() ?? 'Check session_output and session_diagnostics.');
    }
  }

  private async connect(url: string, options: Record<string, unknown>): Promise<CdpClient> {
    const client = await CdpClient.connect(url, { ackCarrier: options.ackCarrier !== false });
    this.client = client;
    client.on('Debugger.scriptParsed', (e) => this.scripts.parsed(e));
    client.on('Debugger.breakpointResolved', (e) => {
      const binding = this.breakpoints.resolved(e);
      if (binding) this.emit({ type: 'breakpoint', binding });
    });
    client.on('Debugger.paused', (e) => void this.paused(e).catch((err: Error) => this.context.log('warning', `node engine pause: ${err.message}`)));
    client.on('Debugger.resumed', () => this.resumed());
    client.on('Runtime.executionContextCreated', (e) => {
      if (this.mainContextId === undefined && (e.context.auxData as { isDefault?: boolean } | undefined)?.isDefault) this.mainContextId = e.context.id;
    });
    // The program is over; node waits for us to hang up before it exits (nodejs/node#13888).
    client.on('Runtime.executionContextDestroyed', (e) => {
      if (e.executionContextId === this.mainContextId) client.close();
    });
    if (this.mode === 'attach') client.on('Runtime.consoleAPICalled', (e) => this.consoleOutput(e));
    client.onClose(() => this.connectionClosed());
    return client;
  }

  private async configure(client: CdpClient, config: LaunchConfig | AttachConfig): Promise<void> {
    await client.send('Runtime.enable');
    await client.send('Debugger.enable', {});
    const byFile = new Map<string, BreakpointSpec[]>();
    for (const spec of config.breakpoints) byFile.set(spec.file, [...(byFile.get(spec.file) ?? []), spec]);
    for (const [file, specs] of byFile) await this.breakpoints.replaceFile(client, file, specs);
    await this.setExceptionBreakpoints(config.exceptions);
  }

  private async remotePid(client: CdpClient): Promise<number | undefined> {
    const answer = await client.send('Runtime.evaluate', { expression: 'process.pid', silent: true }).catch(() => undefined);
    return typeof answer?.result.value === 'number' ? answer.result.value : undefined;
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  private async paused(event: Protocol.Debugger.PausedEvent): Promise<void> {
    this.handles.clear();
    this.callFrames = event.callFrames;
    this.frameIds = [];
    const entry = this.entry;
    this.entry = undefined;
    const expected = this.expectedStop;
    this.expectedStop = undefined;
    if (event.hitBreakpoints?.length) await this.breakpoints.settled();
    const hitBreakpointIds = this.breakpoints.sessionIdsOf(event.hitBreakpoints ?? []);
    // node's --inspect-brk pause; "ambiguous" when a breakpoint sits on that same first statement.
    const atStart = entry ? !isExceptionPause(event) : (event.reason as string) === 'Break on start';
    if (atStart && !hitBreakpointIds.length && !entry?.stopOnEntry) {
      this.callFrames = undefined;
      this.swallowNextResumed = true;
      await this.connected().send('Debugger.resume');
      entry?.handled();
      return;
    }
    const stop = stopOf(event, { hitBreakpointIds, atStart, expected });
    this.exception = stop.exception;
    this.emit({ type: 'stopped', reason: stop.reason, threadId: THREAD_ID, allThreadsStopped: true, hitBreakpointIds, description: stop.description, exception: stop.exception });
    entry?.handled();
  }

  private resumed(): void {
    this.callFrames = undefined;
    this.exception = undefined;
    this.handles.clear();
    if (this.client && !this.client.closed) this.values.resumed(this.client);
    if (this.swallowNextResumed) {
      this.swallowNextResumed = false;
      return;
    }
    this.emit({ type: 'continued', threadId: THREAD_ID, allThreadsContinued: true });
  }

  /** Attached programs write to their own terminal: their console calls are all we see. */
  private consoleOutput(event: Protocol.Runtime.ConsoleAPICalledEvent): void {
    const text = event.args.map((a) => (a.type === 'string' ? String(a.value) : valueText(a))).join(' ');
    this.emit({ type: 'output', category: ['error', 'warning', 'assert', 'trace'].includes(event.type) ? 'stderr' : 'stdout', text: `${text}\n` });
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.client?.close();
    this.markGone();
    if (this.exitReported) return;
    this.exitReported = true;
    this.emit({ type: 'exited', exitCode: code ?? undefined, signal: signal ?? undefined });
    this.emit({ type: 'terminated' });
  }

  private connectionClosed(): void {
    this.callFrames = undefined;
    this.handles.clear();
    // A launched program reports its exit when the process is gone; an attached one just ends.
    if (this.mode === 'attach' && !this.ending && !this.exitReported) {
      this.exitReported = true;
      this.markGone();
      this.emit({ type: 'terminated' });
    }
  }

  private emit(event: EngineEvent): void {
    this.context.emit(event);
  }

  // ── breakpoints ────────────────────────────────────────────────────────────────────────────

  async setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.breakpoints.replaceFile(this.connected(), file, specs);
  }

  async setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    if (specs.length === 0) return [];
    throw new DebugError('UNSUPPORTED', 'Node.js debugging has no function breakpoints.', 'Set a line breakpoint on the first line of the function instead.');
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    if (config.typeNames?.length) {
      throw new DebugError('UNSUPPORTED', 'Node.js exception breakpoints cannot be limited to type names.', 'Use the filter "all" with a conditional breakpoint, or "uncaught".');
    }
    await this.call('ADAPTER_FAILED', 'Debugger.setPauseOnExceptions', { state: pauseOnExceptionsState(config.filters) });
  }

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  async continue(): Promise<void> {
    await this.runOn(() => this.call('INVALID_STATE', 'Debugger.resume', {}));
  }

  async step(_threadId: number, kind: StepKind): Promise<void> {
    this.requirePaused();
    this.expectedStop = 'step';
    await this.runOn(() => this.call('INVALID_STATE', STEP_METHODS[kind], {}));
  }

  async pause(): Promise<void> {
    this.expectedStop = 'pause';
    this.connected().expectEvent('Debugger.paused');
    await this.call('INVALID_STATE', 'Debugger.pause');
  }

  /** Sends a resume or a step. A program that runs to its end may hang up before answering: that is its exit, not a failure. */
  private async runOn(send: () => Promise<unknown>): Promise<void> {
    this.connected().expectEvent('Debugger.paused');
    this.callFrames = undefined;
    try {
      await send();
    } catch (e) {
      if (!(e instanceof DebugError && e.details?.failure === 'closed')) throw e;
    }
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  async threads(): Promise<ThreadInfo[]> {
    return [{ id: THREAD_ID, name: 'main' }];
  }

  async stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    if (threadId !== THREAD_ID) throw new DebugError('THREAD_NOT_FOUND', `Node.js has one thread (1), not ${threadId}.`, 'Use thread 1.');
    const callFrames = this.requirePaused();
    const end = Math.min(callFrames.length, startFrame + levels);
    const frames: FrameInfo[] = [];
    for (let i = startFrame; i < end; i++) frames.push(this.frameInfo(i, callFrames[i]));
    return { frames, totalFrames: callFrames.length };
  }

  async scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.values.scopes(this.frameOf(frameId));
  }

  async variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    const handle = this.handles.get(ref);
    if (!handle) throw new DebugError('VARIABLE_NOT_FOUND', `No value #${ref} (values are valid while the program stays stopped).`, 'List the scopes again with inspect_variables.');
    return this.guard(() => this.values.variables(handle, start, count), 'VARIABLE_NOT_FOUND');
  }

  async evaluate(expression: string, frameId: number | undefined): Promise<EvaluateResult> {
    const frame = frameId !== undefined ? this.frameOf(frameId) : this.callFrames?.[0];
    return this.guard(() => this.values.evaluate(expression, frame), 'EVALUATION_FAILED');
  }

  async setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    const handle = this.handles.get(containerRef);
    if (!handle) throw new DebugError('VARIABLE_NOT_FOUND', `No container #${containerRef} (values are valid while the program stays stopped).`, 'List the scopes again with inspect_variables.');
    return this.guard(() => this.values.setVariable(handle, name, value, this.callFrames?.[0]), 'EVALUATION_FAILED');
  }

  async exceptionInfo(): Promise<ExceptionInfo | undefined> {
    return this.exception;
  }

  private frameInfo(index: number, frame: CallFrame): FrameInfo {
    this.frameIds[index] ??= this.handles.addFrame(frame);
    const file = this.scripts.pathOf(frame.location.scriptId);
    const url = frame.url || this.scripts.urlOf(frame.location.scriptId);
    const name = frame.functionName || '<anonymous>';
    return {
      id: this.frameIds[index],
      name: file || !url ? name : `${name} [${url}]`,
      file,
      line: frame.location.lineNumber + 1,
      column: (frame.location.columnNumber ?? 0) + 1,
      presentationHint: file ? 'normal' : 'subtle',
    };
  }

  private frameOf(frameId: number): CallFrame {
    const frame = this.handles.frame(frameId);
    if (!frame) throw new DebugError('FRAME_NOT_FOUND', `No frame #${frameId} (frames are valid while the program stays stopped).`, 'Read the stack again with inspect_stack.');
    return frame;
  }

  private requirePaused(): CallFrame[] {
    if (!this.callFrames) throw new DebugError('INVALID_STATE', 'The node program is not paused.', 'Wait for a stop (breakpoint_wait) or pause it (execution_pause).');
    return this.callFrames;
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
    return this.end(this.mode === 'attach' ? 'detach' : 'terminate');
  }

  private end(how: 'terminate' | 'detach'): Promise<void> {
    this.ending ??= this.finish(how);
    return this.ending;
  }

  private async finish(how: 'terminate' | 'detach'): Promise<void> {
    if (how === 'terminate') {
      // Kill before hanging up: closing the socket would let a paused program run on meanwhile.
      if (this.debuggee) await this.debuggee.end();
      else if (this.attachedPid !== undefined && this.attachedIsLocal()) await endPid(this.attachedPid);
    }
    // Hanging up removes our breakpoints and resumes the program.
    this.client?.close();
  }

  private attachedIsLocal(): boolean {
    const host = this.client ? new URL(this.client.url).hostname : '';
    return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host);
  }

  diagnostics(): EngineDiagnostics {
    return {
      adapterStderr: this.debuggee?.stderrLines() ?? [],
      pendingRequests: (this.client?.pendingRequests() ?? []).map(({ method, ageMs }) => ({ command: method, ageMs })),
      pid: this.pid,
      details: {
        mode: this.mode,
        runtime: this.runtime?.executable,
        version: this.runtime?.version,
        inspector: this.client?.url,
        connected: this.client ? !this.client.closed : false,
        paused: !!this.callFrames,
      },
    };
  }

  // ── requests ───────────────────────────────────────────────────────────────────────────────

  private connected(): CdpClient {
    if (!this.client || this.client.closed) {
      throw new DebugError('INVALID_STATE', 'The node debug session is not connected (the program may have ended).', 'Check session_state; session_restart runs it again.');
    }
    return this.client;
  }

  /** A request whose refusal is a DebugError with `rejectedCode`. */
  private call<M extends CdpMethod>(rejectedCode: ErrorCode, method: M, ...params: CdpParams<M>): Promise<CdpResult<M>> {
    return this.guard(() => this.connected().send(method, ...params), rejectedCode);
  }

  /** A CDP failure as the typed error the agent reads. */
  private async guard<T>(work: () => Promise<T>, rejectedCode: ErrorCode): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (e instanceof DebugError || !(e instanceof CdpRequestError)) throw e;
      if (e.failure === 'timeout') throw new DebugError('TIMEOUT', `node did not answer: ${e.message}.`, 'Check session_diagnostics; the program may be blocked in native code.');
      if (e.failure === 'closed') throw new DebugError('INVALID_STATE', `The node program went away: ${e.message}.`, 'Check session_state.', { failure: 'closed' });
      throw new DebugError(rejectedCode, e.message, this.stderrHint());
    }
  }

  private stderrHint(): string | undefined {
    const tail = this.debuggee?.stderrLines().slice(-5) ?? [];
    return tail.length ? `node said: ${tail.join(' | ')}` : undefined;
  }
}
