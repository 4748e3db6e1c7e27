/**
 * A command and everything it starts (a test runner's test host and workers, a build's nodes) as one
 * process group that ends with us. The command leads a group of its own; beside it, in the group, a
 * guard shell waits on a pipe from us. When the pipe closes — the command exited and we let its
 * group go, or we died, however (SIGKILL too) — the guard kills the whole group, so nothing the
 * command started outlives it or us. On Windows the command runs alone, as a plain child.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

const POSIX = process.platform !== 'win32';
const GUARD_FD = 3;
/**
 * The guard ignores the SIGTERM that asks the group to end (it kills what is left once the command
 * is gone) and keeps only its pipe; the command gets no fd 3.
 */
const GUARD = `(trap '' TERM; read line <&${GUARD_FD}; kill -s KILL 0) </dev/null >/dev/null 2>&1 & exec "$@" ${GUARD_FD}<&-`;

export interface GroupSpawn {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Starts `command` leading a guarded group, stdin closed, stdout and stderr piped. */
export function spawnGroup(command: string, args: string[], options: GroupSpawn): ChildProcess {
  if (!POSIX) return spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  const child = spawn('/bin/sh', ['-c', GUARD, 'debugbridge-group', command, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  const guard = child.stdio[GUARD_FD] as Socket | null;
  guard?.on('error', () => undefined);
  // Once the command is gone, what it left in its group goes too.
  child.once('exit', () => guard?.destroy());
  child.once('error', () => guard?.destroy());
  return child;
}

/** Sends `signal` to the group `spawnGroup` started (to the command alone on Windows). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (POSIX && child.pid) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

export interface CommandResult {
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** It ran past its time limit and was killed. */
  timedOut: boolean;
}

const MAX_OUTPUT_CHARS = 32 * 1024 * 1024;

/**
 * Runs a command to its end (a build, listing tests, probing a runner) in a guarded group; never
 * throws for a non-zero exit.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal },
): Promise<CommandResult> {
  return new Promise((resolvePromise) => {
    const child = spawnGroup(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    let failure: string | undefined;
    let timedOut = false;
    const stop = (why: string) => {
      failure ??= why;
      signalGroup(child, 'SIGKILL');
    };
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      timedOut = true;
      stop(`${command} took longer than ${timeoutMs} ms`);
    }, timeoutMs);
    const abort = () => stop(`${command} was cancelled`);
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.signal?.aborted) abort();
    const keep = (append: (text: string) => void) => (text: string) => {
      append(text);
      if (stdout.length + stderr.length > MAX_OUTPUT_CHARS) stop(`${command} wrote more than ${MAX_OUTPUT_CHARS} characters`);
    };
    child.stdout!.setEncoding('utf8').on('data', keep((text) => (stdout += text)));
    child.stderr!.setEncoding('utf8').on('data', keep((text) => (stderr += text)));
    child.once('error', (e) => (failure ??= e.message));
    child.once('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      resolvePromise({ code: failure ? undefined : (code ?? undefined), stdout, stderr: stderr || failure || '', timedOut });
    });
  });
}
