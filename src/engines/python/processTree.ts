/**
 * Finding and ending the processes behind a debug session (adapter, debugpy launcher,
 * debuggee) by pid. Reads /proc where there is one; elsewhere only the pids it is given.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isProcessRunning } from '../../core/processAlive.js';

/** Linux lists each thread's children in /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN). */
const HAS_CHILDREN_FILES = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/** Pids of every live descendant of `root`, children before grandchildren. */
export function descendantsOf(root: number): number[] {
  // Walking down from the root reads a few files; a scan of /proc reads one per process.
  const childrenOf = HAS_CHILDREN_FILES ? childrenFromTaskFiles : childrenFromScan();
  const result: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of childrenOf(queue.shift()!)) {
      result.push(child);
      queue.push(child);
    }
  }
  return result;
}

/** Pids of every live process of the process session `sid` (Linux; elsewhere none are found). */
export function sessionMembers(sid: number): number[] {
  const members: number[] = [];
  for (const [pid, stat] of processStats()) if (stat.session === sid && stat.state !== 'Z') members.push(pid);
  return members;
}

/** SIGTERM, then SIGKILL whatever is still there after `graceMs`; resolves when all are gone. */
export async function endProcesses(pids: number[], graceMs = 1500): Promise<void> {
  const targets = [...new Set(pids)].filter((pid) => pid > 0 && pid !== process.pid && isProcessRunning(pid));
  if (!targets.length) return;
  signalAll(targets, 'SIGTERM');
  if (await waitGone(targets, graceMs)) return;
  signalAll(targets, 'SIGKILL');
  await waitGone(targets, 3000);
}

/** SIGKILL at once (nothing to wait for: a run that never started); resolves when all are gone. */
export async function killProcesses(pids: number[]): Promise<void> {
  const targets = [...new Set(pids)].filter((pid) => pid > 0 && pid !== process.pid && isProcessRunning(pid));
  if (!targets.length) return;
  signalAll(targets, 'SIGKILL');
  await waitGone(targets, 3000);
}

/** SIGKILL to the process group `leader` leads, if it leads one (debugpy starts a program as its group's leader). */
export function killProcessGroup(leader: number): void {
  if (process.platform === 'win32' || leader <= 1) return;
  try {
    process.kill(-leader, 'SIGKILL');
  } catch {
    // Not a group leader, or gone.
  }
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

async function waitGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 15)) {
    if (!pids.some(isProcessRunning)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pause));
  }
}

function childrenFromTaskFiles(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const tid of threads) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (child) children.push(Number(child));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return children;
}

function childrenFromScan(): (pid: number) => number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentLinks()) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  return (pid) => children.get(pid) ?? [];
}

function* parentLinks(): Generator<[number, number]> {
  for (const [pid, stat] of processStats()) yield [pid, stat.ppid];
}

function* processStats(): Generator<[number, ProcessStat]> {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) yield [Number(entry), stat];
  }
}

interface ProcessStat {
  state: string;
  ppid: number;
  session: number;
}

function readStat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), session: Number(fields[3]) };
  } catch {
    return undefined;
  }
}
