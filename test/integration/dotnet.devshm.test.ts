/**
 * The .NET startup handshake needs a writable /dev/shm. In a mount namespace where /dev/shm is a
 * read-only tmpfs, launching must fail at once with a clear error, never hang.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { requireRuntime } from '../support/runtimes.js';

const canUnshare = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('unshare', ['-m', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const available =
  requireRuntime('dotnet', process.platform !== 'linux' || findDotnet() !== undefined) &&
  requireRuntime('root with unshare -m (to hide /dev/shm)', canUnshare);

const engineModule = fileURLToPath(new URL('../../dist/engines/dotnet/index.js', import.meta.url));

describe.runIf(process.platform === 'linux' && available)('dotnet without a writable /dev/shm', () => {
  let hello: string;
  beforeAll(() => {
    hello = buildFixture('hello');
  });

  it('fails the launch quickly with LAUNCH_FAILED naming /dev/shm', () => {
    const script = `
      const { engine } = await import(${JSON.stringify(engineModule)});
      const e = engine.create({ emit() {}, log() {} });
      const config = { program: ${JSON.stringify('HELLO')}, args: [], cwd: process.cwd(), env: {}, stopOnEntry: false,
        breakpoints: [], functionBreakpoints: [], exceptions: { filters: [] }, options: {} };
      try { await e.launch(config); console.log(JSON.stringify({ ok: true })); }
      catch (err) { console.log(JSON.stringify({ code: err.code, message: err.message, hint: err.hint })); }
      await e.dispose();
    `.replace('"HELLO"', JSON.stringify(hello));
    const started = Date.now();
    const r = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o ro,size=1m tmpfs /dev/shm && exec "$0" --input-type=module -e "$1"', process.execPath, script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const answer = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { code?: string; message?: string; hint?: string };
    expect(answer.code, r.stderr).toBe('LAUNCH_FAILED');
    expect(`${answer.message} ${answer.hint}`).toMatch(/\/dev\/shm/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
