/**
 * The logical callers of an async method, as Visual Studio's async call stack shows them: once a
 * method has really suspended, it resumes on a thread-pool thread and its callers are no longer on any
 * stack; they are the methods awaiting its task. From the method's state machine: its builder's task →
 * that task's continuation → the awaiting method's box → its state machine, at the `await` it is
 * suspended on (`<>1__state` indexes the awaits the PDB lists), and so on outward. Task.WhenAll /
 * WhenAny promises and ContinueWith tasks between two methods are followed through.
 */
import type { SourceLocation } from '../symbols/moduleSymbols.js';
import { methodsNamed } from '../symbols/typeMembers.js';
import { tokenRid } from '../symbols/tableSchema.js';
import type { AsyncTaskReader, Continuation, TaskState } from './asyncTaskReader.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { Native } from './nativeSession.js';
import type { NativeValue } from './values/nativeValue.js';

/** One awaiting method: where it waits, and the objects its values are read from. */
export interface AsyncFrame {
  /** Its task (the runtime's box): the same object means the same frame. */
  task: NativeValue;
  stateMachine: NativeValue;
  module: number;
  /** MoveNext of the state machine, and the IL offset of the await it is suspended at. */
  methodToken: number;
  ilOffset: number;
  name: string;
  /** Undefined for code without symbols (the framework's async methods). */
  location?: SourceLocation;
}

/** How a chain of awaiting methods ends past its outermost frame. */
export type ChainEnd =
  | { kind: 'none' }
  /** A thread waits for the outermost task (`.Result`, `.Wait()`): the Monitor it sleeps on. */
  | { kind: 'blocked'; lock?: NativeValue }
  /** The chain comes back to a task already in it: they await one another. */
  | { kind: 'cycle'; task: NativeValue }
  | { kind: 'other'; type: string };

/** Awaiting callers followed at most (a chain that long is a loop the runtime let grow). */
export const MAX_ASYNC_FRAMES = 64;
/** Tasks between two awaiting methods followed through (WhenAll of a WhenAny …). */
const MAX_PASS_THROUGH = 8;

export class AsyncChains {
  constructor(
    readonly tasks: AsyncTaskReader,
    private readonly modules: ModuleRegistry,
    private readonly native: () => Native | undefined,
  ) {}

  /** Whether a method is an async method's MoveNext (the PDB's async stepping information says so). */
  isAsyncBody(module: number, methodToken: number): boolean {
    return !!this.modules.get(module)?.symbols?.asyncInfo(methodToken);
  }

  /** Who awaits the async method running in a thread's frame `nativeIndex`; none while its task has no awaiter yet. */
  async callersOfFrame(threadId: number, nativeIndex: number): Promise<AsyncFrame[]> {
    const native = this.native();
    if (!native) return [];
    const { value: stateMachine } = await native.call('variable', { threadId, frameIndex: nativeIndex, kind: 'argument', index: 0 });
    if (!stateMachine || stateMachine.null) return [];
    const task = await this.tasks.ownTask(stateMachine);
    return task ? (await this.callersOf(task, new Set())).frames : [];
  }

  /**
   * The methods awaiting `task`, nearest first, and how the chain ends. `seen` holds the addresses of
   * tasks already in the chain (a task met again ends it as a cycle).
   */
  async callersOf(task: NativeValue, seen: Set<string>, limit = MAX_ASYNC_FRAMES): Promise<{ frames: AsyncFrame[]; end: ChainEnd }> {
    const frames: AsyncFrame[] = [];
    if (task.addr) seen.add(task.addr);
    let current = await this.tasks.read(task);
    while (frames.length < limit) {
      const next = await this.nextAwaiter(current);
      if (next.kind !== 'box') return { frames, end: next };
      if (next.box.addr && seen.has(next.box.addr)) return { frames, end: { kind: 'cycle', task: next.box } };
      if (next.box.addr) seen.add(next.box.addr);
      current = await this.tasks.read(next.box);
      const frame = await this.frameOf(next.box, current.stateMachine, current.state);
      if (!frame) return { frames, end: { kind: 'none' } };
      frames.push(frame);
    }
    return { frames, end: { kind: 'none' } };
  }

  /** The frame of an async method's box: its source method, at the await it is suspended on. */
  async frameOf(box: NativeValue, stateMachine?: NativeValue, state?: number): Promise<AsyncFrame | undefined> {
    if (!stateMachine) {
      const read = await this.tasks.read(box);
      stateMachine = read.stateMachine;
      state ??= read.state;
    }
    if (!stateMachine || stateMachine.null) return undefined;
    const view = this.tasks.reader.catalog.view(stateMachine.chain?.[0]);
    const moveNext = view && methodsNamed(view.meta, tokenRid(view.token), 'MoveNext')[0];
    if (!view || !moveNext) return undefined;
    const symbols = this.modules.get(view.module)?.symbols;
    const typeArgs = (stateMachine.chain?.[0]?.args ?? []).map((t) => this.modules.typeName(t));
    const awaits = symbols?.asyncInfo(moveNext.token)?.awaits ?? [];
    state ??= await this.tasks.state(stateMachine);
    const ilOffset = awaits[state]?.yieldOffset ?? 0;
    const location = symbols?.location(moveNext.token, ilOffset);
    const name = symbols ? symbols.methodName(moveNext.token, typeArgs) : this.frameworkName(view.fullName);
    return { task: box, stateMachine, module: view.module, methodToken: moveNext.token, ilOffset, name, location };
  }

  /** The next awaiting method's box past a task, through the tasks that only pass its completion on. */
  private async nextAwaiter(task: TaskState): Promise<Extract<Continuation, { kind: 'box' }> | ChainEnd> {
    let current = task;
    for (let hop = 0; hop < MAX_PASS_THROUGH; hop++) {
      const { completed, continuations } = current;
      if (completed) return { kind: 'none' };
      const next = continuations.find((c) => c.kind === 'box') ?? continuations.find((c) => c.kind === 'task') ?? continuations[0];
      if (!next) return { kind: 'none' };
      if (next.kind !== 'task') return next;
      current = await this.tasks.read(next.task);
    }
    return { kind: 'none' };
  }

  /** `Namespace.Type.<Method>d__4` → `Namespace.Type.Method`: a framework async method's name. */
  private frameworkName(stateMachineType: string): string {
    const m = /^(.*)\+<([^>]+)>d__\d+$/.exec(stateMachineType);
    return m ? `${m[1]!.replace(/\+/g, '.')}.${m[2]}` : stateMachineType;
  }
}
