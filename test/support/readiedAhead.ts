/**
 * What a server readies ahead of Python launches (a spare debugpy adapter, a ready debuggee) belongs
 * to no session and ends with the server: process checks of a session leave it out.
 */
import { commandLine, descendants, isAlive } from './processTree.js';

/** Whether a command line is our debugpy adapter's (its bootstrap). */
export function isPythonAdapter(cmd: string): boolean {
  return cmd.includes('_end_session_with_server') && cmd.includes('debugpy.adapter');
}

/** A ready debuggee's launcher and program run the ready launcher file (readyLauncher.ts). */
export const READY_LAUNCHER_FILE = '_debugpy_launcher.py';

/**
 * The processes of a server's tree (`pids`) that it readies ahead of launches and keeps for the
 * next one (they belong to no session and end with the server): a spare debugpy adapter, and the
 * adapter of a ready debuggee with its launcher and program, which run the ready launcher file. At
 * most two such adapters, none of them one a session used (`used`), nothing under them but that file.
 */
export function readiedAhead(pids: number[], used: number[]): Set<number> {
  const readied = new Set<number>();
  let adapters = 0;
  for (const pid of pids) {
    if (adapters === 2 || used.includes(pid) || !isAlive(pid) || !isPythonAdapter(commandLine(pid))) continue;
    const below = descendants(pid);
    if (!below.every((child) => commandLine(child).includes(READY_LAUNCHER_FILE))) continue;
    adapters++;
    for (const member of [pid, ...below]) readied.add(member);
  }
  return readied;
}
