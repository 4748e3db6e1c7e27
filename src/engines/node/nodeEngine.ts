/**
 * The Node.js engine: the core's Engine seam over the Chrome DevTools Protocol to V8. Launch runs
 * `node --inspect-brk` as our child (TypeScript through a runner the launch plan picks) and arms
 * every breakpoint before the first line runs; the node processes and worker threads the program
 * starts are debugged too, as more threads. Attach connects to the inspector of a program that
 * already runs.
 */
import { existsSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent, LiveEditRequest, LiveEditResult } from '../../core/engine.js';
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
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from '../../core/types.js';
import { CdpClient } from './cdpClient.js';
import { CdpRequestError } from './cdpRequestError.js';
import { NODE_CAPABILITIES } from './capabilities.js';
import { ChildProcessHub, PRELOAD_URL, type ChildReport } from './childProcesses.js';
import { DEFAULT_INSPECTOR_PORT, findDebuggerUrl, openInspectorOf } from './inspectorTargets.js';
import { InspectorProcess } from './inspectorProcess.js';
import { isTypeScript, planLaunch, type TypeScriptRunner } from './launchPlan.js';
import type { NodeLiveEdit } from './liveEdit.js';
import type { LaunchEnvironment } from './tsRecompile.js';
import { findRuntime, INSTALL_NODE, runtimeArgs, type NodeRuntime } from './nodeRuntime.js';
import { NodeTargets } from './nodeTargets.js';
import type { NodeTarget } from './nodeTarget.js';
import { endPid } from './processEnd.js';
import { valueText } from './remoteObjects.js';
import { idleDump, withWaits } from './threadWaits.js';

const ATTACH_TIMEOUT_MS = 10_000;
/** How long a running isolate's stack is waited for: JavaScript that runs pauses within milliseconds. */
const SNAPSHOT_WAIT_MS = 1000;
/** The first process prints where its inspector listens; the ones it starts tell the hub instead. */
const PUBLISH_URL_ON_STDERR = '--inspect-publish-uid=stderr,http';

type Mode = 'launch' | 'attach';

export class NodeEngine implements Engine {
  readonly capabilities = NODE_CAPABILITIES;
  private targets: NodeTargets;
  private debuggee?: InspectorProcess;
  private hub?: ChildProcessHub;
  private readonly childPids = new Set<number>();
  private runtime?: NodeRuntime;
  private mode?: Mode;
  private attachedPid?: number;
  private exitReported = false;
  private ending?: Promise<void>;
  private readonly gone: Promise<void>;
  private markGone!: () => void;
  private firstStop?: () => void;
  /** Milliseconds from the launch call to each step of starting, for diagnostics and the benchmark. */
  private readonly launchPhases: Record<string, number> = {};
  private launchStartedAt = 0;
  private tsRunner?: TypeScriptRunner;
  private launchEnvironment?: LaunchEnvironment;
  /** Loaded on the first apply (it brings acorn and the compilers' glue). */
  private liveEdit?: Promise<NodeLiveEdit>;

  constructor(private readonly context: EngineContext) {
    this.gone = new Promise((resolve) => (this.markGone = resolve));
    this.targets = this.newTargets();
  }

  get pid(): number | undefined {
    return this.debuggee?.pid ?? this.attachedPid;
  }

