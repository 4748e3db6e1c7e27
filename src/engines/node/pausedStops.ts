/** What a `Debugger.paused` means for the agent: the stop reason, and the exception if any. */
import type { Protocol } from 'devtools-protocol';
import type { ExceptionInfo, StopReason } from '../../core/types.js';
import { exceptionParts } from './remoteObjects.js';

export interface PauseContext {
  /** Session ids of the user breakpoints V8 says it hit. */
  hitBreakpointIds: number[];
  /** The first pause of a launch (node's "Break on start"), or of an attach to a waiting program. */
  atStart: boolean;
  /** What we asked for when we last resumed. */
  expected?: 'step' | 'pause';
}

export interface PausedStop {
  reason: StopReason;
  description?: string;
  exception?: ExceptionInfo;
}

export function isExceptionPause(event: Protocol.Debugger.PausedEvent): boolean {
  return event.reason === 'exception' || event.reason === 'promiseRejection';
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
  if (context.atStart) return { reason: 'entry' };
  if (context.expected) return { reason: context.expected };
  // Nothing of ours: a `debugger;` statement in the program.
  return { reason: 'debugger statement' };
}
