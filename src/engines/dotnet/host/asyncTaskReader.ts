/**
 * What the runtime's own task objects say about an async method that is suspended: its state machine
 * and the await it stopped at, whether its task has completed, and who continues when it does (the
 * task's continuation: the awaiting method's box, a Task.WhenAll / WhenAny promise, a ContinueWith
 * task, a thread blocked in `.Result`), through the wrappers the runtime puts between them (an Action
 * whose target is the box, a SynchronizationContext or TaskScheduler continuation, a list of several),
 * and through the sources a task's work completes when no one awaits the task itself: a
 * ContinueWith or callback that sets a TaskCompletionSource or a hand-written IValueTaskSource (its
 * ManualResetValueTaskSourceCore holds the awaiter).
 * Field and type names are those of System.Private.CoreLib (.NET Core 3 and later); anything else is
 * reported as what it is, never guessed through.
 */
import type { ValueReader } from './values/valueReader.js';
import { ElementType, type NativeValue } from './values/nativeValue.js';
import type { FieldRef, Native } from './nativeSession.js';

/** Who resumes when a task completes. `context`: the SynchronizationContext it is posted to. */
export type Continuation =
  | { kind: 'box'; box: NativeValue; context?: NativeValue }
  /** A task that completes with it (Task.WhenAll / WhenAny, ContinueWith): followed through. */
  | { kind: 'task'; task: NativeValue; via: string }
  /** A thread waits for it (`.Result`, `.Wait()`, `GetAwaiter().GetResult()`): the Monitor it sleeps on. */
  | { kind: 'blocked'; lock?: NativeValue }
  | { kind: 'other'; type: string };

export interface TaskState {
  completed: boolean;
  /** The state machine of an async method's box, and its `<>1__state`. */
  stateMachine?: NativeValue;
  state?: number;
  continuations: Continuation[];
}

const BOX = 'System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1';
const POOLED_BOX = 'System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder`1+StateMachineBox`1';
const TASK = 'System.Threading.Tasks.Task';
const DELEGATE = 'System.Delegate';
const LIST = 'System.Collections.Generic.List`1';
const CONTINUATION_WRAPPER = 'System.Runtime.CompilerServices.AsyncMethodBuilderCore+ContinuationWrapper';
const AWAIT_CONTINUATION = 'System.Threading.Tasks.AwaitTaskContinuation';
const CONTEXT_CONTINUATION = 'System.Threading.Tasks.SynchronizationContextAwaitTaskContinuation';
const CONTINUE_WITH = 'System.Threading.Tasks.ContinueWithTaskContinuation';
const BLOCKING_WAIT = 'System.Threading.Tasks.Task+SetOnInvokeMres';
const PROMISE_SOURCES = ['System.Threading.Tasks.TaskCompletionSource', 'System.Threading.Tasks.TaskCompletionSource`1'];
const SOURCE_CORE = 'System.Threading.Tasks.Sources.ManualResetValueTaskSourceCore`1';
/** How far into an object's fields a source its work completes is looked for (a closure's captured `this`). */
const SOURCE_SEARCH_DEPTH = 2;
function stateOf(value: NativeValue | undefined): number | undefined {
  return value?.v !== undefined ? Number(value.v) : undefined;
}

/** TaskStateFlags: RanToCompletion | Faulted | Canceled. */
const COMPLETED_MASK = 0x1000000 | 0x200000 | 0x400000;
/** Continuations of one task followed at most (a List of them). */
const MAX_CONTINUATIONS = 64;
/** The fields that hold an async method's builder, and an async iterator's promise. */
const BUILDER = '<>t__builder';
const ITERATOR_PROMISE = '<>v__promiseOfValueOrEnd';
const STATE = '<>1__state';
const AWAITER_FIELD = /^<>u__\d+$/;

export class AsyncTaskReader {
  constructor(
    readonly reader: ValueReader,
    private readonly native: () => Native | undefined,
  ) {}

  /** The full metadata names of a value's type and its base classes. */
  typeNames(value: NativeValue): string[] {
    return (value.chain ?? []).map((t) => this.reader.catalog.view(t)?.fullName ?? '');
  }

  isBox(value: NativeValue): boolean {
    const names = this.typeNames(value);
    return names.includes(BOX) || names.includes(POOLED_BOX);
  }

  isTask(value: NativeValue): boolean {
    return this.typeNames(value).includes(TASK);
  }

  /** The task an async method's state machine completes (undefined before its first await that suspends, and for `async void`). */
  async ownTask(stateMachine: NativeValue): Promise<NativeValue | undefined> {
    const [builder, promise] = await this.reader.fieldsByName(stateMachine, [BUILDER, ITERATOR_PROMISE]);
    // An async iterator's consumer awaits the iterator itself: its promise holds the continuation.
    if (promise) return stateMachine;
    if (!builder) return undefined;
    let [task, inner] = await this.reader.fieldsByName(builder, ['m_task', '_builder']);
    if (!task && inner) [task] = await this.reader.fieldsByName(inner, ['m_task']);
    return task && !task.null ? task : undefined;
  }

