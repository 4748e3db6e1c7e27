/**
 * The daemon's startup lock between real processes: of many that try at the same moment exactly
 * one gets it, also when a process that died left it behind, and it is free again once released.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { takeLock } from '../../src/daemon/startupLock.js';

const LOCK_MODULE = fileURLToPath(new URL('../../dist/daemon/startupLock.js', import.meta.url));
const CONTENDERS = 8;

/**
 * A process that, once everyone is ready, tries to take the lock, says what it got, and holds it
 * until its stdin closes.
 */
function contender(lock: string): { ready: Promise<void>; go(): void; result: Promise<string>; release(): void } {
  const script = `
    const { takeLock } = await import(${JSON.stringify(LOCK_MODULE)});
    console.log('ready');
    process.stdin.once('data', () => {
      const got = takeLock(${JSON.stringify(lock)});
      console.log('holder' in got ? 'holder ' + got.holder : 'took ' + process.pid);
      process.stdin.on('end', () => ('release' in got ? got.release() : undefined)).resume();
    });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    waiters.splice(0).forEach((wake) => wake());
  });
  const nth = (n: number) =>
    new Promise<string>((resolve) => {
      const check = () => (lines.length > n ? resolve(lines[n]) : waiters.push(check));
      check();
    });
  return { ready: nth(0).then(() => undefined), go: () => child.stdin.write('go\n'), result: nth(1), release: () => child.stdin.end() };
}

async function race(lock: string): Promise<{ took: number[]; heldBy: number[] }> {
  const contenders = Array.from({ length: CONTENDERS }, () => contender(lock));
  await Promise.all(contenders.map((c) => c.ready));
  for (const c of contenders) c.go();
  const results = await Promise.all(contenders.map((c) => c.result));
  for (const c of contenders) c.release();
  const pids = (word: string) => results.filter((r) => r.startsWith(`${word} `)).map((r) => Number(r.split(' ')[1]));
  return { took: pids('took'), heldBy: pids('holder') };
}

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout);
}

describe.runIf(process.platform !== 'win32')('daemon startup lock', () => {
  it('goes to exactly one of the processes that try at the same moment', async () => {
    const lock = join(mkdtempSync(join(tmpdir(), 'dbb-lock-')), 'daemon.lock');
    const { took, heldBy } = await race(lock);
    expect(took).toHaveLength(1);
    expect(heldBy).toHaveLength(CONTENDERS - 1);
    // Each loser names a holder that was alive when it looked: the winner.
    expect(new Set(heldBy)).toEqual(new Set(took));
  });

  it('is taken over from a process that died holding it, by exactly one of those that try', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-lock-'));
    const lock = join(dir, 'daemon.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, `${deadPid()}.0`), '');
    const { took, heldBy } = await race(lock);
    expect(took).toHaveLength(1);
    expect(new Set(heldBy)).toEqual(new Set(took));
  });

  it('is free again once released, and leaves nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-lock-'));
    const lock = join(dir, 'daemon.lock');
    const first = takeLock(lock);
    expect(takeLock(lock)).toEqual({ holder: process.pid });
    if (!('release' in first)) throw new Error('the free lock was not taken');
    first.release();
    expect(readdirSync(dir)).toEqual([]);
    const second = takeLock(lock);
    expect('release' in second).toBe(true);
    if ('release' in second) second.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
