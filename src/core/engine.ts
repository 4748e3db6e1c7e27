/**
 * The one seam between the session core and a runtime. An engine knows one runtime, speaks its
 * protocol, and reports what happens as events; it never formats anything for the agent.
 */
import type {
  AttachConfig,
  Availability,
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
  RunVerdict,
  ScopeInfo,
  StepKind,
  StopReason,
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from './types.js';
import type { TraceValue } from './traceLog.js';

export type EngineEvent =
  | {
      type: 'stopped';
      reason: StopReason;
      threadId: number;
      /** Which thread or process stopped, where the program has more than one. */
      threadName?: string;
      allThreadsStopped?: boolean;
      /** Session breakpoint ids (engines map their runtime ids back). */
      hitBreakpointIds?: number[];
      description?: string;
      exception?: ExceptionInfo;
      /** The stop's current frame when it is not the innermost with source (core/currentFrame.ts). */
      frameIndex?: number;
    }
  | { type: 'continued'; threadId?: number; allThreadsContinued?: boolean }
  | { type: 'output'; category: 'stdout' | 'stderr' | 'console'; text: string }
  /** A trace breakpoint was hit and its expressions evaluated; the program ran on (engines with `traces`). */
  | { type: 'trace'; breakpointId: number; threadId: number; values: TraceValue[] }
  | { type: 'breakpoint'; binding: BreakpointBinding }
  | { type: 'module'; reason: 'new' | 'changed' | 'removed'; name: string; path?: string }
  | { type: 'thread'; reason: 'started' | 'exited'; threadId: number; name?: string }
  | { type: 'process'; pid?: number; name?: string }
  | { type: 'exited'; exitCode?: number; signal?: string }
  /** How the run judges itself (a test run's verdict), once known: before `exited`, or when the run is ended early. */
  | { type: 'verdict'; verdict: RunVerdict }
  /** The debug session is over (after `exited`, or alone when the runtime went away). */
  | { type: 'terminated' }
  /** The engine broke (adapter crashed, transport lost): the session fails with this message. */
  | { type: 'error'; message: string };

export type EngineEventType = EngineEvent['type'];

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

/** Live edit: which source files to apply. */
export interface LiveEditRequest {
  /** Absolute paths; undefined: every changed source the program loaded. */
  files?: string[];
}

/** What became of one file's edit. */
export interface LiveEditChange {
  /** Absolute path. */
  file: string;
  status: 'applied' | 'refused' | 'unchanged';
  /** What changed, in the runtime's terms: "Cart.total (function body)", "new function discount". */
  items: string[];
  /** A refusal in the runtime's terms (e.g. Roslyn's "ENC0023: ..."). */
  reason?: string;
  /** e.g. "changing a class into a struct needs a restart: session_restart". */
  nextStep?: string;
}

export interface LiveEditResult {
  changes: LiveEditChange[];
  /** Frames still running old code. */
  staleFrames: Array<{ threadId: number; name: string; file?: string; line?: number }>;
  /** e.g. "restarted frame #0 handle (shop.js:12)". */
  notes: string[];
}

/** What the core hands an engine when it creates one. */
export interface EngineContext {
  emit(event: EngineEvent): void;
  log(level: LogLevel, message: string): void;
}

export interface EngineDiagnostics {
  /** Last lines the adapter / runtime helper wrote to stderr. */
  adapterStderr: string[];
  pendingRequests: { command: string; ageMs: number }[];
  pid?: number;
  /** Anything else worth knowing (paths, versions, transport). */
  details?: Record<string, unknown>;
}

export interface Engine {
  readonly capabilities: EngineCapabilities;
  /** Process id of the debuggee once known. */
  readonly pid?: number;

  /**
   * Starts the program with the initial breakpoints and exception filters armed before any user
   * code runs. Resolves once the debuggee runs (or is stopped on entry).
   */
  launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult>;
  attach(config: AttachConfig, signal?: AbortSignal): Promise<LaunchResult>;

  /** Replaces every line breakpoint of `file` (DAP semantics). One binding per spec, same order. */
  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]>;
  /** Replaces every function breakpoint. */
  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]>;
  setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void>;

  continue(threadId?: number): Promise<void>;
  step(threadId: number, kind: StepKind): Promise<void>;
  pause(threadId?: number): Promise<void>;

  threads(): Promise<ThreadInfo[]>;
  stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }>;
  scopes(frameId: number): Promise<ScopeInfo[]>;
  variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]>;
  /** `sideEffects`: false refuses what may change the program (default: allowed for 'repl' only; engines that cannot tell ignore it). */
  evaluate(expression: string, frameId: number | undefined, context: 'repl' | 'watch' | 'hover', options?: { sideEffects?: boolean }): Promise<EvaluateResult>;
  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult>;
  /** An expression of the runtime's language for characters [start, end) of the string `expression` gives. */
  textSlice(expression: string, start: number, end: number): string;
  /** Moves the next statement of the thread's top frame to `line` of `file`; the new position comes as a `goto` stop. Absent where the runtime cannot. */
  jump?(threadId: number, file: string, line: number): Promise<void>;
  /** Runs a frame again from its start; the new position comes as a stop. Absent where the runtime cannot. */
  restartFrame?(threadId: number, frameId: number): Promise<void>;
  /**
   * Applies the source edits made on disk to the running program (stopped or running). Absent
   * where the runtime cannot: the session then answers UNSUPPORTED with the engine's name.
   */
  applyChanges?(request: LiveEditRequest): Promise<LiveEditResult>;
  /** Details of the exception the thread stopped on, if the runtime has more than the stop event said. */
  exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined>;
  /**
   * The hang report's raw material: every thread, its top `levels` frames and what it waits on
   * where the runtime tells. Engines that can read a running thread's stack do so (the program
   * need not be stopped). Without it the core reads threads() and stackTrace() of each.
   */
  threadDumps?(levels: number): Promise<ThreadDump[]>;
  /**
   * Async work that no thread runs (a .NET program's suspended async methods), read while stopped,
   * after threadDumps: each awaiting chain with what its innermost await waits on, and deadlocks.
   */
  pendingTasks?(levels: number): Promise<PendingTaskReport>;
  /**
   * A source file's lines where the program runs, for a file that is not on this machine (a
   * target's file under no path mapping); undefined when it cannot be read there either.
   */
  sourceLines?(file: string): Promise<string[] | undefined>;

  /** Ends the debuggee. Resolves when it is gone. */
  terminate(): Promise<void>;
  /** Leaves the debuggee running without the debugger. */
  detach(): Promise<void>;
  /** Releases everything (adapter, sockets, child processes), whatever state it is in. Idempotent. */
  dispose(): Promise<void>;

  diagnostics(): EngineDiagnostics;
}

/** What an engine module exports as `engine` (built-in or `debugbridge-engine-<language>`). */
export interface EngineFactory {
  readonly language: string;
  readonly displayName: string;
  /** File extensions (with dot) this engine debugs, used to pick an engine from a program path. */
  readonly extensions: string[];
  readonly capabilities: EngineCapabilities;
  /** The launch and attach `options` this engine reads; another key is refused. Undefined: any. */
  readonly options?: readonly string[];
  /** Whether the runtime and its adapter work on this machine, and how to fix it if not. */
  detect(options?: Record<string, unknown>): Promise<Availability>;
  /** Whether this engine claims a program path that the extension does not decide (e.g. a project folder). */
  claims?(program: string): boolean;
  /**
   * Readies what makes the next launch of this runtime quick (a spare adapter, a ready debuggee, a
   * debugger host) at low priority, so it never slows a call. Called once the runtime is in play
   * (its project files in the working folder, or a session of it ran); never throws.
   */
  prepare?(options?: Record<string, unknown>): Promise<void>;
  /** A launch of this runtime came in: what `prepare` started goes on at our priority from now on. */
  hurry?(): void;
  create(context: EngineContext): Engine;
}
