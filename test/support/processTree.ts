/** Process-tree checks for "no process left behind" tests (Linux /proc). */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (state, ppid, pgrp, …), or undefined for a process that is gone. */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? undefined : fields; // a zombie is already gone
  } catch {
    return undefined;
  }
}

/** The parent of `pid`, or undefined for a process that is gone. */
export function parentOf(pid: number): number | undefined {
  const fields = statOf(pid);
  return fields && Number(fields[1]);
}

/** The live processes of process group `group`. */
export function groupMembers(group: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(statOf(Number(name))?.[2]) === group)
    .map(Number);
}

/** Every live descendant of `root`. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** The process session `pid` belongs to (the pid of its leader), or undefined for a process that is gone. */
export function processSessionOf(pid: number): number | undefined {
  const fields = statOf(pid);
  return fields && Number(fields[3]);
}

export function isAlive(pid: number): boolean {
  return parentOf(pid) !== undefined;
}

/** Waits until none of `pids` is alive; returns those still alive after `timeoutMs`. */
export async function waitGone(pids: number[], timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter(isAlive);
  }
  return alive;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** CPU time `pid` has used (clock ticks, user and system), or undefined for a process that is gone. */
export function cpuTicks(pid: number): number | undefined {
  const fields = statOf(pid);
  return fields && Number(fields[11]) + Number(fields[12]);
}

/** Waits until `pid` uses no CPU for `quietMs` (done starting up); false after `timeoutMs`. */
export async function waitIdle(pid: number, quietMs = 1000, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let last = cpuTicks(pid);
  while (last !== undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, quietMs));
    const now = cpuTicks(pid);
    if (now === last) return true;
    last = now;
  }
  return false;
}

/** The nice value of `pid`'s main thread, or undefined for a process that is gone. */
export function niceOf(pid: number): number | undefined {
  const fields = statOf(pid);
  return fields && Number(fields[16]);
}
