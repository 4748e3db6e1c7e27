/**
 * Low priority for processes prepared ahead of use, and normal priority back once they are used.
 * Only where the priority can be given back: lowering a nice value needs CAP_SYS_NICE or a
 * RLIMIT_NICE that allows it, and a program must never run at a priority it did not ask for.
 * Linux keeps a nice value per thread, so giving it back walks every thread (/proc/<pid>/task).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

const CAP_SYS_NICE = 23n;

let restorable: boolean | undefined;

/** Whether processes we lower can be given our own priority back later. */
export function canRestorePriority(): boolean {
  restorable ??= process.platform === 'linux' && (hasCapSysNice() || niceLimitAllows(getPriority()));
  return restorable;
}

/**
 * Starts a process at the lowest priority: our own thread is lowered while it forks, so the child
 * is born with it (lowering it after the start would race with the threads it starts). `lowered`
 * says whether it was.
 */
export function startAtLowPriority<T>(start: () => T): { started: T; lowered: boolean } {
  const ours = getPriority();
  let lowered = false;
  if (canRestorePriority()) {
    try {
      setPriority(constants.priority.PRIORITY_LOW);
      lowered = true;
    } catch {
      // Then it starts at our priority.
    }
  }
  try {
    return { started: start(), lowered };
  } finally {
    if (lowered) setPriority(ours);
  }
}

/** Gives every thread of these processes our own priority (what a process we start gets). */
export function restorePriority(pids: number[]): void {
  const ours = getPriority();
  for (const pid of pids) {
    for (const tid of threadsOf(pid)) {
      try {
        setPriority(tid, ours);
      } catch {
        // The thread ended meanwhile.
      }
    }
  }
}

function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [pid];
  }
}

function hasCapSysNice(): boolean {
  try {
    const line = /^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return !!line && ((BigInt(`0x${line[1]}`) >> CAP_SYS_NICE) & 1n) === 1n;
  } catch {
    return false;
  }
}

/** RLIMIT_NICE lets an unprivileged process go down to nice 20 - limit. */
function niceLimitAllows(nice: number): boolean {
  try {
    const line = /^Max nice priority\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    const soft = line?.[1] === 'unlimited' ? Infinity : Number(line?.[1]);
    return 20 - soft <= nice;
  } catch {
    return false;
  }
}
