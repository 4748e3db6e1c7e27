import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore, type StoredSession } from '../../src/core/sessionStore.js';

const sample = (id: string): StoredSession => ({
  sessionId: id,
  config: { language: 'python', program: '/p.py', args: [], cwd: '/', env: {}, stopOnEntry: false, exceptions: { filters: ['uncaught'] }, options: {} },
  breakpoints: [{ id: 1, kind: 'line', file: '/p.py', line: 3 }],
  savedAt: Date.now(),
});

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('SessionStore', () => {
  it('adopts the sessions of a server that is gone, once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    writeFileSync(join(dir, `sessions-${deadPid()}.json`), JSON.stringify({ sessions: [sample('python-1')] }));
    const store = new SessionStore(dir);
    expect(store.adoptOrphans().map((s) => s.sessionId)).toEqual(['python-1']);
    expect(new SessionStore(dir).adoptOrphans()).toEqual([]);
  });

  it('leaves the files of live servers alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    writeFileSync(join(dir, `sessions-${process.ppid}.json`), JSON.stringify({ sessions: [sample('python-2')] }));
    expect(new SessionStore(dir).adoptOrphans()).toEqual([]);
    expect(readdirSync(dir)).toContain(`sessions-${process.ppid}.json`);
  });

  it('writes its own file and removes it when nothing is left', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    const store = new SessionStore(dir);
    store.save([sample('python-3')]);
    expect(readdirSync(dir)).toEqual([`sessions-${process.pid}.json`]);
    store.save([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
