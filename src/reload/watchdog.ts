/**
 * The proxy's side of the watchdog (see watchdogMain.ts): an MCP server that ignores both the end
 * of its stdin and SIGTERM would outlive a proxy killed with SIGKILL; the watchdog ends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export class Watchdog {
  private constructor(private readonly child: ChildProcess) {}

  static start(killTimeoutMs: number): Watchdog {
    const script = fileURLToPath(new URL('./watchdogMain.js', import.meta.url));
    const child = spawn(process.execPath, [script, String(killTimeoutMs), String(process.pid)], {
      stdio: ['pipe', 'ignore', 'inherit'],
      detached: true,
      windowsHide: true,
    });
    child.stdin!.on('error', () => {});
    child.on('error', () => {});
    child.unref();
    return new Watchdog(child);
  }

  guard(pid: number): void {
    this.child.stdin!.write(`+${pid}\n`);
  }

  release(pid: number): void {
    this.child.stdin!.write(`-${pid}\n`);
  }

  /** Everything was stopped in order: the watchdog finds nothing to end and exits. */
  close(): void {
    this.child.stdin!.end();
  }
}
