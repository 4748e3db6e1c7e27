/**
 * Commands a test runs that start processes of their own (npm, and the builds its install scripts
 * run), each in a process group of its own with a time budget: a command that outruns its budget is
 * killed with every process it started, so is one still running when its test file ends
 * (`killRunningCommands` in afterAll), and what a command leaves running after it exited (past a
 * grace period for processes that end when it does, such as a child whose stdin it held) is
 * reported and ended, so that a test can demand that nothing outlives it. Linux process checks.
 */
import { spawn } from 'node:child_process';
import { groupMembers, waitGone } from './processTree.js';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Processes the command started that were still running LEFTOVER_GRACE_MS after it exited (they are killed). */
  leftovers: number[];
}

export interface CommandOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** How long the command may take on a busy CI machine before it counts as hung. */
  budgetMs: number;
}

const LEFTOVER_GRACE_MS = 15_000;
const running = new Set<number>();

export async function runCommand(command: string, args: string[], options: CommandOptions): Promise<Finished> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  const group = child.pid;
  if (group === undefined) throw new Error(`${command} did not start`);
  running.add(group);
  let outran = false;
  const timer = setTimeout(() => {
    outran = true;
    killGroup(group);
  }, options.budgetMs);
  try {
    const code = await exited;
    const leftovers = await waitGone(groupMembers(group), LEFTOVER_GRACE_MS);
    killGroup(group); // also closes output pipes a leftover held open
    await closed;
    if (outran) throw new Error(`\`${command} ${args.join(' ')}\` took longer than its budget of ${options.budgetMs / 1000} s and was killed with every process it started.\n${tail(stderr)}`);
    return { code, stdout, stderr, leftovers };
  } finally {
    clearTimeout(timer);
    running.delete(group);
  }
}

/** Runs the command and answers its stdout; throws with its stderr when it fails or leaves processes running. */
export async function mustRun(command: string, args: string[], options: CommandOptions): Promise<string> {
  const done = await runCommand(command, args, options);
  if (done.code !== 0) throw new Error(`\`${command} ${args.join(' ')}\` exited with ${done.code}:\n${tail(done.stderr)}`);
  if (done.leftovers.length) throw new Error(`\`${command} ${args.join(' ')}\` left processes running: ${done.leftovers.join(', ')}`);
  return done.stdout;
}

/** Kills every command still running, with what it started (for afterAll). */
export function killRunningCommands(): void {
  for (const group of running) killGroup(group);
  running.clear();
}

function killGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group
  }
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-30).join('\n');
}