  // ── start ──────────────────────────────────────────────────────────────────────────────────

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    if (!existsSync(config.program)) {
      throw new DebugError('PROGRAM_NOT_FOUND', `${config.program} does not exist.`, 'Give the path of a JavaScript or TypeScript file (absolute, or relative to cwd).');
    }
    this.mode = 'launch';
    this.launchStartedAt = performance.now();
    this.runtime = await findRuntime(config.options).catch((e: Error) => {
      throw new DebugError('ENGINE_UNAVAILABLE', e.message, INSTALL_NODE);
    });
    const plan = planLaunch(config.program, this.runtime, config.options);
    this.tsRunner = plan.runner;
    this.launchEnvironment = { cwd: config.cwd, env: { ...process.env, ...config.env } };
    this.targets = this.newTargets(PRELOAD_URL);
    this.targets.typesStrippedInPlace = plan.typesStrippedInPlace;
    if (!isTypeScript(plan.entry) && !plan.runtimeArgs.length) this.targets.compiledEntry = plan.entry;
    this.targets.want(config.breakpoints, config.functionBreakpoints, config.exceptions);
    this.hub = ChildProcessHub.open((report) => this.childReported(report));
    const { process: debuggee, url } = await InspectorProcess.start(
      {
        runtime: this.runtime.executable,
        runtimeArgs: [...runtimeArgs(config.options), ...plan.runtimeArgs, PUBLISH_URL_ON_STDERR],
        program: plan.entry,
        args: config.args,
        cwd: config.cwd,
        env: { ...config.env, ...this.hub.env(config.env) },
        breakOnStart: !!config.stopOnEntry,
      },
      {
        output: (category, text) => this.emit({ type: 'output', category, text }),
        waitingForDisconnect: () => this.targets.main?.cdp.close(),
        exit: (code, sig) => void this.exited(code, sig),
      },
      signal,
    ).catch(async (e: unknown) => {
      await this.hub?.close();
      throw e;
    });
    this.debuggee = debuggee;
    this.phase('inspectorListening');
    this.emit({ type: 'process', pid: debuggee.pid, name: config.program });
    const stopped = new Promise<void>((resolve) => (this.firstStop = resolve));
    return this.starting('LAUNCH_FAILED', signal, async () => {
      const main = this.targets.add('main', await this.connect(url, config.options), `main, pid ${debuggee.pid}`, debuggee.pid);
      this.phase('connected');
      const loaded = scriptLoaded(main, plan.entry, !!config.stopOnEntry).then(() => this.phase('programLoaded'));
      await main.start({ entry: { stopOnEntry: config.stopOnEntry }, held: true });
      this.phase('running');
      await Promise.race([config.stopOnEntry ? stopped : Promise.race([loaded, stopped]), this.gone]);
      const breakpoints = await this.targets.bindings([...config.breakpoints, ...config.functionBreakpoints].map((b) => b.id));
      return { breakpoints, pid: debuggee.pid, note: plan.note };
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
      await openInspectorOf(config.pid, signal);
      [host, port] = ['127.0.0.1', DEFAULT_INSPECTOR_PORT];
    }
    const url = await findDebuggerUrl(host, port, ATTACH_TIMEOUT_MS, signal);
    this.targets.want(config.breakpoints, config.functionBreakpoints, config.exceptions);
    return this.starting('ATTACH_FAILED', signal, async () => {
      const client = await this.connect(url, config.options);
      client.on('Runtime.consoleAPICalled', (e) => this.consoleOutput(e));
      const main = this.targets.add('main', client, 'main');
      await main.start();
      this.attachedPid = await main.remotePid();
      if (config.pid !== undefined && this.attachedPid !== config.pid) {
        throw new DebugError(
          'ATTACH_FAILED',
          `Port ${port} belongs to node process ${this.attachedPid}, not ${config.pid}.`,
          'Stop the process that holds the port, or start the program with `node --inspect=PORT` and attach by port.',
        );
      }
      return { breakpoints: await this.targets.bindings([...config.breakpoints, ...config.functionBreakpoints].map((b) => b.id)), pid: this.attachedPid };
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
    client.onClose(() => this.connectionClosed());
    return client;
  }

  private newTargets(preloadUrl?: string): NodeTargets {
    return new NodeTargets(
      {
        emit: (event) => this.emit(event),
        log: (level, message) => this.context.log(level, message),
      },
      preloadUrl,
    );
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  private childReported(report: ChildReport): void {
    this.childPids.add(report.pid);
    if (this.ending || this.exitReported) {
      void endPid(report.pid);
      return;
    }
    this.targets.attachProcess(report).then(
      // Gone: its pid may soon name another process, which must not be signalled at the end.
      (target) => target.cdp.onClose(() => this.childPids.delete(report.pid)),
      (e: Error) => this.context.log('warning', `node engine: could not attach to process ${report.pid}: ${e.message}`),
    );
  }

  /** Attached programs write to their own terminal: their console calls are all we see. */
  private consoleOutput(event: { type: string; args: { type: string; value?: unknown }[] }): void {
    const text = event.args.map((a) => (a.type === 'string' ? String(a.value) : valueText(a as never))).join(' ');
    this.emit({ type: 'output', category: ['error', 'warning', 'assert', 'trace'].includes(event.type) ? 'stderr' : 'stdout', text: `${text}\n` });
  }

  private async exited(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    this.targets.main?.cdp.close();
    // The processes the program started do not outlive it.
    await this.endChildren();
    this.markGone();
    if (!this.exitReported) {
      this.exitReported = true;
      this.emit({ type: 'exited', exitCode: code ?? undefined, signal: signal ?? undefined });
      this.emit({ type: 'terminated' });
    }
    // Its reports folder goes after the exit is told (removing it took up to 0.15 s under load).
    await this.hub?.close();
  }

  private connectionClosed(): void {
    // A launched program reports its exit when the process is gone; an attached one just ends.
    if (this.mode === 'attach' && !this.ending && !this.exitReported) {
      this.exitReported = true;
      this.markGone();
      this.emit({ type: 'terminated' });
    }
  }

  private phase(name: string): void {
    if (this.mode === 'launch') this.launchPhases[name] ??= Math.round((performance.now() - this.launchStartedAt) * 10) / 10;
  }

  private emit(event: EngineEvent): void {
    if (event.type === 'stopped') {
      this.phase('firstStop');
      this.firstStop?.();
      // An edit often follows a stop: its code loads while the agent reads the stop.
      if (!this.liveEdit) setImmediate(() => void this.liveEditor().catch(() => undefined));
    }
    this.context.emit(event);
  }

  // ── breakpoints ────────────────────────────────────────────────────────────────────────────

  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    this.connected();
    return this.guard(() => this.targets.setLines(file, specs), 'ADAPTER_FAILED');
  }

  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    if (!this.targets.main) return Promise.resolve([]);
    return this.guard(() => this.targets.setFunctions(specs), 'ADAPTER_FAILED');
  }

  async setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    if (config.typeNames?.length) {
      throw new DebugError('UNSUPPORTED', 'Node.js exception breakpoints cannot be limited to type names.', 'Use the filter "all" with a conditional breakpoint, or "uncaught".');
    }
    this.connected();
    await this.guard(() => this.targets.setExceptions(config), 'ADAPTER_FAILED');
  }

