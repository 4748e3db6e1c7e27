/**
 * What a stop shows beyond its place: its current frame's locals marked where they changed since that
 * function last stopped, and the session's watches evaluated in that frame, each with its
 * value at the stop before when it changed. A stop read again (a value was set, a watch added)
 * keeps comparing with the same stop before.
 */
import type { Engine } from './engine.js';
import { activationKey, LocalChanges, nearestCaller } from './localChanges.js';
import type { Stop } from './sessionTypes.js';
import { buildStop, lastLocals, summarizeLocals, type BuiltStop } from './stopBuilder.js';
import type { FrameInfo } from './types.js';
import type { WatchList, WatchValue } from './watchList.js';

export class StopAnnotator {
  private readonly localChanges = new LocalChanges();
  /** The frame the current stop's watches are evaluated in. */
  private watchFrameId?: number;

  constructor(
    private readonly watches: WatchList,
    private readonly engine: () => Engine,
  ) {}

  /** `newStop`: the program stopped anew, so this stop's values become the ones to compare with. */
  async annotate(stop: Stop, frames: FrameInfo[], newStop: boolean): Promise<Stop> {
    const index = stop.frameIndex;
    const top = frames[index];
    this.watchFrameId = top?.id;
    const [caller, watches] = await Promise.all([
      stop.locals && newStop ? this.callerValues(frames, index) : '',
      this.watches.size ? this.watches.evaluate(this.engine(), top?.id, newStop) : undefined,
    ]);
    if (stop.locals) stop.locals = this.localChanges.mark(activationKey(stop.threadId, frames, index), caller, stop.locals, newStop);
    if (watches) stop.watches = watches;
    return stop;
  }

  /**
   * The nearest caller's first and last values, which stay as they are while the stopped call lives ('' where there is no
   * caller to read): a loop calling again has its variable, declared last, past the first ones of a long method.
   */
  private async callerValues(frames: FrameInfo[], top: number): Promise<string> {
    const caller = nearestCaller(frames, top);
    if (!caller) return '';
    const locals = await summarizeLocals(this.engine(), caller.id);
    const last = locals?.omitted ? await lastLocals(this.engine(), caller.id) : [];
    return locals ? JSON.stringify([...locals.shown, ...last].map((l) => [l.name, l.value])) : '';
  }

  /** The same stop built and annotated again: after a value changed, its locals summary is stale. */
  async reread(stop: Stop): Promise<BuiltStop> {
    const built = await buildStop(this.engine(), {
      type: 'stopped',
      reason: stop.reason,
      threadId: stop.threadId,
      threadName: stop.threadName,
      hitBreakpointIds: stop.hitBreakpointIds,
      exception: stop.exception,
      frameIndex: stop.frameIndex,
    });
    return { stop: await this.annotate(built.stop, built.frames, false), frames: built.frames, totalFrames: built.totalFrames };
  }

  /** The watches' values at the current stop (after watches were added). */
  watchValues(): Promise<WatchValue[]> {
    return this.watches.evaluate(this.engine(), this.watchFrameId, false);
  }

  /** A new run: nothing to compare with. */
  reset(): void {
    this.watches.reset();
    this.localChanges.reset();
  }
}
