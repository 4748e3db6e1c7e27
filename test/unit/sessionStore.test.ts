import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionManager } from '../../src/core/sessionManager.js';
import { MAX_RECOVERABLE, RECOVERABLE_MS, SessionStore, type StoredSession } from '../../src/core/sessionStore.js';

const HERE = '/work/project';

const sample = (id: string): StoredSession => ({
  sessionId: id,
  config: { language: 'python', program: '/p.py', args: [], cwd: '/', env: {}, stopOnEntry: false, exceptions: { filters: ['uncaught'] }, options: {} },
  breakpoints: [{ id: 1, kind: 'line', file: '/p.py', line: 3 }],
  savedAt: Date.now(),
});

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

/** A file as a server that ran in `cwd` left it. */
function leftBy(dir: string, pid: number, cwd: string, ids: string[], ageMs = 0): string {
  const name = `sessions-${pid}.json`;
  writeFileSync(join(dir, name), JSON.stringify({ pid, cwd, sessions: ids.map(sample) }));
  if (ageMs) {
    const then = new Date(Date.now() - ageMs);
    utimesSync(join(dir, name), then, then);
  }
  return name;
}

describe('SessionStore', () => {
  it('adopts the sessions of a server of the same folder that is gone, once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    leftBy(dir, deadPid(), HERE, ['python-1']);
    const store = new SessionStore(dir, HERE);
    expect(store.adoptOrphans().map((s) => s.sessionId)).toEqual(['python-1']);
    expect(new SessionStore(dir, HERE).adoptOrphans()).toEqual([]);
  });

  it('leaves the files of live servers alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    const name = leftBy(dir, process.ppid, HERE, ['python-2']);
    expect(new SessionStore(dir, HERE).adoptOrphans()).toEqual([]);
    expect(readdirSync(dir)).toContain(name);
  });

  it("leaves another folder's sessions to that folder's next server", () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    const name = leftBy(dir, deadPid(), '/work/other-project', ['python-3']);
    expect(new SessionStore(dir, HERE).adoptOrphans()).toEqual([]);
    expect(readdirSync(dir)).toContain(name);
    expect(new SessionStore(dir, '/work/other-project').adoptOrphans().map((s) => s.sessionId)).toEqual(['python-3']);
  });

  it('does not offer sessions of a server that ended long ago, and drops their file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    leftBy(dir, deadPid(), HERE, ['python-4'], RECOVERABLE_MS + 60_000);
    expect(new SessionStore(dir, HERE).adoptOrphans()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the time a session was first left behind: passing it on does not make it recent again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    const longAgo = Date.now() - RECOVERABLE_MS - 60_000;
    const name = `sessions-${deadPid()}.json`;
    const carried = { ...sample('python-5'), orphanedAt: longAgo };
    writeFileSync(join(dir, name), JSON.stringify({ cwd: HERE, sessions: [carried, sample('python-6')] }));
    expect(new SessionStore(dir, HERE).adoptOrphans().map((s) => s.sessionId)).toEqual(['python-6']);
  });

  it(`offers the ${MAX_RECOVERABLE} most recent orphans at most`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    const ids = Array.from({ length: MAX_RECOVERABLE + 3 }, (_, i) => `python-${i + 1}`);
    ids.forEach((id, i) => leftBy(dir, deadPid(), HERE, [id], (ids.length - i) * 60_000));
    expect(new SessionStore(dir, HERE).adoptOrphans().map((s) => s.sessionId)).toEqual(ids.slice(-MAX_RECOVERABLE).reverse());
  });

  it('writes its own file and removes it when nothing is left', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    const store = new SessionStore(dir, HERE);
    store.save([sample('python-3')]);
    expect(readdirSync(dir)).toEqual([`sessions-${process.pid}.json`]);
    store.save([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('session ids', () => {
  it("start at 1 in a fresh server, whatever other projects' servers left behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    leftBy(dir, deadPid(), '/work/other-project', ['python-1', 'python-2', 'python-3', 'python-4']);
    const manager = new SessionManager({ store: new SessionStore(dir, HERE) });
    expect(manager.recoverableSessions()).toEqual([]);
    const session = await manager.create(sample('unused').config, []);
    expect(session.id).toBe('python-1');
    await manager.disposeAll();
  });
});

describe('what a server leaves recoverable', () => {
  it('its live sessions, never a test run (debug_test)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-store-'));
    const store = new SessionStore(dir, HERE);
    const manager = new SessionManager({ store });
    const program = await manager.create(sample('unused').config, []);
    const factory = await manager.registry.load('python');
    const testRun = await manager.create(sample('unused').config, [], undefined, undefined, { ...factory });
    // Both "live": a session that has not started counts as active.
    expect([program.active, testRun.active]).toEqual([true, true]);
    manager.persist();
    const saved = JSON.parse(readFileSync(store.path, 'utf8')) as { sessions: StoredSession[] };
    expect(saved.sessions.map((s) => s.sessionId)).toEqual([program.id]);
    await manager.disposeAll();
  });
});
