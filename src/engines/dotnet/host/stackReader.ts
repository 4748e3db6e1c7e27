/**
 * A stopped thread's stack as the agent reads it: frames of the user's code with their C# names and
 * source positions, and every run of frames without symbols (framework, runtime, native) collapsed
 * into one "[External Code]" frame, as Visual Studio shows it (a DAP label frame: it stands for frames
 * no listing shows). Frame ids stay valid until the program runs again.
 */
import type { FrameInfo } from '../../../core/types.js';
import type { SourceLocation } from '../symbols/moduleSymbols.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { NativeFrame } from './nativeEvents.js';
import type { Native } from './nativeSession.js';

const EXTERNAL = '[External Code]';
const MAX_FRAMES = 1000;

/** Where a user frame is: its native frame index (for values later) and position. */
export interface FrameHandle {
  threadId: number;
  nativeIndex: number;
  module: number;
  methodToken: number;
  ilOffset: number;
  /** The module's EnC version of the code the frame runs (1: as loaded). */
  version?: number;
}

export interface UserFrame {
  name: string;
  location: SourceLocation;
  handle: FrameHandle;
}

export class StackReader {
  private readonly handles = new Map<number, FrameHandle>();
  private nextId = 1;

  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
  ) {}

  /** Frames go stale once the program runs. */
  clear(): void {
    this.handles.clear();
  }

  handle(frameId: number): FrameHandle | undefined {
    return this.handles.get(frameId);
  }

  async frames(threadId: number, start: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames: number }> {
    const all = await this.collapsed(threadId);
    const frames = all.slice(start, start + levels).map((f) => {
      if (!f.user) return { id: 0, name: EXTERNAL, line: 0, column: 0, presentationHint: 'label' as const };
      const id = this.nextId++;
      this.handles.set(id, f.user.handle);
      const { file, line, column } = f.user.location;
      return { id, name: f.user.name, file, line, column };
    });
    return { frames, totalFrames: all.length };
  }

  /** The innermost frame, resolved (undefined when it has no source). */
  async top(threadId: number): Promise<UserFrame | undefined> {
    const native = this.native();
    if (!native) return undefined;
    const { frames } = await native.call('stack', { threadId, start: 0, count: 1 });
    return frames[0] ? this.resolve(frames[0], threadId, 0) : undefined;
  }

  /**
   * The frames with source from the top, `count` at most: a trace column's frameIndex counts these
   * (the async machinery and runtime frames between a method and its caller are not counted).
   */
  async framesWithSource(threadId: number, count: number): Promise<UserFrame[]> {
    return (await this.collapsed(threadId)).flatMap((f) => (f.user ? [f.user] : [])).slice(0, count);
  }

  resolve(frame: NativeFrame, threadId: number, nativeIndex: number): UserFrame | undefined {
    if (frame.kind !== 'il') return undefined;
    const symbols = this.modules.get(frame.module)?.symbols;
    const location = symbols?.location(frame.token, frame.ilOffset, frame.version ?? 1);
    if (!symbols || !location) return undefined;
    const typeArgs = (frame.typeArgs ?? []).map((t) => this.modules.typeName(t));
    return {
      name: symbols.methodName(frame.token, typeArgs),
      location,
      handle: { threadId, nativeIndex, module: frame.module, methodToken: frame.token, ilOffset: frame.ilOffset, version: frame.version ?? 1 },
    };
  }

  private async collapsed(threadId: number): Promise<{ user?: UserFrame }[]> {
    const native = this.native();
    if (!native) return [];
    const { frames } = await native.call('stack', { threadId, start: 0, count: MAX_FRAMES });
    const out: { user?: UserFrame }[] = [];
    frames.forEach((frame, index) => {
      const user = this.resolve(frame, threadId, index);
      if (user || out.length === 0 || out.at(-1)!.user) out.push({ user });
    });
    return out;
  }
}