  // ── execution ──────────────────────────────────────────────────────────────────────────────

  async continue(threadId?: number): Promise<void> {
    const target = this.targets.get(threadId);
    await this.runOn(target, () => target.resume());
  }

  async step(threadId: number, kind: StepKind): Promise<void> {
    const target = this.targets.get(threadId);
    await this.runOn(target, () => target.step(kind));
  }

  /** V8 cannot move the next statement (no `jump`); it can run a frame again from its start. */
  async restartFrame(threadId: number, frameId: number): Promise<void> {
    const target = this.targets.get(threadId);
    await this.guard(() => target.restartFrame(frameId), 'JUMP_REFUSED');
  }

  /** Live edit: V8 gives the edited scripts their new text (liveEdit.ts). */
  applyChanges(request: LiveEditRequest): Promise<LiveEditResult> {
    this.connected();
    return this.guard(async () => (await this.liveEditor()).apply(request), 'INVALID_STATE');
  }

  private liveEditor(): Promise<NodeLiveEdit> {
    this.liveEdit ??= import('./liveEdit.js').then(
      ({ NodeLiveEdit }) => new NodeLiveEdit({ targets: () => this.targets.list(), runner: () => this.tsRunner, runtimeVersion: () => this.runtimeVersion(), launchEnvironment: () => this.launchEnvironment }),
    );
    return this.liveEdit;
  }

  private async runtimeVersion(): Promise<string> {
    if (this.runtime) return this.runtime.version;
    const answer = await this.targets.main?.cdp.send('Runtime.evaluate', { expression: 'process.version', silent: true }).catch(() => undefined);
    return typeof answer?.result.value === 'string' ? answer.result.value : process.version;
  }

  async pause(threadId?: number): Promise<void> {
    this.connected();
    await this.guard(() => this.targets.get(threadId ?? this.targets.main?.threadId).pause(), 'INVALID_STATE');
  }

  /** Sends a resume or a step. A program that runs to its end may hang up before answering: that is its exit, not a failure. */
  private async runOn(target: NodeTarget, send: () => Promise<unknown>): Promise<void> {
    if (target.cdp.closed) this.connected();
    target.cdp.expectEvent('Debugger.paused');
    try {
      await this.guard(send, 'INVALID_STATE');
    } catch (e) {
      if (!(e instanceof DebugError && e.details?.failure === 'closed')) throw e;
    }
  }

