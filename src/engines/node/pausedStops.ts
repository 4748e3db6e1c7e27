/** What a `Debugger.paused` means for the agent: the stop reason, and the exception if any. */
import type { Protocol } from 'devtools-protocol';
import type { ExceptionInfo, StopReason } from '../../core/types.js';
import { exceptionParts } from './remoteObjects.js';

export interface PauseContext {
  /** Session ids of the user line breakpoints V8 says it hit. */
  hitBreakpointIds: number[];
  /** Session ids of the function breakpoints it hit. */
  hitFunctionIds: number[];
  /** The first pause of a launch (node's "Break on start"), or of an attach to a waiting program. */
  atStart: boolean;
  /** What we asked for when we last resumed. */
  expected?: 'step' | 'pause' | 'restart frame';
}

export interface PausedStop {
  reason: StopReason;
  description?: string;
  exception?: ExceptionInfo;
}

/** Where a thrown error's stack says it was thrown: a script URL (or path) and 1-based line and column. */
export interface ThrowSite {
  url: string;
  line: number;
  column: number;
}

export function isExceptionPause(event: Protocol.Debugger.PausedEvent): boolean {
  return event.reason === 'exception' || event.reason === 'promiseRejection';
}

/** node's --inspect-brk pause; "ambiguous" when a breakpoint sits on that same first statement. */
export function isBreakOnStart(event: Protocol.Debugger.PausedEvent): boolean {
  return (event.reason as string) === 'Break on start' || event.reason === 'ambiguous';
}

export function stopOf(event: Protocol.Debugger.PausedEvent, context: PauseContext): PausedStop {
  if (isExceptionPause(event)) {
    const data = event.data as (Protocol.Runtime.RemoteObject & { uncaught?: boolean }) | undefined;
    const parts = data ? exceptionParts(data) : { type: 'Error', message: 'unknown exception' };
    const kind = data?.uncaught ? 'uncaught' : 'caught';
    return {
      reason: 'exception',
      description: `${kind === 'uncaught' ? 'Uncaught' : 'Caught'} ${parts.type}: ${parts.message}`,
      exception: { type: parts.type, message: parts.message, kind, stackTrace: parts.stack },
    };
  }
  if (context.hitBreakpointIds.length) return { reason: 'breakpoint' };
  if (context.hitFunctionIds.length) return { reason: 'function breakpoint' };
  if (context.atStart) return { reason: 'entry' };
  if (context.expected) return { reason: context.expected };
  // Nothing of ours: a `debugger;` statement in the program.
  return { reason: 'debugger statement' };
}

/** The first frame of a V8 stack text (`    at f (file:///a.js:3:11)` or `    at file:///a.js:3:11`). */
export function throwSiteOf(stack: string | undefined): ThrowSite | undefined {
  for (const line of stack?.split('\n') ?? []) {
    const m = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (m && !m[1].startsWith('node:')) return { url: m[1], line: Number(m[2]), column: Number(m[3]) };
    if (m) return undefined;
  }
  return undefined;
}
