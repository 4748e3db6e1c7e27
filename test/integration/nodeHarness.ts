/** The engine harness for Node.js fixtures (`// BP:name` markers). */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onTestFinished } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { engine as nodeEngine } from '../../src/engines/node/index.js';
import { engineHarness } from '../support/engineHarness.js';

export { breakpointAt, launchConfig, lineOf, processAlive, Recorder, type Run } from '../support/engineHarness.js';
export const { fixturesDir, fixture, createRun, disposeAll } = engineHarness(nodeEngine, 'node');

/** Locals of the top frame's first scope, by name. */
export async function topLocals(engine: Engine): Promise<Map<string, { value: string; type?: string; ref: number }>> {
  const { frames } = await engine.stackTrace(1, 0, 1);
  const [scope] = await engine.scopes(frames[0].id);
  return new Map((await engine.variables(scope.ref)).map((v) => [v.name, v]));
}

/** Frames of the stopped thread as `name file:line`, the file relative to the fixtures folder. */
export async function frameLines(engine: Engine, threadId = 1, count = 5): Promise<string[]> {
  const { frames } = await engine.stackTrace(threadId, 0, count);
  return frames.map((f) => `${f.name} ${f.file?.replace(`${fixturesDir}/`, '') ?? '?'}:${f.line}${f.async ? ' async' : ''}`);
}

/**
 * A startup snapshot (late_wait_snapshot.js) for a node that answers the debugger for 1.5 s after
 * its inspector listens and before it waits: `node --snapshot-blob <it> --inspect-brk program`.
 * Built for the test that asks, and removed when it ends.
 */
export async function lateWaitSnapshot(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dbb-node-snapshot-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const blob = join(dir, 'late_wait.blob');
  await promisify(execFile)(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', fixture('late_wait_snapshot.js')]);
  return blob;
}
