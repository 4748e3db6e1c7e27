/**
 * Who takes an async method's result: whatever awaits (or waits on) its task, on any thread, at any
 * time, perhaps long after the step started: before the caller has reached its `await`, even while
 * the method still runs inside its caller's call. Stepping out of (or off the end of) an async method
 * runs until then, as Visual Studio does, with the hook the runtime keeps for debuggers: the task's
 * `SetNotificationForWaitCompletion(true)` makes the wait that takes its result call the empty
 * `Task.NotifyDebuggerOfWaitCompletion`, where a breakpoint catches it; a step out from there lands
 * in the awaiter.
 */
import { methodsNamed } from '../symbols/typeMembers.js';
import { tokenRid } from '../symbols/tableSchema.js';
import type { CodeTarget } from '../symbols/lineResolver.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { Native } from './nativeSession.js';
import type { FrameHandle } from './stackReader.js';
import type { FuncEval } from './values/funcEval.js';
import { ElementType, type NativeValue } from './values/nativeValue.js';
import type { ValueReader } from './values/valueReader.js';

export interface AwaitedTask {
  /** The task, kept alive across runs, to tell its notification from another task's. */
  kept: number;
  /** Where the runtime notifies: System.Threading.Tasks.Task.NotifyDebuggerOfWaitCompletion. */
  module: number;
  target: CodeTarget;
}

/** An `async void` method's builder has no task anyone could wait on. */
const VOID_BUILDER = 'System.Runtime.CompilerServices.AsyncVoidMethodBuilder';
const TASK = 'System.Threading.Tasks.Task';

export class AsyncAwaiters {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
    private readonly values: () => { reader: ValueReader; funcEval: FuncEval },
  ) {}

  /**
   * Asks the task of the async method running in `frame` to notify its awaiter's wait; undefined when
   * the method has no task to wait on or the runtime offers no notification.
   */
  async watch(frame: FrameHandle): Promise<AwaitedTask | undefined> {
    const native = this.native();
    if (!native || !this.modules.get(frame.module)?.symbols?.asyncInfo(frame.methodToken)) return undefined;
    const { reader, funcEval } = this.values();
    let found = await this.task(frame);
    if (found && !found.task) {
      // Before its first await yields, a method has no task yet: the builder's id for debuggers makes
      // the one the method will complete (the runtime's own way, so the method keeps it).
      const getter = reader.catalog.findMethod(found.builder.chain ?? [], 'get_ObjectIdForDebugger', 0, false);
      if (!getter) return undefined;
      await funcEval.call(frame.threadId, getter, found.builder, [], "creating the async method's task");
      found = await this.task(frame);
    }
    const task = found?.task;
    if (!task) return undefined;
    const chain = task.chain ?? [];
    const enable = reader.catalog.findMethod(chain, 'SetNotificationForWaitCompletion', 1, false);
    const view = chain.map((t) => reader.catalog.view(t)).find((v) => v?.fullName === TASK);
    const notify = view && methodsNamed(view.meta, tokenRid(view.token), 'NotifyDebuggerOfWaitCompletion')[0];
    if (!enable || !view || !notify) return undefined;
    const { kept } = await native.call('keep', { h: task.h });
    try {
      await funcEval.call(frame.threadId, enable, task, [{ et: ElementType.boolean, v: 'true' }], "asking for the task's wait completion");
    } catch (e) {
      await this.forget({ kept, module: view.module, target: { methodToken: notify.token, ilOffset: 0 } });
      throw e;
    }
    return { kept, module: view.module, target: { methodToken: notify.token, ilOffset: 0 } };
  }

  /** Whether the notification `threadId` stopped in is the awaited task's (`this` of its top frame). */
  async isNotifying(threadId: number, awaited: AwaitedTask): Promise<boolean> {
    const native = this.native();
    if (!native) return false;
    const { arguments: args } = await native.call('frameValues', { threadId, frameIndex: 0 });
    return !!args[0] && (await native.call('sameObject', { h: args[0].h, kept: awaited.kept })).same;
  }

  async forget(awaited: AwaitedTask): Promise<void> {
    await this.native()?.call('unkeep', { kept: awaited.kept }).catch(() => undefined);
  }

  /** The state machine's builder and the task it has made so far (undefined for `async void` and unknown builders). */
  private async task(frame: FrameHandle): Promise<{ builder: NativeValue; task?: NativeValue } | undefined> {
    const native = this.native();
    if (!native) return undefined;
    const reader = this.values().reader;
    const { arguments: args } = await native.call('frameValues', { threadId: frame.threadId, frameIndex: frame.nativeIndex });
    const stateMachine = args[0];
    if (!stateMachine || stateMachine.null) return undefined;
    const [builder] = await reader.fieldsByName(stateMachine, ['<>t__builder']);
    if (!builder || reader.catalog.view(builder.chain?.[0])?.fullName === VOID_BUILDER) return undefined;
    const [task] = await reader.fieldsByName(builder, ['m_task']);
    if (!task) return undefined;
    return { builder, task: task.null ? undefined : task };
  }
}