  // ── inspection ─────────────────────────────────────────────────────────────────────────────

  async threads(): Promise<ThreadInfo[]> {
    return this.targets.threads();
  }

  /** A running isolate's stack is read in a pause it does not show: every thread has one, stopped or not. */
  threadDumps(levels: number): Promise<ThreadDump[]> {
    return Promise.all(
      this.targets.list().map(async (t) => {
        try {
          const stack = await t.snapshot(levels, SNAPSHOT_WAIT_MS);
          return stack ? withWaits({ id: t.threadId, name: t.name, ...stack }) : idleDump(t.threadId, t.name);
        } catch (e) {
          return { id: t.threadId, name: t.name, frames: [], error: (e as Error).message };
        }
      }),
    );
  }

  stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    return this.targets.get(threadId).stackTrace(startFrame, levels);
  }

  async scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.targets.ownerOfFrame(frameId).scopes(frameId);
  }

  variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    const target = this.targets.ownerOfValue(ref);
    return this.guard(() => target.variables(ref, start, count), 'VARIABLE_NOT_FOUND');
  }

  textSlice(expression: string, start: number, end: number): string {
    return `String(${expression}).slice(${start}, ${end})`;
  }

  evaluate(expression: string, frameId: number | undefined): Promise<EvaluateResult> {
    const target = frameId !== undefined ? this.targets.ownerOfFrame(frameId) : (this.targets.stopped ?? this.targets.main);
    if (!target) this.connected();
    return this.guard(() => target!.evaluate(expression, frameId), 'EVALUATION_FAILED');
  }

  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    const target = this.targets.ownerOfValue(containerRef);
    return this.guard(() => target.setVariable(containerRef, name, value), 'EVALUATION_FAILED');
  }

  async exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined> {
    return this.targets.get(threadId).stop?.exception;
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
      if (this.debuggee) await Promise.all([this.debuggee.end(), this.endChildren()]);
      else if (this.attachedPid !== undefined && this.attachedIsLocal()) await endPid(this.attachedPid);
    }
    // Hanging up removes our breakpoints and resumes the program.
    this.targets.closeAll();
    await Promise.all([this.hub?.close(), this.liveEdit?.then((edit) => edit.dispose())]);
  }

  private async endChildren(): Promise<void> {
    await Promise.all([...this.childPids].map((pid) => endPid(pid)));
  }

  private attachedIsLocal(): boolean {
    const url = this.targets.main?.cdp.url;
    const host = url ? new URL(url).hostname : '';
    return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host);
  }

  diagnostics(): EngineDiagnostics {
    const main = this.targets.main;
    return {
      adapterStderr: this.debuggee?.stderrLines() ?? [],
      pendingRequests: (main?.cdp.pendingRequests() ?? []).map(({ method, ageMs }) => ({ command: method, ageMs })),
      pid: this.pid,
      details: {
        mode: this.mode,
        runtime: this.runtime?.executable,
        version: this.runtime?.version,
        inspector: main?.cdp.url,
        connected: main ? !main.cdp.closed : false,
        threads: this.targets.threads(),
        launchPhasesMs: this.launchPhases,
        childProcesses: [...this.childPids],
      },
    };
  }

  // ── requests ───────────────────────────────────────────────────────────────────────────────

  private connected(): void {
    const main = this.targets.main;
    if (!main || main.cdp.closed) {
      throw new DebugError('INVALID_STATE', 'The node debug session is not connected (the program may have ended).', 'Check session_state; session_restart runs it again.');
    }
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

/** Resolves once the script node was given has been parsed and V8's events about it have arrived. */
function scriptLoaded(target: NodeTarget, file: string, breaksOnStart: boolean): Promise<void> {
  const urls = new Set([pathToFileURL(file).href, pathToFileURL(realpathSync(file)).href]);
  return new Promise((resolve) => {
    target.scripts.onParsed((script) => {
      if (!urls.has(script.url)) return;
      // Node pauses on its first line next (--inspect-brk): the ACKs keep flowing until it does, else
      // Nagle held that pause behind the answer below for a delayed ACK (40 ms).
      if (breaksOnStart) target.cdp.expectEvent('Debugger.paused');
      void target.cdp.send('Runtime.getIsolateId').then(() => resolve(), () => resolve());
    });
  });
}
