/**
 * A process we start (a Node.js debuggee, debugpy's adapter, the .NET host and worker) must not
 * outlive us. When our process dies without ending its sessions, a Node.js debuggee's inspector
 * socket closes, node drops our breakpoints and the program runs on as an orphan (a busy loop runs
 * until it ends by itself). On Linux, util-linux's `setpriv --pdeathsig` makes the kernel kill the
 * process when we die; it then execs the command, so the pid, argv and environment the program
 * sees are its own.
 */
import { execFile, execFileSync } from 'node:child_process';

const PROBE = ['--pdeathsig', 'KILL', '--', 'true'];
let setprivWorks: boolean | undefined;
let probing: Promise<boolean> | undefined;

export function killedWithUs(command: string, args: string[]): { command: string; args: string[] } {
  if (!hasSetpriv()) return { command, args };
  return { command: 'setpriv', args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}

/** Finds out ahead, off the event loop, so that `killedWithUs` need not block on it (engines' detect starts it). */
export function probeParentDeathSignal(): Promise<boolean> {
  if (setprivWorks !== undefined) return Promise.resolve(setprivWorks);
  probing ??= new Promise((resolve) =>
    execFile('setpriv', PROBE, { timeout: 5000 }, (error) => {
      setprivWorks ??= !error && process.platform === 'linux';
      resolve(setprivWorks);
    }),
  );
  return probing;
}

function hasSetpriv(): boolean {
  if (setprivWorks === undefined) {
    try {
      execFileSync('setpriv', PROBE, { stdio: 'ignore', timeout: 5000 });
      setprivWorks = process.platform === 'linux';
    } catch {
      setprivWorks = false;
    }
  }
  return setprivWorks;
}