  /** `<>1__state`: the await it is suspended at (0, 1, …), -1 running, -2 finished. */
  async state(stateMachine: NativeValue): Promise<number> {
    const [state] = await this.reader.fieldsByName(stateMachine, [STATE]);
    return Number(state?.v ?? -1);
  }

  /**
   * Whether a task (or a box, or an async iterator) has completed, its state machine and the await
   * it is at, and who continues after it: a box is read in one call (following a chain of awaits
   * reads one box per awaiting method).
   */
  async read(task: NativeValue): Promise<TaskState> {
    const names = this.typeNames(task);
    if (names.includes(POOLED_BOX)) {
      const [stateMachine, state, source] = await this.readFields(task, ['StateMachine', this.statePath(task), '_valueTaskSource']);
      return { completed: false, stateMachine, state: stateOf(state), continuations: await this.sourceContinuations(source) };
    }
    if (!names.includes(TASK)) {
      // An async iterator: the consumer's continuation waits in its promise.
      const [promise, state] = await this.reader.fieldsByName(task, [ITERATOR_PROMISE, STATE]);
      return { completed: false, stateMachine: task, state: stateOf(state), continuations: await this.sourceContinuations(promise) };
    }
    const box = names.includes(BOX);
    const [flags, continuation, stateMachine, state] = await this.readFields(task, ['m_stateFlags', 'm_continuationObject', ...(box ? ['StateMachine', this.statePath(task)] : [])]);
    const completed = (Number(flags?.v ?? 0) & COMPLETED_MASK) !== 0;
    if (completed) return { completed, stateMachine, state: stateOf(state), continuations: [] };
    const continuations = continuation ? await this.resolve(continuation) : [];
    return { completed, stateMachine, state: stateOf(state), continuations: continuations.length || box ? continuations : await this.workHandsOn(task) };
  }

  /** A task no one awaits that runs a delegate (ContinueWith): the awaiters of the source its delegate's state or target completes. */
  private async workHandsOn(task: NativeValue): Promise<Continuation[]> {
    const [state, action] = await this.reader.fieldsByName(task, ['m_stateObject', 'm_action']);
    if (!action || action.null) return [];
    const [target] = await this.reader.fieldsByName(action, ['_target']);
    for (const candidate of [state, target]) {
      const found = candidate ? await this.sourceAwaiters(candidate, 0) : [];
      if (found.length) return found;
    }
    return [];
  }

  /**
   * Who awaits a source an object completes: the object is a TaskCompletionSource (its task), holds a
   * ManualResetValueTaskSourceCore (a hand-written IValueTaskSource), or holds one of these in its own
   * fields (a closure, a captured `this`).
   */
  private async sourceAwaiters(value: NativeValue, depth: number): Promise<Continuation[]> {
    if (value.null || (value.et !== ElementType.class && value.et !== ElementType.valuetype)) return [];
    const names = this.typeNames(value);
    if (PROMISE_SOURCES.some((n) => names.includes(n))) {
      const [task] = await this.reader.fieldsByName(value, ['_task']);
      return task && !task.null ? [{ kind: 'task', task, via: 'TaskCompletionSource' }] : [];
    }
    if (names[0] === SOURCE_CORE) return this.sourceContinuations(value);
    const view = this.reader.catalog.view(value.chain?.[0]);
    // The framework's own objects are not searched: only the program's sources and closures.
    if (depth >= SOURCE_SEARCH_DEPTH || !view || /^(System|Microsoft)\./.test(view.fullName)) return [];
    const fields = view.fields.filter((f) => !f.isStatic).map((f) => f.name);
    const values = fields.length ? await this.reader.fieldsByName(value, fields) : [];
    for (const field of values) {
      const found = field ? await this.sourceAwaiters(field, depth + 1) : [];
      if (found.length) return found;
    }
    return [];
  }

  /** Fields by name (found up the type chain), or a path of fields, in one call. */
  private async readFields(value: NativeValue, wanted: (string | FieldRef[] | undefined)[]): Promise<(NativeValue | undefined)[]> {
    const native = this.native();
    const refs = wanted.map((w) => (typeof w === 'string' ? this.reader.fieldRef(value, w) : w && w.length ? { path: w } : undefined));
    const asked = refs.filter((r): r is FieldRef | { path: FieldRef[] } => !!r);
    if (!native || asked.length === 0) return wanted.map(() => undefined);
    const { values } = await native.call('fields', { h: value.h, fields: asked });
    let next = 0;
    return refs.map((r) => {
      if (!r) return undefined;
      const read = values[next++];
      return read && 'h' in read ? read : undefined;
    });
  }

