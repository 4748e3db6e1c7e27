/**
 * Children the proxy starts get a process group of their own, so a signal reaches whatever they
 * started in turn (`npm run` → sh → node), and a Ctrl-C meant for the proxy does not reach them
 * before the proxy has decided how to stop them.
 */
export const ownGroup = process.platform !== 'win32';

/** Signals the child's whole group; false when nothing was there to signal. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(ownGroup ? -pid : pid, signal);
    return true;
  } catch {
    return false;
  }
}
