/**
 * Runs the `--build` command in a shell. Its output goes to the proxy's stderr (stdout belongs to
 * the protocol) and its tail is kept for the report to the client when it fails.
 */
import { spawn } from 'node:child_process';
import { ownGroup, signalGroup } from './processGroup.js';

export interface BuildResult {
  ok: boolean;
  /** "exit code 2", "signal SIGTERM", or why it could not start. */
  outcome: string;
  outputTail: string;
  durationMs: number;
}

export interface RunningBuild {
  result: Promise<BuildResult>;
  cancel(): void;
}

const tailChars = 2000;

export function runBuild(command: string): RunningBuild {
  const started = Date.now();
  const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'], detached: ownGroup, windowsHide: true });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    process.stderr.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-tailChars);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const result = new Promise<BuildResult>((resolve) => {
    const finish = (ok: boolean, outcome: string): void => resolve({ ok, outcome, outputTail: tail.trim(), durationMs: Date.now() - started });
    child.once('error', (error) => finish(false, `could not start: ${error.message}`));
    child.once('close', (code, signal) => finish(code === 0, signal ? `signal ${signal}` : `exit code ${code}`));
  });
  return {
    result,
    cancel: () => {
      if (child.pid !== undefined && child.exitCode === null) signalGroup(child.pid, 'SIGTERM');
    },
  };
}
