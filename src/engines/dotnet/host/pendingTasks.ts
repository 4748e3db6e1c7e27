/**
 * The async methods no thread runs, for the hang report. A suspended async method lives only on the
 * heap (its box: the task the runtime made for it), so the boxes are found by walking the heap
 * (ICorDebugProcess5, the way dotnet-dump's `dumpasync` finds them), which needs nothing turned on
 * beforehand and sees tasks created before the debugger attached. From the boxes not yet completed:
 * who awaits whom (each task's continuation, through WhenAll / WhenAny promises); the innermost
 * suspended methods, each with its awaiting callers and what its own await waits on; the threads
 * blocking on one of their tasks (the Monitor a `.Result` sleeps on is the task's own); and the two
 * deadlocks async code makes: tasks awaiting one another, and a thread blocking on a task that can
 * only resume on that thread's SynchronizationContext.
 */
import type { AsyncDeadlock, AwaitWait, FrameInfo, PendingTask, PendingTaskReport } from '../../../core/types.js';
import type { AssemblyMetadata } from '../symbols/assemblyMetadata.js';
import { Table, token } from '../symbols/tableSchema.js';
import { MAX_ASYNC_FRAMES, type AsyncChains, type AsyncFrame } from './asyncChain.js';
import type { Continuation } from './asyncTaskReader.js';
import { isIoObject, IoWaits } from './ioWaits.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { Native } from './nativeSession.js';
import type { NativeValue } from './values/nativeValue.js';

