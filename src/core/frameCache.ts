/**
 * Frame handles of a stopped program, per thread. Handles are only valid until the program runs
 * again, so the session clears this on every resume.
 */
import type { Engine } from './engine.js';
import { DebugError } from './errors.js';
import type { FrameInfo } from './types.js';

export class FrameCache {
  private readonly byThread = new Map<number, { frames: FrameInfo[]; total?: number }>();

  constructor(private readonly engine: () => Engine) {}

  seed(threadId: number, frames: FrameInfo[], total?: number): void {
    this.byThread.set(threadId, { frames, total });
  }

  clear(): void {
    this.byThread.clear();
  }

  async page(threadId: number, start: number, count: number): Promise<{ frames: FrameInfo[]; total?: number }> {
    const cached = this.byThread.get(threadId);
    if (cached && cached.frames.length >= start + count) {
      return { frames: cached.frames.slice(start, start + count), total: cached.total };
    }
    const got = await this.engine().stackTrace(threadId, 0, start + count);
    this.byThread.set(threadId, { frames: got.frames, total: got.totalFrames });
    return { frames: got.frames.slice(start, start + count), total: got.totalFrames };
  }

  async frame(threadId: number, index: number): Promise<FrameInfo> {
    const { frames, total } = await this.page(threadId, index, 1);
    const frame = frames[0];
    if (!frame) {
      throw new DebugError(
        'FRAME_NOT_FOUND',
        `Thread ${threadId} has no frame ${index}${total !== undefined ? ` (it has ${total})` : ''}.`,
        'Call inspect_stack to see the frames and their indexes.',
      );
    }
    return frame;
  }
}
