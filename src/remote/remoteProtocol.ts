/**
 * The messages between the server and `debugbridge agent`: JSON-RPC (vscode-jsonrpc's framing) over
 * the exec command's stdin/stdout. One stream carries every engine of the target, each named by a
 * number the server picks; an engine call is the Engine method's name and its arguments, so the
 * far side runs the same engines the server runs here and nothing is described twice.
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { EngineDiagnostics, EngineEvent, LogLevel } from '../core/engine.js';
import type { SessionConfig } from '../core/sessionConfig.js';
import type { Availability, EngineCapabilities } from '../core/types.js';
import type { DebugTestInput, ListTestsInput } from '../testing/testRun.js';
import type { TestListing } from '../testing/types.js';

export interface Hello {
  version: string;
}
export interface HelloAnswer {
  version: string;
  pid: number;
  platform: string;
  node: string;
}
export const hello = new RequestType<Hello, HelloAnswer, void>('debugbridge/hello');

export interface CreateEngine {
  engine: number;
  language: string;
  /** A test run's engine (debug_test) instead of the language's own: the far side plans the run. */
  test?: DebugTestInput;
}
export interface CreatedEngine {
  capabilities: EngineCapabilities;
  /** The optional Engine methods this engine has (jump, restartFrame, applyChanges, threadDumps, pendingTasks). */
  optional: string[];
  /** `textSlice` of the far engine, with SLICE_* in place of its arguments. */
  sliceTemplate: string;
}
export const createEngine = new RequestType<CreateEngine, CreatedEngine, void>('engine/create');

/** A test run planned where the tests are: which framework, its command line, and the session's configuration (far-side paths). */
export interface PreparedTestAnswer {
  framework: string;
  commandLine: string;
  config: SessionConfig;
}
export const prepareTestRun = new RequestType<DebugTestInput, PreparedTestAnswer, void>('test/prepare');
/** The tests the framework finds there (test_list; far-side paths). */
export const listTestsThere = new RequestType<ListTestsInput, TestListing, void>('test/list');

export interface EngineCall {
  engine: number;
  method: string;
  args: unknown[];
}
/** The answer carries the engine's pid after the call, which launch and attach learn. */
export interface EngineCallAnswer {
  result: unknown;
  pid?: number;
}
export const engineCall = new RequestType<EngineCall, EngineCallAnswer, void>('engine/call');

export const engineDiagnostics = new RequestType<{ engine: number }, EngineDiagnostics, void>('engine/diagnostics');
export const disposeEngine = new RequestType<{ engine: number }, void, void>('engine/dispose');
/** A source file's lines on the far side (capped and read as the server reads its own); null when it cannot be read. */
export const sourceLines = new RequestType<{ path: string }, string[] | null, void>('source/lines');
export const detectLanguage = new RequestType<{ language: string }, Availability, void>('engine/detect');

export const engineEvent = new NotificationType<{ engine: number; event: EngineEvent }>('engine/event');
export const engineLog = new NotificationType<{ engine: number; level: LogLevel; message: string }>('engine/log');

/** Engine methods a call may name: the Engine interface less what never crosses (textSlice, diagnostics). */
export const CALLABLE = [
  'launch',
  'attach',
  'setBreakpoints',
  'setFunctionBreakpoints',
  'setExceptionBreakpoints',
  'continue',
  'step',
  'pause',
  'threads',
  'stackTrace',
  'scopes',
  'variables',
  'evaluate',
  'setVariable',
  'exceptionInfo',
  'terminate',
  'detach',
  'jump',
  'restartFrame',
  'applyChanges',
  'threadDumps',
  'pendingTasks',
] as const;

export const OPTIONAL_METHODS = ['jump', 'restartFrame', 'applyChanges', 'threadDumps', 'pendingTasks'] as const;

export const SLICE_EXPRESSION = '\u0001EXPR\u0001';
export const SLICE_START = 1_000_003;
export const SLICE_END = 3_000_009;

/** JSON-RPC error data that carries a DebugError across. */
export interface ErrorData {
  debugCode: string;
  hint?: string;
  details?: Record<string, unknown>;
}