/** The classes whose objects are read from the heap: async methods' boxes, and the sources of promise tasks. */
const BOX_CLASSES: [string, string, string?][] = [
  ['System.Runtime.CompilerServices', 'AsyncTaskMethodBuilder`1', 'AsyncStateMachineBox`1'],
  ['System.Runtime.CompilerServices', 'PoolingAsyncValueTaskMethodBuilder`1', 'StateMachineBox`1'],
];
const PROMISE_SOURCES: [string, string][] = [
  ['System.Threading.Tasks', 'TaskCompletionSource'],
  ['System.Threading.Tasks', 'TaskCompletionSource`1'],
];
const CORELIB = 'System.Private.CoreLib.dll';
/** Objects described by one heap walk, chains reported, and the time the walk and the reads may take. */
const MAX_OBJECTS = 5000;
const MAX_CHAINS = 200;
const HEAP_WALK_MS = 3000;
export const PENDING_TASKS_BUDGET_MS = 6000;
/** The time one report may take to read what the chains wait on (each report at a stop has its own). */
const REPORT_MS = 3000;
const EXTERNAL = '[External Code]';
const VALUE_TASK_AS_TASK = /^System\.Threading\.Tasks\.ValueTask(`1)?\+ValueTaskSourceAsTask$/;

interface Node {
  box: NativeValue;
  addr: string;
  stateMachine?: NativeValue;
  /** `<>1__state`: ≥ 0 suspended at an await, -1 running (on some thread's stack). */
  state: number;
  continuations: Continuation[];
  /** The boxes of the methods awaiting it, and the SynchronizationContext each resumes on (if any). */
  parents: { addr: string; context?: NativeValue }[];
  children: string[];
  /** Monitors of threads blocked on it (`.Result`, `.Wait()`). */
  locks: string[];
  frame?: AsyncFrame;
}

/** A thread blocked on a task: the Monitor it sleeps on, and its own SynchronizationContext. */
export interface BlockedThread {
  threadId: number;
  lock: string;
}

export class PendingTaskGraph {
  private promiseSources?: Promise<Map<string, string>>;
  private readonly waits = new Map<string, Promise<{ wait: AwaitWait; context?: NativeValue }>>();
  private readonly io: IoWaits;

  constructor(
    private readonly chains: AsyncChains,
    private readonly native: Native,
    private readonly nodes: Map<string, Node>,
    private readonly sources: NativeValue[],
    private readonly incomplete: string | undefined,
    modules: ModuleRegistry,
  ) {
    this.io = new IoWaits(chains.tasks, modules);
  }

  /** The method whose task a thread blocks on, by the Monitor it sleeps on. */
  blockedOn(lock: string | undefined): string | undefined {
    if (!lock) return undefined;
    for (const node of this.nodes.values()) if (node.locks.includes(lock)) return node.frame?.name;
    return undefined;
  }

  /** The chains no thread runs, what each waits on, and the deadlocks, given the threads blocked on tasks. */
  async report(blocked: BlockedThread[]): Promise<PendingTaskReport> {
    const deadline = Date.now() + REPORT_MS;
    const cycles = this.cycles();
    const inCycle = new Set(cycles.flat());
    // The innermost suspended methods: none of theirs awaits a method still pending, or only ones in a deadlock.
    const leaves = [...this.nodes.values()].filter((n) => n.state >= 0 && !inCycle.has(n.addr) && n.children.every((c) => inCycle.has(c)));
    const tasks: PendingTask[] = [];
    const paths: string[][] = [];
    let omitted = 0;
    let unread = 0;
    for (const leaf of leaves) {
      const path = this.pathFrom(leaf);
      const frames = path.map((addr) => this.nodes.get(addr)!.frame).filter((f): f is AsyncFrame => !!f);
      if (!frames.some((f) => f.location)) continue;
      if (tasks.length >= MAX_CHAINS) {
        omitted++;
        continue;
      }
      if (Date.now() > deadline) {
        unread++;
        continue;
      }
      const waitsOn: AwaitWait = leaf.children.length > 0 ? { kind: 'deadlock' } : (await this.waitOf(leaf, frames)).wait;
      const locks = new Set(path.flatMap((addr) => this.nodes.get(addr)!.locks));
      const threads = blocked.filter((b) => locks.has(b.lock)).map((b) => b.threadId);
      tasks.push({ frames: asFrames(frames), waitsOn, ...(threads.length ? { blockedThreadIds: threads } : {}) });
      paths.push(path);
    }
    const deadlocks: AsyncDeadlock[] = cycles.map((cycle) => ({ kind: 'cycle', frames: asFrames(cycle.map((addr) => this.nodes.get(addr)!.frame).filter((f): f is AsyncFrame => !!f)) }));
    deadlocks.push(...(await this.syncOverAsync(blocked, tasks, paths)));
    return { tasks, deadlocks, ...(omitted ? { omitted } : {}), ...(unread ? { unread } : {}), ...(this.incomplete ? { unavailable: this.incomplete } : {}) };
  }

  /** The leaf, then each method awaiting the one before, as far as the graph goes. */
  private pathFrom(leaf: Node): string[] {
    const path = [leaf.addr];
    const seen = new Set(path);
    let at = leaf;
    while (path.length < MAX_ASYNC_FRAMES) {
      const parent = at.parents.map((p) => this.nodes.get(p.addr)).find((n) => n && !seen.has(n.addr));
      if (!parent) break;
      path.push(parent.addr);
      seen.add(parent.addr);
      at = parent;
    }
    return path;
  }

  /**
   * Each set of tasks awaiting one another (a strongly connected part of the await graph, Tarjan's
   * algorithm), in await order from one of them: each awaits the next, the last the first.
   */
  private cycles(): string[][] {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const found: string[][] = [];
    const visit = (addr: string): void => {
      index.set(addr, index.size);
      low.set(addr, index.get(addr)!);
      stack.push(addr);
      onStack.add(addr);
      for (const { addr: next } of this.nodes.get(addr)!.parents) {
        if (!this.nodes.has(next)) continue;
        if (!index.has(next)) {
          visit(next);
          low.set(addr, Math.min(low.get(addr)!, low.get(next)!));
        } else if (onStack.has(next)) low.set(addr, Math.min(low.get(addr)!, index.get(next)!));
      }
      if (low.get(addr) !== index.get(addr)) return;
      const part: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        part.push(member);
      } while (member !== addr);
      const selfAwaiting = this.nodes.get(addr)!.parents.some((p) => p.addr === addr);
      if (part.length > 1 || selfAwaiting) found.push(this.awaitOrder(new Set(part)));
    };
    for (const addr of this.nodes.keys()) if (!index.has(addr)) visit(addr);
    return found;
  }

  /** A cycle's members from one of them, each followed by the one it awaits (its child in the cycle). */
  private awaitOrder(members: Set<string>): string[] {
    const [start] = [...members].sort();
    const order = [start!];
    for (let at = start!; order.length < members.size; ) {
      const next = this.nodes.get(at)!.children.find((c) => members.has(c) && !order.includes(c));
      if (!next) break;
      order.push(next);
      at = next;
    }
    return order;
  }

  /** A thread blocking on a task of a chain that must resume on that thread's SynchronizationContext. */
  private async syncOverAsync(blocked: BlockedThread[], tasks: PendingTask[], paths: string[][]): Promise<AsyncDeadlock[]> {
    const deadlocks: AsyncDeadlock[] = [];
    for (const { threadId, lock } of blocked) {
      const index = paths.findIndex((path) => path.some((addr) => this.nodes.get(addr)!.locks.includes(lock)));
      if (index < 0) continue;
      const { value: thread } = await this.native.call('threadObject', { threadId }).catch(() => ({ value: undefined }));
      const [context] = thread ? await this.chains.tasks.reader.fieldsByName(thread, ['_synchronizationContext']) : [];
      if (!context || context.null) continue;
      const path = paths[index]!;
      const blockedAt = path.findIndex((addr) => this.nodes.get(addr)!.locks.includes(lock));
      const leaf = this.nodes.get(path[0]!)!;
      // The chain resumes on the thread's context: an await in it posts there, or its innermost await
      // is over and its continuation waits in a queue the blocked thread would run.
      const posts = path.slice(0, blockedAt).some((addr, i) => this.nodes.get(addr)!.parents.find((p) => p.addr === path[i + 1])?.context?.addr === context.addr);
      const leafWait = await this.waitOf(leaf);
      const leafPosts = leafWait.context?.addr === context.addr || tasks[index]!.waitsOn.kind === 'resuming';
      if (!posts && !leafPosts) continue;
      deadlocks.push({ kind: 'syncOverAsync', threadId, frames: tasks[index]!.frames, context: this.chains.tasks.reader.catalog.name(context.chain?.[0]) });
    }
    return deadlocks;
  }

  /** What a suspended method's await waits on, and the SynchronizationContext it will resume on. */
  private waitOf(node: Node, frames: AsyncFrame[] = []): Promise<{ wait: AwaitWait; context?: NativeValue }> {
    let wait = this.waits.get(node.addr);
    if (!wait) {
      wait = this.readWait(node, frames).catch(() => ({ wait: { kind: 'other' as const } }));
      this.waits.set(node.addr, wait);
    }
    return wait;
  }

  /** `frames`: the chain from `node` outward, to name an I/O by the call the program made. */
  private async readWait(node: Node, frames: AsyncFrame[]): Promise<{ wait: AwaitWait; context?: NativeValue }> {
    const tasks = this.chains.tasks;
    const awaited = node.stateMachine ? await tasks.awaited(node.stateMachine) : undefined;
    if (awaited === 'yield') return { wait: { kind: 'yield', object: 'Task.Yield()' } };
    if (!awaited) return { wait: { kind: 'other' } };
    const names = tasks.typeNames(awaited);
    const type = names[0] ?? '';
    if (!tasks.isTask(awaited)) return { wait: isIoObject(type) ? await this.io.describe(awaited, frames) : { kind: 'other', object: this.shortName(awaited) } };
    const state = await tasks.read(awaited);
    if (state.completed) return { wait: { kind: 'resuming' } };
    if (VALUE_TASK_AS_TASK.test(type)) {
      // A ValueTask turned into a Task (`Socket.ReceiveAsync(byte[])`): what waits is its source.
      const [source] = await tasks.reader.fieldsByName(awaited, ['_source']);
      if (source && !source.null && isIoObject(tasks.typeNames(source)[0] ?? '')) return { wait: await this.io.describe(source, frames) };
    }
    const context = state.continuations.find((c) => c.kind === 'box' && c.box.addr === node.addr && c.context);
    const withContext = (wait: AwaitWait) => ({ wait, ...(context?.kind === 'box' && context.context ? { context: context.context } : {}) });
    if (type.startsWith('System.Threading.Tasks.Task+DelayPromise')) return withContext({ kind: 'delay', object: await this.delayText(awaited) });
    if (type === 'System.Threading.SemaphoreSlim+TaskNode') return withContext({ kind: 'semaphore', object: 'SemaphoreSlim.WaitAsync' });
    if (tasks.isBox(awaited)) return withContext({ kind: 'task', object: (await this.chains.frameOf(awaited))?.name });
    if (/WhenAllPromise/.test(type)) return withContext({ kind: 'task', object: 'Task.WhenAll' });
    if (/WhenAnyPromise|CompleteOnInvokePromise/.test(type)) return withContext({ kind: 'task', object: 'Task.WhenAny' });
    if (isIoObject(type)) return withContext(await this.io.describe(awaited, frames));
    if (type === 'System.Threading.Tasks.Task' || type === 'System.Threading.Tasks.Task`1') {
      const [action] = await tasks.reader.fieldsByName(awaited, ['m_action']);
      if (action && !action.null) return withContext({ kind: 'task', object: 'Task.Run' });
      const source = awaited.addr ? (await this.promiseSourceOf()).get(awaited.addr) : undefined;
      return withContext({ kind: 'promise', object: source ? `${source}.Task` : 'a promise task (TaskCompletionSource)' });
    }
    return withContext({ kind: 'task', object: this.shortName(awaited) });
  }

  /** `Task.Delay(30000 ms)`: the delay's timer says how long it was. */
  private async delayText(delay: NativeValue): Promise<string> {
    const reader = this.chains.tasks.reader;
    const [timer] = await reader.fieldsByName(delay, ['_timer']);
    const [due] = timer && !timer.null ? await reader.fieldsByName(timer, ['_dueTime']) : [];
    return due?.v ? `Task.Delay(${due.v} ms)` : 'Task.Delay';
  }

  /** Each TaskCompletionSource's task, by address, and the source's type name (read on first need). */
  private promiseSourceOf(): Promise<Map<string, string>> {
    this.promiseSources ??= (async () => {
      const map = new Map<string, string>();
      for (const source of this.sources) {
        const [task] = await this.chains.tasks.reader.fieldsByName(source, ['_task']);
        if (task?.addr) map.set(task.addr, this.shortName(source));
      }
      return map;
    })();
    return this.promiseSources;
  }

  /** A type's C# name without its namespace: `TaskCompletionSource<int>`. */
  private shortName(value: NativeValue): string {
    return this.chains.tasks.reader.catalog.name(value.chain?.[0]).replace(/^([\w]+\.)+(?=[\w`]+(<|$))/, '');
  }
}

/** Reads the heap's async boxes into a graph of who awaits whom. */
export class PendingTasks {
  constructor(
    private readonly chains: AsyncChains,
    private readonly modules: ModuleRegistry,
    private readonly native: () => Native | undefined,
  ) {}

  async scan(): Promise<PendingTaskGraph> {
    const native = this.native();
    if (!native) throw new Error('the .NET program is not being debugged any more');
    const deadline = Date.now() + PENDING_TASKS_BUDGET_MS;
    const classes = this.classes();
    if (classes.boxes.length === 0) throw new Error('the runtime\'s async types were not found in System.Private.CoreLib');
    const walk = await native.call('heapObjects', { classes: [...classes.boxes, ...classes.sources], max: MAX_OBJECTS, timeoutMs: HEAP_WALK_MS });
    const nodes = new Map<string, Node>();
    if (!walk.valid) return new PendingTaskGraph(this.chains, native, nodes, [], 'the runtime\'s heap cannot be walked at this moment (a garbage collection is under way): pause again', this.modules);
    const tasks = this.chains.tasks;
    const sources: NativeValue[] = [];
    let unread = 0;
    for (const value of walk.objects) {
      const addr = value.addr;
      if (!addr) continue;
      if (!tasks.isBox(value)) {
        sources.push(value);
        continue;
      }
      if (Date.now() > deadline) {
        unread++;
        continue;
      }
      const read = await tasks.read(value).catch(() => undefined);
      if (!read || read.completed) continue;
      nodes.set(addr, { box: value, addr, stateMachine: read.stateMachine, state: read.state ?? -1, continuations: read.continuations, parents: [], children: [], locks: [] });
    }
    let unlinked = 0;
    for (const node of nodes.values()) {
      if (Date.now() > deadline) {
        unlinked++;
        continue;
      }
      await this.link(node, node.continuations, nodes, 0);
      node.frame = await this.chains.frameOf(node.box, node.stateMachine, node.state).catch(() => undefined);
    }
    for (const node of nodes.values()) for (const parent of node.parents) nodes.get(parent.addr)?.children.push(node.addr);
    const incomplete = !walk.complete
      ? 'only part of the heap was read (the walk reached its time limit)'
      : unread > 0
        ? `only part of the heap was read (${walk.objects.length - unread} of ${walk.matched} async objects: time limit)`
        : walk.matched > walk.objects.length
          ? `only part of the heap was read (the first ${walk.objects.length} of ${walk.matched} async objects: size cap)`
          : unlinked > 0
          ? `${unlinked} of ${nodes.size} pending async methods not followed to their callers (time limit)`
          : undefined;
    return new PendingTaskGraph(this.chains, native, nodes, sources, incomplete, this.modules);
  }

  /** The threads sleeping on a Monitor that is a blocked wait of some pending task. */
  async blockedThreads(graph: PendingTaskGraph, threadIds: number[]): Promise<BlockedThread[]> {
    const native = this.native();
    if (!native) return [];
    const blocked: BlockedThread[] = [];
    for (const threadId of threadIds) {
      const { waits } = await native.call('blockingObjects', { threadId }).catch(() => ({ waits: [] }));
      const lock = waits.find((w) => w.value?.addr && graph.blockedOn(w.value.addr))?.value?.addr;
      if (lock) blocked.push({ threadId, lock });
    }
    return blocked;
  }

  /** Who continues after `node`: awaiting boxes (through promises that only pass completion on) and blocked threads. */
  private async link(node: Node, continuations: Continuation[], nodes: Map<string, Node>, depth: number): Promise<void> {
    for (const c of continuations) {
      if (c.kind === 'box' && c.box.addr && nodes.has(c.box.addr)) node.parents.push({ addr: c.box.addr, context: c.context });
      else if (c.kind === 'blocked' && c.lock?.addr) node.locks.push(c.lock.addr);
      else if (c.kind === 'task' && depth < 8) {
        const read = await this.chains.tasks.read(c.task).catch(() => undefined);
        if (read && !read.completed) await this.link(node, read.continuations, nodes, depth + 1);
      }
    }
  }

  private classes(): { boxes: { module: number; token: number }[]; sources: { module: number; token: number }[] } {
    const corelib = this.modules.all().find((m) => m.name === CORELIB);
    const meta = corelib && this.modules.metadata(corelib.handle);
    if (!corelib || !meta) return { boxes: [], sources: [] };
    const find = (names: (string | undefined)[]) => {
      const rid = typeRid(meta, names[0]!, names[1]!, names[2]);
      return rid ? [{ module: corelib.handle, token: token(Table.TypeDef, rid) }] : [];
    };
    return { boxes: BOX_CLASSES.flatMap(find), sources: PROMISE_SOURCES.flatMap(find) };
  }
}

/** A TypeDef by namespace and name, or a type nested in one. */
function typeRid(meta: AssemblyMetadata, namespace: string, name: string, nested?: string): number | undefined {
  let outer: number | undefined;
  for (let rid = 1; rid <= meta.typeCount; rid++) {
    const t = meta.type(rid);
    if (t.namespace === namespace && t.name === name && t.enclosing === undefined) outer = rid;
  }
  if (!outer || !nested) return outer;
  for (let rid = 1; rid <= meta.typeCount; rid++) {
    const t = meta.type(rid);
    if (t.name === nested && t.enclosing === outer) return rid;
  }
  return undefined;
}

/** A chain's frames as the report shows them: the user's with their source, each run of the framework's as one. */
function asFrames(frames: AsyncFrame[]): FrameInfo[] {
  const out: FrameInfo[] = [];
  for (const f of frames) {
    if (f.location) out.push({ id: 0, name: f.name, file: f.location.file, line: f.location.line, column: f.location.column, async: true });
    else if (out.at(-1)?.name !== EXTERNAL) out.push({ id: 0, name: EXTERNAL, line: 0, column: 0, presentationHint: 'label', async: true });
  }
  return out;
}