  /** The path from a box to its state machine's `<>1__state` (the state machine's type is the box's last type argument). */
  private statePath(box: NativeValue): FieldRef[] | undefined {
    const toStateMachine = this.reader.fieldRef(box, 'StateMachine');
    const type = box.chain?.find((t) => t.args?.length)?.args?.at(-1);
    const view = this.reader.catalog.view(type);
    const field = view?.fields.find((f) => f.name === STATE && !f.isStatic);
    return toStateMachine && view && field ? [toStateMachine, { module: view.module, type: view.token, field: field.token }] : undefined;
  }

  /**
   * What an async method's current await waits on: the task (or value task source) in its awaiter
   * field. The compiler clears an awaiter field once its await is over, so the one in use is the one
   * not empty; `yield` for Task.Yield(), whose awaiter holds nothing.
   */
  async awaited(stateMachine: NativeValue): Promise<NativeValue | 'yield' | undefined> {
    const fields = this.awaiterFields(stateMachine);
    if (fields.length === 0) return undefined;
    const awaiters = await this.reader.fieldsByName(stateMachine, fields);
    let yielding = false;
    for (const awaiter of awaiters) {
      if (!awaiter || awaiter.null) continue;
      if (awaiter.et !== ElementType.valuetype) return awaiter;
      const name = this.typeNames(awaiter)[0] ?? '';
      if (name.endsWith('YieldAwaitable+YieldAwaiter')) {
        yielding = true;
        continue;
      }
      const [task, value] = await this.reader.fieldsByName(awaiter, ['m_task', '_value']);
      if (task && !task.null) return task;
      if (value) {
        const [obj] = await this.reader.fieldsByName(value, ['_obj']);
        if (obj && !obj.null) return obj;
      }
    }
    return yielding ? 'yield' : undefined;
  }

  /** A ManualResetValueTaskSourceCore's waiting continuation (a pooled box, an async iterator). */
  private async sourceContinuations(source: NativeValue | undefined): Promise<Continuation[]> {
    if (!source) return [];
    const [completed, state] = await this.reader.fieldsByName(source, ['_completed', '_continuationState']);
    if (completed?.v === 'true' || !state || state.null) return [];
    return this.resolve(state);
  }

  private awaiterFields(stateMachine: NativeValue): string[] {
    const view = this.reader.catalog.view(stateMachine.chain?.[0]);
    return (view?.fields ?? []).filter((f) => !f.isStatic && AWAITER_FIELD.test(f.name)).map((f) => f.name);
  }

  /** A task's continuation object, unwrapped to who runs next. */
  private async resolve(value: NativeValue, context?: NativeValue, depth = 0): Promise<Continuation[]> {
    if (value.null || depth > 6) return [];
    const names = this.typeNames(value);
    if (names.includes(BOX) || names.includes(POOLED_BOX)) return [{ kind: 'box', box: value, ...(context ? { context } : {}) }];
    if (names.includes(BLOCKING_WAIT)) {
      const [lock] = await this.reader.fieldsByName(value, ['m_lock']);
      return [{ kind: 'blocked', lock: lock && !lock.null ? lock : undefined }];
    }
    if (names.includes(TASK)) return [{ kind: 'task', task: value, via: names[0] ?? TASK }];
    if (names.includes(LIST)) return this.resolveList(value, context, depth);
    if (names.includes(DELEGATE)) {
      const [target] = await this.reader.fieldsByName(value, ['_target']);
      return target ? this.resolve(target, context, depth + 1) : [];
    }
    if (names[0] === CONTINUATION_WRAPPER) {
      const [inner] = await this.reader.fieldsByName(value, ['_continuation']);
      return inner ? this.resolve(inner, context, depth + 1) : [];
    }
    if (names.includes(AWAIT_CONTINUATION)) {
      const [action, syncContext] = await this.reader.fieldsByName(value, ['m_action', ...(names[0] === CONTEXT_CONTINUATION ? ['m_syncContext'] : [])]);
      return action ? this.resolve(action, syncContext && !syncContext.null ? syncContext : context, depth + 1) : [];
    }
    if (names.includes(CONTINUE_WITH)) {
      const [task] = await this.reader.fieldsByName(value, ['m_task']);
      return task && !task.null ? [{ kind: 'task', task, via: 'ContinueWith' }] : [];
    }
    // The sentinel a completed task leaves behind is a plain object.
    if (names[0] === 'System.Object') return [];
    // A callback of the program's (an OnCompleted delegate's target) that completes a source.
    const handed = await this.sourceAwaiters(value, 0);
    return handed.length ? handed : [{ kind: 'other', type: names[0] ?? '?' }];
  }

  private async resolveList(list: NativeValue, context: NativeValue | undefined, depth: number): Promise<Continuation[]> {
    const native = this.native();
    const [items, size] = await this.reader.fieldsByName(list, ['_items', '_size']);
    const count = Math.min(Number(size?.v ?? 0), MAX_CONTINUATIONS);
    if (!native || !items || items.null || count === 0) return [];
    const { values } = await native.call('items', { h: items.h, start: 0, count });
    const out: Continuation[] = [];
    for (const item of values) if (item) out.push(...(await this.resolve(item, context, depth + 1)));
    return out;
  }
}
