import { readFileSync } from 'node:fs';

/** Whether a process exists (signal 0 checks without sending anything; EPERM: it exists, not ours). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a process still runs: alive and not a zombie or dying (an exited child waits as a zombie
 * until its parent reaps it, and signal 0 still finds it). Where /proc cannot tell, alive is enough.
 */
export function isProcessRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return process.platform !== 'linux';
  }
}
