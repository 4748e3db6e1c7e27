/**
 * A debuggee must not outlive us. When our process dies without ending its sessions, the
 * inspector's socket closes, node drops our breakpoints and the program runs on as an orphan
 * (a busy loop runs until it ends by itself). On Linux, util-linux's `setpriv --pdeathsig`
 * makes the kernel kill the debuggee when we die; it then execs node, so the pid, argv and
 * environment the program sees are its own.
 */
import { execFileSync } from 'node:child_process';

let setprivWorks: boolean | undefined;

export function killedWithUs(command: string, args: string[]): { command: string; args: string[] } {
  if (!hasSetpriv()) return { command, args };
  return { command: 'setpriv', args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}

function hasSetpriv(): boolean {
  if (setprivWorks === undefined) {
    try {
      execFileSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 });
      setprivWorks = process.platform === 'linux';
    } catch {
      setprivWorks = false;
    }
  }
  return setprivWorks;
}
