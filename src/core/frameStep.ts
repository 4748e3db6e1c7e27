/**
 * A step from a stop's current frame when frames that are not the user's code lie above it
 * (core/currentFrame.ts). As with Just My Code the step is the current frame's: the frames above
 * it are stepped out of first, with no stop the agent sees, then the step asked for is made there.
 * When the current frame is gone meanwhile (an exception in flight unwinds it) or a step lands in
 * code that is not the user's, the program runs on to its next stop.
 */
import type { Engine, EngineEvent } from './engine.js';
import { isExternal } from './frameFolding.js';
import type { FrameInfo, StepKind } from './types.js';

type Stopped = Extract<EngineEvent, { type: 'stopped' }>;

interface Pending {
  threadId: number;
  kind: StepKind;
  /** The frame the step is from. */
  from: Pick<FrameInfo, 'name' | 'file'>;
  /** Steps out still allowed: never more than the frames above it, and one. */
  outsLeft: number;
  /** The step asked for was made from the frame: where it lands decides whether the agent sees it. */
  made?: boolean;
}

export class FrameStep {
  private pending?: Pending;

  constructor(
    private readonly engine: () => Engine,
    private readonly log: (message: string) => void,
  ) {}

  /** Steps `kind` from frame `index` (> 0) of the thread. */
  async start(threadId: number, index: number, from: FrameInfo, kind: StepKind): Promise<void> {
    this.pending = { threadId, kind, from, outsLeft: index + 1 };
    try {
      await this.engine().step(threadId, 'out');
    } catch (e) {
      this.pending = undefined;
      throw e;
    }
  }

  /**
   * A stop of the engine: true when it is this step's own and the step goes on. `show` makes it the
   * agent's stop after all (the step landed in the user's code, or could not go on).
   */
  absorb(event: Stopped, show: () => void): boolean {
    const pending = this.pending;
    if (!pending) return false;
    this.pending = undefined;
    // Where a step ends across an async boundary (an exception in flight unwinds to a promise's handler), V8 names no step.
    const landed = event.reason !== 'exception' && event.reason !== 'breakpoint' && !event.hitBreakpointIds?.length;
    if (event.threadId !== pending.threadId || (event.reason !== 'step' && !landed)) return false;
    this.next(pending, show).catch((e: Error) => {
      this.log(`the step from ${pending.from.name} stopped early (${e.message})`);
      this.pending = undefined;
      show();
    });
    return true;
  }

  /** Something else moves the program now (continue, pause, end): the step is over. */
  cancel(): void {
    this.pending = undefined;
  }

  private async next(pending: Pending, show: () => void): Promise<void> {
    const engine = this.engine();
    const top = (await engine.stackTrace(pending.threadId, 0, 1)).frames[0];
    if (pending.made) return top && !isExternal(top) ? show() : engine.continue(pending.threadId);
    if (top && top.name === pending.from.name && top.file === pending.from.file) {
      this.pending = { ...pending, made: true };
      return engine.step(pending.threadId, pending.kind);
    }
    const outsLeft = pending.outsLeft - 1;
    if (!top || isExternal(top) || outsLeft <= 0) return engine.continue(pending.threadId);
    this.pending = { ...pending, outsLeft };
    await engine.step(pending.threadId, 'out');
  }
}
