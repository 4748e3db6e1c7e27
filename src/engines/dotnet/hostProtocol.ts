/**
 * What the server and the .NET debugger host process say to each other: the host's API (requests
 * answered by DotnetDebugger), its events (engine events, plus the runtime's own exit notice), and
 * the few things the host asks the server for (what the server's one .NET worker computes).
 */
import type { EngineEvent } from '../../core/engine.js';
import type { EditApplied, EditPreparation } from './host/editAndContinue.js';
import type { ModuleDelta } from './worker/encProtocol.js';
import type { StartupTimes } from './startupTimeline.js';
import type { CompileRequest, CompileResult } from './worker/evalProtocol.js';
import type {
  BreakpointBinding,
  BreakpointSpec,
  EvaluateResult,
  ExceptionBreakpointConfig,
  ExceptionInfo,
  FrameInfo,
  FunctionBreakpointSpec,
  ScopeInfo,
  StepKind,
  PendingTaskReport,
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from '../../core/types.js';

export interface StartOptions {
  mode: 'launch' | 'attach';
  pid: number;
  /** How the launched program is let go (Windows: its main thread's id); by default the resume byte relayed by the server. */
  resume?: number;
  /** The program's own assembly (launch): the answer waits until its breakpoints are bound. */
  entryAssembly?: string;
  /** Launch: the server prepared the runtime-startup handshake and the program already runs. */
  startupPrepared?: boolean;
  timeoutMs: number;
  dbgshimPath?: string;
  breakpoints: BreakpointSpec[];
  functionBreakpoints: FunctionBreakpointSpec[];
  exceptions: ExceptionBreakpointConfig;
  stopOnEntry: boolean;
}

export interface StartResult {
  access: string;
  breakpoints: BreakpointBinding[];
  /** Where the start's time went in the host (session_diagnostics). */
  startup: StartupTimes;
}

export interface EvaluateOptions {
  /** False: an expression that may change the program (assigns, calls what is not known to be pure) is refused. */
  sideEffects?: boolean;
}

export interface HostApi {
  start(options: StartOptions): Promise<StartResult>;
  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]>;
  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]>;
  setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void>;
  continue(): Promise<void>;
  step(threadId: number, kind: StepKind): Promise<void>;
  pause(): Promise<void>;
  jump(threadId: number, file: string, line: number): Promise<void>;
  threads(): Promise<ThreadInfo[]>;
  stackTrace(threadId: number, start: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames: number }>;
  exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined>;
  threadDumps(levels: number): Promise<ThreadDump[]>;
  pendingTasks(levels: number): Promise<PendingTaskReport>;
  scopes(frameId: number): Promise<ScopeInfo[]>;
  variables(ref: number, start?: number | null, count?: number | null): Promise<VariableInfo[]>;
  evaluate(expression: string, frameId: number | undefined, options?: EvaluateOptions): Promise<EvaluateResult>;
  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult>;
  /** Edit and Continue: stop if running, read what Roslyn needs; apply its deltas; run again if stopped for it. */
  prepareEdit(files?: string[]): Promise<EditPreparation>;
  applyEdit(deltas: ModuleDelta[]): Promise<EditApplied>;
  endEdit(): Promise<void>;
  detach(): Promise<void>;
  close(): Promise<void>;
}

export type HostMethod = keyof HostApi;

/**
 * Beside the engine's events: the runtime reported the process gone (the server learns the exit code
 * from the debuggee's keeper); how breakpoint conditions are being decided, and the host's start-up
 * times as of the first stop (session_diagnostics).
 */
export type HostEvent = EngineEvent | { type: 'runtimeExited' } | ({ type: 'conditionStats' } & ConditionStats) | { type: 'startupTimes'; times: StartupTimes };

export interface ConditionStats {
  /** Breakpoints whose conditions the debugger thread decides (hit filters). */
  filters: number;
  /** Conditions the host evaluated in JavaScript: the hits no filter decided. */
  evaluatedInHost: number;
}

export interface HostError {
  message: string;
  /** A DebugError code, or the native code of a NativeError. */
  code: string;
  native: boolean;
  hint?: string;
  hresult?: number;
}

/** What the host asks of the server. */
export interface ServerApi {
  /** A C# expression compiled by the server's worker (Roslyn) for a stopped frame. */
  compile(request: CompileRequest): Promise<CompileResult>;
  /** Starts the worker and warms Roslyn (an expression was set that only a compile can run). */
  warmCompiler(): Promise<void>;
}

export type ServerMethod = keyof ServerApi;

/** Host → server: events, answers, and the host's own requests (`call`). */
export type HostMessage = { event: HostEvent } | { id: number; result: unknown } | { id: number; error: HostError } | HostCall;
/** Server → host: requests, and answers to the host's requests. */
export type HostRequest = { id: number; method: HostMethod; args: unknown[] };
export type HostCall = { call: number; method: ServerMethod; args: unknown[] };
export type ServerAnswer = { answer: number; result?: unknown; error?: HostError };
