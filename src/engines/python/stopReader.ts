/**
 * A debugpy stop as the engine reports it. debugpy does not say which breakpoint it stopped at, so
 * the top frame is matched against the bindings; the stack read for that is kept for the stop's own
 * stackTrace, which the core asks for next (one round trip less). debugpy takes sys.exit(non-zero)
 * for an uncaught exception: it is how the program chose to end, so the program is let go on.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Engine, EngineEvent } from '../../core/engine.js';
import type { FrameInfo } from '../../core/types.js';
import type { BreakpointIds } from './breakpointIds.js';
import type { DebugpyRequests } from './debugpyRequests.js';
import { evaluationError } from './requestErrors.js';

/** As many frames as the core asks for when it builds a stop. */
const STOP_STACK_LEVELS = 20;

type Stack = { frames: FrameInfo[]; totalFrames?: number };

export class StopReader {
  /** The thread of the last stop: where a call that names no thread goes. */
  lastThreadId?: number;
  private kept?: Stack & { threadId: number; levels: number };

  constructor(
    private readonly breakpointIds: BreakpointIds,
    private readonly engine: Pick<Engine, 'stackTrace' | 'exceptionInfo'>,
    private readonly dap: DebugpyRequests,
  ) {}

  /** The stopped event for the core; undefined when the stop was a sys.exit, resumed. */
  async read(body: DebugProtocol.StoppedEvent['body']): Promise<EngineEvent | undefined> {
    const threadId = body.threadId ?? this.lastThreadId ?? 1;
    this.lastThreadId = threadId;
    this.kept = undefined;
    let hitBreakpointIds = body.hitBreakpointIds?.length ? this.breakpointIds.sessionIdsOf(body.hitBreakpointIds) : undefined;
    if (!hitBreakpointIds && /breakpoint/.test(body.reason)) hitBreakpointIds = await this.breakpointsAtTopFrame(threadId);
    const exception = body.reason === 'exception' ? await this.engine.exceptionInfo(threadId).catch(() => undefined) : undefined;
    if (exception?.type === 'SystemExit') {
      await this.dap.call('continue', { threadId });
      return undefined;
    }
    const failedCondition = hitBreakpointIds?.length ? await this.failedCondition(hitBreakpointIds) : undefined;
    return {
      type: 'stopped',
      reason: body.reason,
      threadId,
      allThreadsStopped: body.allThreadsStopped,
      hitBreakpointIds,
      description: failedCondition ?? body.description ?? body.text,
      exception: exception ?? (body.reason === 'exception' && body.text ? { message: body.text } : undefined),
    };
  }

  /** The stack kept at the stop, when it answers this request; it serves once. */
  takeStack(threadId: number, startFrame: number, levels: number): Stack | undefined {
    const kept = this.kept;
    this.kept = undefined;
    if (kept && kept.threadId === threadId && startFrame === 0 && levels <= kept.levels) return { frames: kept.frames.slice(0, levels), totalFrames: kept.totalFrames };
    return undefined;
  }

  /** The program runs again: the kept stack is stale. */
  forgetStack(): void {
    this.kept = undefined;
  }

  /**
   * pydevd stops where a breakpoint's condition raised (BEFORE_PROGRAM asks it to, as Visual Studio
   * does) but says nothing of it: the condition evaluated again in the stopped frame says why.
   */
  private async failedCondition(hitBreakpointIds: number[]): Promise<string | undefined> {
    const frameId = this.kept?.frames[0]?.id;
    if (frameId === undefined) return undefined;
    for (const { id, condition } of this.breakpointIds.conditionsOf(hitBreakpointIds)) {
      const failure = await this.dap.request('evaluate', { expression: condition, frameId, context: 'watch' }).then(
        () => undefined,
        (e: unknown) => evaluationError(e).message,
      );
      if (failure) return `The condition of breakpoint #${id} (${condition}) could not be evaluated: ${failure}`;
    }
    return undefined;
  }

  private async breakpointsAtTopFrame(threadId: number): Promise<number[]> {
    const levels = STOP_STACK_LEVELS;
    const stack = await this.engine.stackTrace(threadId, 0, levels).catch(() => ({ frames: [] as FrameInfo[], totalFrames: undefined }));
    this.kept = { threadId, levels, ...stack };
    const top = stack.frames[0];
    return top ? this.breakpointIds.sessionIdsAt(top.file, top.line, top.name) : [];
  }
}
