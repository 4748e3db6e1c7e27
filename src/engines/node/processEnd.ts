/** Ending a process we started: SIGTERM, then SIGKILL if it is still there after a grace period. */
import type { ChildProcess } from 'node:child_process';

export async function endChild(child: ChildProcess, graceMs = 1500): Promise<void> {
  if (hasEnded(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (await settlesWithin(gone, graceMs)) return;
  child.kill('SIGKILL');
  await settlesWithin(gone, 3000);
}

export function hasEnded(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM then SIGKILL for a process that is not our child (attach by pid). */
export async function endPid(pid: number, graceMs = 1500): Promise<void> {
  if (!signal(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    if (!signal(pid, 0)) return;
  }
  signal(pid, 'SIGKILL');
}

function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

async function settlesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([work.then(() => true as const), timeout]);
  clearTimeout(timer);
  return done;
}
