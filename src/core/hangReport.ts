/**
 * The hang report: every thread's stack in one answer, identical stacks grouped with a count, what
 * each thread waits on and which thread holds it, and the cycles among those waits (deadlocks); where
 * the engine reads them, the async chains no thread runs, grouped the same way, and their deadlocks.
 */
import type { Engine } from './engine.js';
import type { AsyncDeadlock, AwaitWait, FrameInfo, HeldLock, PendingTaskReport, ThreadDump, ThreadWait } from './types.js';

/** Frames per thread in a hang report. */
export const HANG_FRAMES = 12;

export interface StackGroup {
  threadIds: number[];
  names: string[];
  frames: FrameInfo[];
  totalFrames?: number;
  wait?: ThreadWait;
  holds?: HeldLock[];
  error?: string;
}

/** Pending async chains with the same frames and the same wait. */
export interface TaskGroup {
  count: number;
  frames: FrameInfo[];
  waitsOn: AwaitWait;
  blockedThreadIds?: number[];
}

export interface HangReport {
  threads: ThreadDump[];
  /** Deadlocked groups first, then in thread order. */
  groups: StackGroup[];
  /** Each cycle of threads that wait on one another, by thread id. */
  deadlocks: number[][];
  /** Async chains no thread runs, the largest groups first (engines that read them). */
  tasks?: TaskGroup[];
  /** Chains left out past the engine's cap on their number; chains its time limit left unread. */
  tasksOmitted?: number;
  tasksUnread?: number;
  tasksUnavailable?: string;
  asyncDeadlocks?: AsyncDeadlock[];
}

/** The async work no thread runs, for engines that read it; a failure leaves it out of the report. */
export async function readPendingTasks(engine: Engine, levels: number): Promise<PendingTaskReport | undefined> {
  return engine.pendingTasks ? engine.pendingTasks(levels).catch((e: unknown) => ({ tasks: [], deadlocks: [], unavailable: (e as Error).message })) : undefined;
}

/** The engine's own dumps, or (for engines without them) the stacks a stopped program gives. */
export function readThreadDumps(engine: Engine, levels: number): Promise<ThreadDump[]> {
  return engine.threadDumps ? engine.threadDumps(levels) : readStacks(engine, levels);
}

/** Each thread with its top frames, as stackTrace gives them; a thread whose stack fails says why. */
export async function readStacks(engine: Pick<Engine, 'threads' | 'stackTrace'>, levels: number): Promise<ThreadDump[]> {
  const threads = await engine.threads();
  return Promise.all(
    threads.map(async ({ id, name }) => {
      try {
        const { frames, totalFrames } = await engine.stackTrace(id, 0, levels);
        return { id, name, frames, totalFrames };
      } catch (e) {
        return { id, name, frames: [], error: (e as Error).message };
      }
    }),
  );
}

export function buildHangReport(dumps: ThreadDump[], pending?: PendingTaskReport): HangReport {
  const threads = withOwners(dumps);
  const deadlocks = waitCycles(threads);
  const locked = new Set(deadlocks.flat());
  const groups = new Map<string, StackGroup>();
  for (const t of threads) {
    const key = JSON.stringify([t.frames.map((f) => [f.name, f.file, f.line]), t.wait?.kind, t.wait?.object, t.wait?.ownerThreadId, t.error]);
    const group = groups.get(key);
    if (group) {
      group.threadIds.push(t.id);
      group.names.push(t.name);
    } else {
      groups.set(key, { threadIds: [t.id], names: [t.name], frames: t.frames, totalFrames: t.totalFrames, wait: t.wait, holds: t.holds, error: t.error });
    }
  }
  const blocked = new Set((pending?.deadlocks ?? []).flatMap((d) => (d.threadId !== undefined ? [d.threadId] : [])));
  const stuck = (g: StackGroup) => Number(g.threadIds.some((id) => locked.has(id) || blocked.has(id)));
  const ordered = [...groups.values()].sort((a, b) => stuck(b) - stuck(a));
  return { threads, groups: ordered, deadlocks, ...(pending ? taskGroups(pending) : {}) };
}

function taskGroups(pending: PendingTaskReport): Pick<HangReport, 'tasks' | 'tasksOmitted' | 'tasksUnread' | 'tasksUnavailable' | 'asyncDeadlocks'> {
  const groups = new Map<string, TaskGroup>();
  for (const task of pending.tasks) {
    const key = JSON.stringify([task.frames.map((f) => [f.name, f.file, f.line]), task.waitsOn.kind, task.waitsOn.object]);
    const group = groups.get(key);
    if (group) {
      group.count++;
      if (task.blockedThreadIds?.length) group.blockedThreadIds = [...new Set([...(group.blockedThreadIds ?? []), ...task.blockedThreadIds])];
    } else {
      groups.set(key, { count: 1, frames: task.frames, waitsOn: task.waitsOn, ...(task.blockedThreadIds?.length ? { blockedThreadIds: task.blockedThreadIds } : {}) });
    }
  }
  return {
    tasks: [...groups.values()].sort((a, b) => b.count - a.count),
    ...(pending.omitted ? { tasksOmitted: pending.omitted } : {}),
    ...(pending.unread ? { tasksUnread: pending.unread } : {}),
    ...(pending.unavailable ? { tasksUnavailable: pending.unavailable } : {}),
    ...(pending.deadlocks.length ? { asyncDeadlocks: pending.deadlocks } : {}),
  };
}

/**
 * A wait whose owner the runtime did not name gets the one other thread that holds an object of
 * that name (as the source shows it); none, or more than one, leaves the owner unknown.
 */
function withOwners(dumps: ThreadDump[]): ThreadDump[] {
  return dumps.map((t) => {
    if (!t.wait?.object || t.wait.ownerThreadId !== undefined) return t;
    const holders = dumps.filter((o) => o.id !== t.id && o.holds?.some((h) => h.object === t.wait!.object));
    return holders.length === 1 ? { ...t, wait: { ...t.wait, ownerThreadId: holders[0].id } } : t;
  });
}

/** Each thread waits on at most one owner: follow the chain from every thread, keep each loop once. */
function waitCycles(threads: ThreadDump[]): number[][] {
  const owner = new Map(threads.flatMap((t) => (t.wait?.ownerThreadId !== undefined ? [[t.id, t.wait.ownerThreadId] as const] : [])));
  const cycles = new Map<string, number[]>();
  for (const start of owner.keys()) {
    const path: number[] = [];
    let at: number | undefined = start;
    while (at !== undefined && !path.includes(at)) {
      path.push(at);
      at = owner.get(at);
    }
    if (at === undefined) continue;
    const loop = path.slice(path.indexOf(at));
    const first = loop.indexOf(Math.min(...loop));
    const canonical = [...loop.slice(first), ...loop.slice(0, first)];
    cycles.set(canonical.join(','), canonical);
  }
  return [...cycles.values()];
}
