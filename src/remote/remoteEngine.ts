/**
 * An Engine whose runtime is on a target: every call goes over the target's connection to the same
 * engine run by `debugbridge agent` there. It speaks the far side's paths; the factory puts it behind
 * the target's path map (core/pathMappedEngine.ts), so the core and every tool above it see an
 * ordinary engine in local paths.
 */
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent, EngineFactory, LiveEditRequest, LiveEditResult } from '../core/engine.js';
import { DebugError } from '../core/errors.js';
import { pathMappedFactory } from '../core/pathMappedEngine.js';
import type { PathMap } from '../core/pathMap.js';
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
  PendingTaskReport,
  ScopeInfo,
  StepKind,
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from '../core/types.js';
import type { DebugTestInput } from '../testing/testRun.js';
import { createEngine, disposeEngine, engineCall, engineDiagnostics, SLICE_END, SLICE_EXPRESSION, SLICE_START, sourceLines, type CreatedEngine } from './remoteProtocol.js';
import type { TargetConnection } from './targetConnection.js';

/** How long the far side may take to release an engine before the server lets it go. */
const DISPOSE_TIMEOUT_MS = 10_000;
/** How long the far side may take to read a source file. */
const SOURCE_TIMEOUT_MS = 10_000;

let nextEngineId = 1;

export interface RemoteTarget {
  name: string;
  paths: PathMap;
  /** The target's connection, opened on first use and shared by its engines. */
  connect(): Promise<TargetConnection>;
}

/**
 * The language's engine on a target, as the core asks for an engine, in local paths; with `test`
 * (far-side paths), a test run's engine planned there (debug_test).
 */
export function remoteEngineFactory(local: EngineFactory, target: RemoteTarget, test?: DebugTestInput): EngineFactory {
  return pathMappedFactory(farEngineFactory(local, target, test), target.paths);
}

function farEngineFactory(local: EngineFactory, target: RemoteTarget, test?: DebugTestInput): EngineFactory {
  return {
    language: local.language,
    displayName: `${local.displayName} on ${target.name}`,
    extensions: local.extensions,
    capabilities: local.capabilities,
    options: local.options,
    detect: async () => ({ available: true, detail: `through target ${target.name}` }),
    create: (context) => new RemoteEngine(local.language, local.capabilities, target, context, test),
  };
}

export class RemoteEngine implements Engine {
  capabilities: EngineCapabilities;
  pid?: number;
  jump?: (threadId: number, file: string, line: number) => Promise<void>;
  restartFrame?: (threadId: number, frameId: number) => Promise<void>;
  applyChanges?: (request: LiveEditRequest) => Promise<LiveEditResult>;
  threadDumps?: (levels: number) => Promise<ThreadDump[]>;
  pendingTasks?: (levels: number) => Promise<PendingTaskReport>;

  private readonly id = nextEngineId++;
  private connection?: TargetConnection;
  private sliceTemplate?: string;
  private farDiagnostics?: EngineDiagnostics;
  private disposed = false;

