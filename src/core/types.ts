import type { TraceColumn } from './traceLog.js';

/**
 * The runtime-neutral vocabulary shared by the core and every engine.
 * Lines and columns are 1-based everywhere. File paths are absolute.
 */

export type Language = 'python' | 'node' | 'dotnet' | (string & {});

export type SessionStateName = 'initializing' | 'running' | 'stopped' | 'exited' | 'failed' | 'terminated';

export type StopReason =
  | 'breakpoint'
  | 'step'
  | 'exception'
  | 'pause'
  | 'entry'
  | 'function breakpoint'
  | 'data breakpoint'
  | 'goto'
  | (string & {});

export type StepKind = 'over' | 'into' | 'out';

/** A breakpoint as the user asked for it. `id` is assigned by the session and never reused. */
export interface BreakpointSpec {
  id: number;
  file: string;
  line: number;
  column?: number;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
  /** Record these columns at each hit instead of stopping (an engine may do it itself and emit `trace`). */
  trace?: TraceColumn[];
}

export interface FunctionBreakpointSpec {
  id: number;
  function: string;
  condition?: string;
  hitCondition?: string;
}

/** What the runtime made of a breakpoint: bound where, or why not. */
export interface BreakpointBinding {
  id: number;
  verified: boolean;
  /** Where the runtime actually placed it (may differ from the requested line). */
  line?: number;
  column?: number;
  file?: string;
  /** Why it is not verified, or a note from the runtime. */
  message?: string;
  /** Not bound yet, but it may bind later (e.g. when the module holding its code loads). */
  pending?: boolean;
}

export interface ExceptionBreakpointConfig {
  /** Engine filter ids, e.g. `uncaught`, `raised` / `all`. */
  filters: string[];
  /** dotnet: only break on these exception type names. */
  typeNames?: string[];
}

export interface LaunchConfig {
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stopOnEntry: boolean;
  breakpoints: BreakpointSpec[];
  functionBreakpoints: FunctionBreakpointSpec[];
  exceptions: ExceptionBreakpointConfig;
  /** Runtime-specific options (pythonPath, runtimeExecutable, …), passed through untouched. */
  options: Record<string, unknown>;
}

export interface AttachConfig {
  pid?: number;
  host?: string;
  port?: number;
  breakpoints: BreakpointSpec[];
  functionBreakpoints: FunctionBreakpointSpec[];
  exceptions: ExceptionBreakpointConfig;
  options: Record<string, unknown>;
}

export interface LaunchResult {
  /** Bindings of the initial breakpoints, by id. */
  breakpoints: BreakpointBinding[];
  pid?: number;
  /** How the program was run when the engine chose (e.g. which TypeScript runner), for the launch answer. */
  note?: string;
}

export interface ThreadInfo {
  id: number;
  name: string;
}

/** What a blocked thread waits on, as far as the runtime (or, where it says nothing, the source) tells. */
export type WaitKind = 'lock' | 'wait' | 'join' | 'sleep' | 'io' | 'await' | 'task' | 'atomics';

export interface ThreadWait {
  kind: WaitKind;
  /** The object waited on, as the program names it (`lock_b`) or the runtime shows it. */
  object?: string;
  /** The thread that holds it, where known. */
  ownerThreadId?: number;
}

/** A lock a thread holds, as the source shows it (a `with lock:` block around the frame's line). */
export interface HeldLock {
  object: string;
  file?: string;
  line: number;
}

/** One thread of the hang report: its top frames and what it waits on. */
export interface ThreadDump {
  id: number;
  name: string;
  frames: FrameInfo[];
  totalFrames?: number;
  wait?: ThreadWait;
  holds?: HeldLock[];
  /** Why its stack could not be read. */
  error?: string;
}

/** What the innermost await of a pending async chain waits on. */
export interface AwaitWait {
  kind: 'delay' | 'io' | 'task' | 'semaphore' | 'promise' | 'yield' | 'resuming' | 'deadlock' | 'other';
  /** What it is, as the runtime or the program names it (`Task.Delay(30000 ms)`, `TaskCompletionSource<int>`, `Socket.ReceiveAsync`). */
  object?: string;
  /** `io`: what kind of I/O (`a socket read`, `a pipe read`, `an HTTP request`). */
  what?: string;
}

/** An async call chain no thread runs: methods suspended at their awaits, innermost first (.NET tasks). */
export interface PendingTask {
  frames: FrameInfo[];
  waitsOn: AwaitWait;
  /** Threads that block on a task of this chain (`.Result`, `.Wait()`). */
  blockedThreadIds?: number[];
}

/** Async work that can never finish: tasks that await one another, or a thread blocking on a task that needs it. */
export interface AsyncDeadlock {
  kind: 'cycle' | 'syncOverAsync';
  /** `cycle`: each frame awaits the next, the last awaits the first; `syncOverAsync`: the chain the thread blocks on, innermost first. */
  frames: FrameInfo[];
  /** `syncOverAsync`: the blocked thread, and the SynchronizationContext the chain must resume on. */
  threadId?: number;
  context?: string;
}

