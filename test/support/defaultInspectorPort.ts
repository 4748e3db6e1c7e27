/**
 * Node's attach by pid opens the inspector on 127.0.0.1:9229, one port for the whole machine: test
 * files that run side by side take turns at it through a lock folder (a dead holder's lock is taken over).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOCK = join(tmpdir(), 'debugbridge-tests-port-9229.lock');

function holderAlive(): boolean {
  try {
    process.kill(Number(readFileSync(join(LOCK, 'pid'), 'utf8')), 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function withDefaultInspectorPort<T>(run: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (!holderAlive()) rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`port 9229 stayed taken by another test file for ${timeoutMs} ms`);
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await run();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
