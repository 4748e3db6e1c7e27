/** What the core reports about sessions: stops, waits, snapshots. The MCP layer renders these. */
import type { StackEntry } from './frameFolding.js';
import type { HangReport } from './hangReport.js';
import type { SourceLine } from './sourceReader.js';
import type { ExceptionInfo, RunVerdict, SessionStateName, StopReason } from './types.js';
import type { WatchValue } from './watchList.js';

export interface StopFrame {
  name: string;
  file?: string;
  line: number;
  column: number;
}

/** An exception stop's details: what the runtime said, plus what an agent would ask next. */
export interface ExceptionAutopsy extends ExceptionInfo {
  /** The stack, the user's frames kept and runs of external ones folded. */
  frames?: StackEntry[];
  /** Frames of the stack not in `frames` (inspect_stack pages them). */
  moreFrames?: number;
  /** Causes past the ones in `causes`. */
  moreCauses?: number;
  /** Source lines at `thrownAt`, when that is not where the program stopped. */
  throwSource?: SourceLine[];
}

export interface ValueSummary {
  name: string;
  value: string;
  type?: string;
  /** The value at the stop before (in the same function), set only when it changed. */
  previous?: string;
}

export interface Stop {
  reason: StopReason;
  threadId: number;
  threadName?: string;
  /** The current frame (inspect_stack's index): what `frame`, `source`, `locals` and `watches` are of, and the frame calls mean by default. */
  frameIndex: number;
  frame: StopFrame;
  source?: SourceLine[];
  hitBreakpointIds: number[];
  exception?: ExceptionAutopsy;
  locals?: ValueSummary[];
  /** Locals that were left out of the summary. */
  localsOmitted?: number;
  /** The session's watch expressions evaluated in the stop's frame. */
  watches?: WatchValue[];
  description?: string;
  at: number;
}

/** `blocked`: a pause found no thread it could stop (all wait in native code); `hang` says where each waits. */
export type WaitStatus = 'stopped' | 'exited' | 'timeout' | 'blocked';

export interface WaitResult {
  status: WaitStatus;
  stop?: Stop;
  exitCode?: number;
  /** The signal that killed the program, when one did. */
  exitSignal?: string;
  state: SessionStateName;
  /** Set when the wait ended because the session failed or was cancelled. */
  error?: string;
  /** Last lines of program output, on exit. */
  outputTail?: string;
  /** How the run judged itself (a test run), on exit. */
  verdict?: RunVerdict;
  waitedMs: number;
  /** Every thread's stack and wait, when the answer carries them (a pause). */
  hang?: HangReport;
}

export interface SessionEvent {
  type: string;
  /** One line for the agent. */
  summary: string;
  data?: Record<string, unknown>;
}

export interface OutputChunk {
  category: 'stdout' | 'stderr' | 'console';
  text: string;
}

export interface SessionSnapshot {
  sessionId: string;
  language: string;
  program: string;
  state: SessionStateName;
  pid?: number;
  stop?: Stop;
  exitCode?: number;
  exitSignal?: string;
  error?: string;
  startedAt: number;
  run: number;
  attached: boolean;
  /** How the engine ran the program, when it chose (e.g. a TypeScript runner). */
  launchNote?: string;
  /** How the run judged itself (a test run), once known. */
  verdict?: RunVerdict;
}

/** Reports progress while a call waits, so clients can show it and reset their own timeouts. */
export type ProgressReporter = (message: string) => void;

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: ProgressReporter;
}

/** How a session ended. `wasRunning`: the program was still running, so ending the session terminated it (or detached from it). */
export interface SessionEnd {
  exitCode?: number;
  exitSignal?: string;
  outputTail: string;
  wasRunning: boolean;
  /** How the run judged itself (a test run), when known. */
  verdict?: RunVerdict;
}