export interface PendingTaskReport {
  tasks: PendingTask[];
  deadlocks: AsyncDeadlock[];
  /** Chains left out past the report's cap on their number. */
  omitted?: number;
  /** Chains not read because the report reached its time limit. */
  unread?: number;
  /** Why the pending tasks could not be read (the runtime's heap was not walkable at that moment). */
  unavailable?: string;
}

export interface FrameInfo {
  /** Engine frame handle, valid while the thread stays stopped. */
  id: number;
  name: string;
  file?: string;
  line: number;
  column: number;
  /** `subtle`: source the user did not write (library, runtime); `label`: a runtime's own fold of frames it does not list. */
  presentationHint?: 'normal' | 'label' | 'subtle';
  /** A caller that awaits: the frame of an async stack trace, with no values kept. */
  async?: boolean;
  /** A frame of a cause's traceback that the runtime lists after the thread's own (debugpy's chained exceptions). */
  chainedException?: boolean;
}

/** How a run that judges itself ended (a test run: its runner's verdict), as the engine that runs it reads it. */
export interface RunVerdict {
  /** stopped: ended by the user (session_stop) before the runner's verdict. */
  status: 'passed' | 'failed' | 'no tests' | 'error' | 'stopped';
  /** The runner's own counts, e.g. "1 failed, 3 passed". */
  counts?: string;
  /** What failed, as the runner reported it (capped). */
  failureSummary?: string;
}

export interface ScopeInfo {
  name: string;
  /** Handle for `variables()`. */
  ref: number;
  /** Large scopes (globals, module) that should not be expanded by default. */
  expensive: boolean;
  /** Variables of enclosing functions that this frame's function uses (a JavaScript closure): the stop shows them after its own. */
  captured?: boolean;
  namedVariables?: number;
  indexedVariables?: number;
}

export interface VariableInfo {
  name: string;
  value: string;
  type?: string;
  /** Handle for children; 0 when the value has none. */
  ref: number;
  namedVariables?: number;
  indexedVariables?: number;
  /** An expression that evaluates to this value, if the runtime can give one. */
  evaluateName?: string;
}

export interface EvaluateResult {
  value: string;
  type?: string;
  ref: number;
  namedVariables?: number;
  indexedVariables?: number;
}

export interface ExceptionInfo {
  type?: string;
  message?: string;
  /** `unhandled`, `firstChance`, … as the runtime says. */
  kind?: string;
  stackTrace?: string;
  /** Where it was thrown, when the runtime says (it may differ from where the program stopped). */
  thrownAt?: { file?: string; line: number; column?: number };
  /** What led to it, nearest first: .NET InnerException, Python __cause__ / __context__, JS `cause`. */
  causes?: ExceptionCause[];
  /**
   * The frames it came through, the throw site first, when the thread's stack no longer holds them:
   * a .NET exception that crossed awaits (the awaited methods had already returned their tasks). The
   * autopsy's stack starts with them.
   */
  path?: FrameInfo[];
  /** Awaiting callers (frames marked async, by name and line) whose try around their await catches it, nearest first, up to the first that surely does. */
  catchSites?: CatchSite[];
  /** A failed assertion's expected and actual values (capped), where known. */
  expected?: string;
  actual?: string;
  /** Expressions that read expected and actual whole, when the values shown are cut or have members. */
  valuesExpression?: { expected: string; actual: string };
}

/** Where an awaiting caller catches an exception: its frame, and the catch's first statement (`filter`: a `when` filter decides). */
export interface CatchSite {
  name: string;
  line: number;
  at: { file?: string; line: number };
  filter?: boolean;
}

export interface ExceptionCause {
  type?: string;
  message?: string;
  /** `cause`: raised from it (Python `raise … from`, JS `cause`); `context`: raised while handling it; `inner`: .NET InnerException; `member`: one of a Python ExceptionGroup's exceptions. */
  relation: 'cause' | 'context' | 'inner' | 'member';
  thrownAt?: { file?: string; line: number };
}

export interface EngineCapabilities {
  conditionalBreakpoints: boolean;
  hitConditionalBreakpoints: boolean;
  logPoints: boolean;
  functionBreakpoints: boolean;
  setVariable: boolean;
  pause: boolean;
  attach: boolean;
  restart: boolean;
  stepBack?: boolean;
  /** session_apply_changes applies source edits to the running program. */
  liveEdit?: boolean;
  /** What one continue resumes: every thread of the program (debugpy, .NET) or the stopped target alone (a Node.js worker runs on by itself). */
  continueResumes: 'all threads' | 'its target';
  /** Exception filters with their meaning, e.g. [{id: 'uncaught', label: 'Uncaught exceptions', default: true}]. */
  exceptionFilters: { id: string; label: string; default: boolean }[];
  /** Free text the agent should know (limits, quirks). */
  notes?: string[];
}

export interface Availability {
  available: boolean;
  version?: string;
  /** What it found and will use, e.g. the interpreter path. */
  detail?: string;
  /** Why it is not available. */
  reason?: string;
  /** Exact command(s) that fix it. */
  install?: string;
}