  constructor(
    private readonly language: string,
    capabilities: EngineCapabilities,
    private readonly target: RemoteTarget,
    private readonly context: EngineContext,
    /** Far-side paths: the test run the far engine runs. */
    private readonly test?: DebugTestInput,
  ) {
    this.capabilities = capabilities;
  }

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    await this.open();
    return this.started(await this.call<LaunchResult>('launch', [config], signal));
  }

  async attach(config: AttachConfig, signal?: AbortSignal): Promise<LaunchResult> {
    await this.open();
    return this.started(await this.call<LaunchResult>('attach', [config], signal));
  }

  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.call('setBreakpoints', [file, specs]);
  }

  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.call('setFunctionBreakpoints', [specs]);
  }

  setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    return this.call('setExceptionBreakpoints', [config]);
  }

  continue(threadId?: number): Promise<void> {
    return this.call('continue', [threadId]);
  }

  step(threadId: number, kind: StepKind): Promise<void> {
    return this.call('step', [threadId, kind]);
  }

  pause(threadId?: number): Promise<void> {
    return this.call('pause', [threadId]);
  }

  threads(): Promise<ThreadInfo[]> {
    return this.call('threads', []);
  }

  stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    return this.call('stackTrace', [threadId, startFrame, levels]);
  }

  scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.call('scopes', [frameId]);
  }

  variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    return this.call('variables', [ref, start, count]);
  }

  evaluate(expression: string, frameId: number | undefined, context: 'repl' | 'watch' | 'hover', options?: { sideEffects?: boolean }): Promise<EvaluateResult> {
    return this.call('evaluate', [expression, frameId, context, options]);
  }

  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    return this.call('setVariable', [containerRef, name, value]);
  }

  textSlice(expression: string, start: number, end: number): string {
    if (!this.sliceTemplate) throw new DebugError('INVALID_STATE', 'The engine on the target has not started.', 'Launch or attach first.');
    return this.sliceTemplate
      .replace(SLICE_EXPRESSION, expression)
      .replace(String(SLICE_START), String(start))
      .replace(String(SLICE_END - SLICE_START), String(end - start))
      .replace(String(SLICE_END), String(end));
  }

  exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined> {
    return this.call('exceptionInfo', [threadId]);
  }

  async sourceLines(file: string): Promise<string[] | undefined> {
    if (!this.connection || this.connection.closed) return undefined;
    return (await this.connection.request(sourceLines, { path: file }, SOURCE_TIMEOUT_MS)) ?? undefined;
  }

  terminate(): Promise<void> {
    return this.call('terminate', []);
  }

  detach(): Promise<void> {
    return this.call('detach', []);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const connection = this.connection;
    if (!connection) return;
    try {
      if (!connection.closed) await connection.request(disposeEngine, { engine: this.id }, DISPOSE_TIMEOUT_MS);
    } catch (e) {
      this.context.log('warning', `disposing the engine on ${this.target.name} failed: ${(e as Error).message}`);
    } finally {
      connection.detachEngine(this.id);
    }
  }

  diagnostics(): EngineDiagnostics {
    const far = this.farDiagnostics;
    return {
      adapterStderr: [...(far?.adapterStderr ?? []), ...(this.connection?.stderrTail() ?? [])],
      pendingRequests: far?.pendingRequests ?? [],
      pid: this.pid,
      details: {
        ...far?.details,
        target: this.target.name,
        command: this.connection?.spec.command.join(' '),
        agent: this.connection?.agent,
      },
    };
  }

  /** Creates the engine on the far side; the optional methods exist here only where they exist there. */
  private async open(): Promise<void> {
    if (this.connection) throw new DebugError('INVALID_STATE', 'This engine has started already.', 'Start a new session.');
    const connection = await this.target.connect();
    connection.attachEngine(this.id, {
      event: (event) => this.onEvent(event),
      log: (level, message) => this.context.log(level, `[${this.target.name}] ${message}`),
      lost: (message) => this.context.emit({ type: 'error', message }),
    });
    this.connection = connection;
    const created: CreatedEngine = await connection.request(createEngine, { engine: this.id, language: this.language, test: this.test });
    this.capabilities = created.capabilities;
    this.sliceTemplate = created.sliceTemplate;
    const optional = new Set(created.optional);
    if (optional.has('jump')) this.jump = (threadId, file, line) => this.call('jump', [threadId, file, line]);
    if (optional.has('restartFrame')) this.restartFrame = (threadId, frameId) => this.call('restartFrame', [threadId, frameId]);
    if (optional.has('threadDumps')) this.threadDumps = (levels) => this.call('threadDumps', [levels]);
    if (optional.has('pendingTasks')) this.pendingTasks = (levels) => this.call('pendingTasks', [levels]);
    if (optional.has('applyChanges')) this.applyChanges = (request) => this.call('applyChanges', [request]);
  }

  private started(result: LaunchResult): LaunchResult {
    void this.refreshDiagnostics();
    return result;
  }

  private async call<T>(method: string, args: unknown[], signal?: AbortSignal): Promise<T> {
    if (!this.connection) throw new DebugError('INVALID_STATE', `The engine on target "${this.target.name}" has not started.`, 'Launch or attach first.');
    const answer = await this.connection.request(engineCall, { engine: this.id, method, args }, undefined, signal);
    if (answer.pid !== undefined) this.pid = answer.pid;
    return answer.result as T;
  }

  private onEvent(event: EngineEvent): void {
    if (event.type === 'stopped') void this.refreshDiagnostics();
    if (event.type === 'process' && event.pid !== undefined) this.pid ??= event.pid;
    this.context.emit(event);
  }

  /** The far engine's diagnostics, kept for `diagnostics()`, which must answer at once. */
  private async refreshDiagnostics(): Promise<void> {
    try {
      if (this.connection && !this.connection.closed) this.farDiagnostics = await this.connection.request(engineDiagnostics, { engine: this.id }, DISPOSE_TIMEOUT_MS);
    } catch {
      // Diagnostics are a courtesy; the next stop tries again.
    }
  }
}
