/**
 * A test runner that runs beside the debugger (`dotnet test`, vitest's main process): our child
 * leading a guarded process group (core/processGroup.ts), so ending it ends what it started too
 * (the test host, workers, build nodes), and so does our death, however we die.
 */
import type { ChildProcess } from 'node:child_process';
import { signalGroup, spawnGroup } from '../core/processGroup.js';

export interface RunnerSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

const OUTPUT_KEPT_CHARS = 200_000;
const GRACE_MS = 1500;

export class RunnerProcess {
  /** Everything it printed (capped at the start), stdout and stderr interleaved as they came. */
  private text = '';
  private readonly listeners = new Set<() => void>();
  readonly exited: Promise<number | undefined>;

  private constructor(
    private readonly child: ChildProcess,
    onOutput: (category: 'stdout' | 'stderr', text: string) => void,
  ) {
    const read = (category: 'stdout' | 'stderr') => (chunk: string) => {
      this.text = (this.text + chunk).slice(-OUTPUT_KEPT_CHARS);
      onOutput(category, chunk);
      for (const listener of [...this.listeners]) listener();
    };
    child.stdout!.setEncoding('utf8').on('data', read('stdout'));
    child.stderr!.setEncoding('utf8').on('data', read('stderr'));
    this.exited = new Promise((resolve) => {
      child.once('error', () => resolve(undefined));
      child.once('close', (code) => resolve(code ?? undefined));
    });
    void this.exited.then(() => {
      for (const listener of [...this.listeners]) listener();
    });
  }

  static start(spec: RunnerSpec, onOutput: (category: 'stdout' | 'stderr', text: string) => void): RunnerProcess {
    const child = spawnGroup(spec.command, spec.args, { cwd: spec.cwd, env: { ...process.env, ...spec.env } });
    return new RunnerProcess(child, onOutput);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get output(): string {
    return this.text;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with what `find` reads from the output, or undefined if the runner ends first. */
  waitFor<T>(find: (output: string) => T | undefined, signal?: AbortSignal): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find(this.text);
        if (found !== undefined) done(found);
        else if (!this.running) done(undefined);
      };
      const abort = () => {
        cleanup();
        reject(signal?.reason ?? new Error('aborted'));
      };
      const done = (value: T | undefined) => {
        cleanup();
        resolve(value);
      };
      const cleanup = () => {
        this.listeners.delete(check);
        signal?.removeEventListener('abort', abort);
      };
      this.listeners.add(check);
      signal?.addEventListener('abort', abort, { once: true });
      check();
    });
  }

  /** SIGTERM to the whole group, SIGKILL after a grace period; resolves when the runner is gone. */
  async end(): Promise<void> {
    if (!this.running || !this.child.pid) return;
    signalGroup(this.child, 'SIGTERM');
    const gone = await Promise.race([this.exited.then(() => true), sleep(GRACE_MS).then(() => false)]);
    if (!gone) {
      signalGroup(this.child, 'SIGKILL');
      await Promise.race([this.exited, sleep(3000)]);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
