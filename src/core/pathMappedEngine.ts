/**
 * Any engine whose program sees its files at other paths than this machine does (a target's
 * engine, a port attach to a container or another host): every path crosses the path map, local
 * to far on the way in, far to local on the way out, in calls, answers and events alike. The
 * engine inside works in the program's own paths; the core and every tool above see local ones.
 */
import type { Engine, EngineDiagnostics, EngineEvent, EngineFactory, LiveEditRequest, LiveEditResult } from './engine.js';
import type { PathMap } from './pathMap.js';
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
} from './types.js';

/** The factory's engines behind the path map (the factory itself when the map changes nothing). */
export function pathMappedFactory(factory: EngineFactory, paths: PathMap): EngineFactory {
  if (paths.empty) return factory;
  return {
    language: factory.language,
    displayName: factory.displayName,
    extensions: factory.extensions,
    capabilities: factory.capabilities,
    options: factory.options,
    detect: (options) => factory.detect(options),
    claims: factory.claims,
    prepare: factory.prepare && ((options) => factory.prepare!(options)),
    create: (context) => new PathMappedEngine(factory.create({ log: context.log, emit: (event) => context.emit(eventToLocal(event, paths)) }), paths),
  };
}

function eventToLocal(event: EngineEvent, paths: PathMap): EngineEvent {
  switch (event.type) {
    case 'stopped':
      return event.exception ? { ...event, exception: paths.exception(event.exception) } : event;
    case 'breakpoint':
      return { ...event, binding: paths.binding(event.binding) };
    case 'module':
      return { ...event, path: paths.toLocal(event.path) };
    case 'verdict':
      return { ...event, verdict: { ...event.verdict, failureSummary: paths.textToLocal(event.verdict.failureSummary) } };
    default:
      return event;
  }
}

class PathMappedEngine implements Engine {
  constructor(
    private readonly inner: Engine,
    private readonly paths: PathMap,
  ) {}

  get capabilities(): EngineCapabilities {
    return this.inner.capabilities;
  }

  get pid(): number | undefined {
    return this.inner.pid;
  }

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    const far: LaunchConfig = { ...config, program: this.paths.toRemote(config.program), cwd: this.paths.toRemote(config.cwd), breakpoints: this.specsOut(config.breakpoints) };
    return this.started(await this.inner.launch(far, signal));
  }

  async attach(config: AttachConfig, signal?: AbortSignal): Promise<LaunchResult> {
    return this.started(await this.inner.attach({ ...config, breakpoints: this.specsOut(config.breakpoints) }, signal));
  }

  async setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.bindings(await this.inner.setBreakpoints(this.paths.toRemote(file), this.specsOut(specs)));
  }

  async setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.bindings(await this.inner.setFunctionBreakpoints(specs));
  }

  setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    return this.inner.setExceptionBreakpoints(config);
  }

  continue(threadId?: number): Promise<void> {
    return this.inner.continue(threadId);
  }

  step(threadId: number, kind: StepKind): Promise<void> {
    return this.inner.step(threadId, kind);
  }

  pause(threadId?: number): Promise<void> {
    return this.inner.pause(threadId);
  }

  threads(): Promise<ThreadInfo[]> {
    return this.inner.threads();
  }

  async stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    const trace = await this.inner.stackTrace(threadId, startFrame, levels);
    return { ...trace, frames: trace.frames.map((f) => this.paths.frame(f)) };
  }

  scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.inner.scopes(frameId);
  }

  variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    return this.inner.variables(ref, start, count);
  }

  evaluate(expression: string, frameId: number | undefined, context: 'repl' | 'watch' | 'hover', options?: { sideEffects?: boolean }): Promise<EvaluateResult> {
    return this.inner.evaluate(expression, frameId, context, options);
  }

  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    return this.inner.setVariable(containerRef, name, value);
  }

  textSlice(expression: string, start: number, end: number): string {
    return this.inner.textSlice(expression, start, end);
  }

  get jump(): Engine['jump'] {
    const inner = this.inner;
    return inner.jump && ((threadId, file, line) => inner.jump!(threadId, this.paths.toRemote(file), line));
  }

  get restartFrame(): Engine['restartFrame'] {
    const inner = this.inner;
    return inner.restartFrame && ((threadId, frameId) => inner.restartFrame!(threadId, frameId));
  }

  get applyChanges(): Engine['applyChanges'] {
    const inner = this.inner;
    return inner.applyChanges && ((request) => this.applyFarChanges(inner.applyChanges!.bind(inner), request));
  }

  async exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined> {
    return this.paths.exception(await this.inner.exceptionInfo(threadId));
  }

  get threadDumps(): Engine['threadDumps'] {
    const inner = this.inner;
    return inner.threadDumps && (async (levels) => (await inner.threadDumps!(levels)).map((d) => this.paths.dump(d)));
  }

  get pendingTasks(): Engine['pendingTasks'] {
    const inner = this.inner;
    return inner.pendingTasks && (async (levels) => this.paths.pendingTasks(await inner.pendingTasks!(levels)));
  }

  get sourceLines(): Engine['sourceLines'] {
    const inner = this.inner;
    return inner.sourceLines && ((file) => inner.sourceLines!(this.paths.toRemote(file)));
  }

  terminate(): Promise<void> {
    return this.inner.terminate();
  }

  detach(): Promise<void> {
    return this.inner.detach();
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  diagnostics(): EngineDiagnostics {
    return this.inner.diagnostics();
  }

  private async applyFarChanges(apply: (request: LiveEditRequest) => Promise<LiveEditResult>, request: LiveEditRequest): Promise<LiveEditResult> {
    const result = await apply({ files: request.files?.map((f) => this.paths.toRemote(f)) });
    return {
      ...result,
      changes: result.changes.map((c) => ({ ...c, file: this.paths.toLocal(c.file) })),
      staleFrames: result.staleFrames.map((f) => ({ ...f, file: this.paths.toLocal(f.file) })),
    };
  }

  private started(result: LaunchResult): LaunchResult {
    return { ...result, breakpoints: this.bindings(result.breakpoints) };
  }

  private bindings(bindings: BreakpointBinding[]): BreakpointBinding[] {
    return bindings.map((b) => this.paths.binding(b));
  }

  private specsOut(specs: BreakpointSpec[]): BreakpointSpec[] {
    return specs.map((s) => ({ ...s, file: this.paths.toRemote(s.file) }));
  }
}
