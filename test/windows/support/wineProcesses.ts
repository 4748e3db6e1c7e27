/**
 * Processes under Wine seen from Linux: each Windows process is a Linux process whose command line
 * holds its Windows command line, so "no process left behind" is checked by name from this side.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux pids of the live processes whose command line contains `needle` and not `unless` (case-insensitive). */
export function processesMatching(needle: string, unless?: string): number[] {
  const wanted = needle.toLowerCase();
  const unwanted = unless?.toLowerCase();
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
        const line = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').toLowerCase();
        return line.includes(wanted) && (unwanted === undefined || !line.includes(unwanted));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Waits until no process matches `needle`; answers the ones still there after `timeoutMs`. */
export async function waitNoneMatching(needle: string, timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = processesMatching(needle);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
