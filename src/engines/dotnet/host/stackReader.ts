/**
 * A stopped thread's stack as the agent reads it: frames of the user's code with their C# names and
 * source positions, and every run of frames without symbols (framework, runtime, native) collapsed
 * into one "[External Code]" frame, as Visual Studio shows it (a DAP label frame: it stands for frames
 * no listing shows). Below the physical frames of an async method come its logical callers, marked
 * async: the methods awaiting it (asyncChain.ts), whose values are those of their state machines.
 * Frames stay valid until the program runs again.
 */
import type { FrameInfo } from '../../../core/types.js';
import type { SourceLocation } from '../symbols/moduleSymbols.js';
import type { AsyncChains, AsyncFrame } from './asyncChain.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { NativeFrame, NativeType } from './nativeEvents.js';
import type { Native } from './nativeSession.js';
import type { NativeValue } from './values/nativeValue.js';

const EXTERNAL = '[External Code]';
const MAX_FRAMES = 1000;
/** Physical frames of async methods whose awaiting callers are looked for, innermost first. */
const ASYNC_BODIES_FOLLOWED = 8;

/**
 * Where a user frame is: its native frame index (for values later) and position. A logical frame of
 * an awaiting method has no native frame (`nativeIndex` -1): its values are its state machine's fields.
 */
export interface FrameHandle {
  threadId: number;
  nativeIndex: number;
  module: number;
  methodToken: number;
  ilOffset: number;
  stateMachine?: NativeValue;
  /** The module's EnC version of the code the frame runs (1: as loaded). */
  version?: number;
  /** The exact type arguments of its class, then of its method (ICorDebugILFrame2::EnumerateTypeParameters). */
  typeArgs?: NativeType[];
}

export interface UserFrame {
  name: string;
  location: SourceLocation;
  handle: FrameHandle;
}

interface StackEntry {
  user?: UserFrame;
  async?: boolean;
}

export class StackReader {
  private readonly handles = new Map<number, FrameHandle>();
  /** Each thread's frames, read once per stop (the stop's answer, inspect_stack and the hang report read the same). */
  private readonly stacks = new Map<number, Promise<StackEntry[]>>();
  private chains?: AsyncChains;
  private nextId = 1;

  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
  ) {}

  /** Follows async methods to their awaiting callers from now on. */
  followAwaiters(chains: AsyncChains): void {
    this.chains = chains;
  }

  /** Frames go stale once the program runs. */
  clear(): void {
    this.handles.clear();
    this.stacks.clear();
  }

  handle(frameId: number): FrameHandle | undefined {
    return this.handles.get(frameId);
  }

  /** Starts reading a stopped thread's frames: its stop's answer asks for them next. */
  readAhead(threadId: number): void {
    this.stackOf(threadId).catch(() => undefined);
  }

  async frames(threadId: number, start: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames: number }> {
    const all = await this.stackOf(threadId);
    const frames = all.slice(start, start + levels).map((f): FrameInfo => {
      const async = f.async ? { async: true } : {};
      if (!f.user) return { id: 0, name: EXTERNAL, line: 0, column: 0, presentationHint: 'label', ...async };
      const id = this.nextId++;
      this.handles.set(id, f.user.handle);
      const { file, line, column } = f.user.location;
      return { id, name: f.user.name, file, line, column, ...async };
    });
    return { frames, totalFrames: all.length };
  }

  private stackOf(threadId: number): Promise<StackEntry[]> {
    let stack = this.stacks.get(threadId);
    if (!stack) {
      stack = this.collapsed(threadId);
      this.stacks.set(threadId, stack);
      stack.catch(() => this.stacks.delete(threadId));
    }
    return stack;
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
      handle: { threadId, nativeIndex, module: frame.module, methodToken: frame.token, ilOffset: frame.ilOffset, version: frame.version ?? 1, ...(frame.typeArgs?.length && { typeArgs: frame.typeArgs }) },
    };
  }

  private async collapsed(threadId: number): Promise<StackEntry[]> {
    const native = this.native();
    if (!native) return [];
    const { frames } = await native.call('stack', { threadId, start: 0, count: MAX_FRAMES });
    const out: StackEntry[] = [];
    frames.forEach((frame, index) => {
      const user = this.resolve(frame, threadId, index);
      if (user || out.length === 0 || out.at(-1)!.user) out.push({ user });
    });
    for (const caller of await this.awaitingCallers(threadId, frames)) {
      const user = caller.location && {
        name: caller.name,
        location: caller.location,
        handle: { threadId, nativeIndex: -1, module: caller.module, methodToken: caller.methodToken, ilOffset: caller.ilOffset, stateMachine: caller.stateMachine },
      };
      if (user || out.length === 0 || out.at(-1)!.user) out.push({ user, async: true });
    }
    return out;
  }

  /**
   * The logical callers of the async methods on the stack, outermost last. Usually only the method
   * the thread pool resumed has any (the others were called synchronously and are not awaited yet);
   * one resumed inline by a task completing below it has its own.
   */
  private async awaitingCallers(threadId: number, frames: NativeFrame[]): Promise<AsyncFrame[]> {
    const chains = this.chains;
    if (!chains) return [];
    const bodies = frames.flatMap((f, index) => (f.kind === 'il' && chains.isAsyncBody(f.module, f.token) ? [index] : [])).slice(0, ASYNC_BODIES_FOLLOWED);
    const callers: AsyncFrame[] = [];
    const seen = new Set<string>();
    for (const index of bodies) {
      const found = await chains.callersOfFrame(threadId, index).catch(() => []);
      for (const frame of found) {
        if (frame.task.addr && seen.has(frame.task.addr)) continue;
        if (frame.task.addr) seen.add(frame.task.addr);
        callers.push(frame);
      }
    }
    return callers;
  }
}
