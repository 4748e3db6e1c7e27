/**
 * `npm run prebuild` writes prebuilds/<platform>-<arch>/, and the engine's loader picks that binary
 * (before any local build) and it works: a fresh Node process loads it and runs a debug session.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/engines/dotnet/addon.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { requireRuntime } from '../support/runtimes.js';

const run = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);
const folder = join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`);

describe.runIf(run)('dotnet addon prebuild', () => {
  let hello: string;
  beforeAll(() => {
    hello = buildFixture('hello');
    // Rebuilds only when native/ changed since the committed prebuild (see scripts/prebuild.mjs).
    execFileSync(process.execPath, [join(packageRoot, 'scripts', 'prebuild.mjs')], { cwd: packageRoot, stdio: 'inherit', timeout: 600_000 });
  }, 620_000);

  it('writes a Node-API binary for this platform', () => {
    expect(existsSync(folder)).toBe(true);
    expect(readdirSync(folder).some((f) => f.endsWith('.node'))).toBe(true);
  });

  it('is what the engine loads, and it debugs a program', () => {
    const script = `
      const mod = await import(${JSON.stringify(join(packageRoot, 'dist', 'engines', 'dotnet', 'addon.js'))});
      mod.loadAddon();
      const { engine } = await import(${JSON.stringify(join(packageRoot, 'dist', 'engines', 'dotnet', 'index.js'))});
      const events = [];
      const e = engine.create({ emit: (ev) => events.push(ev), log: () => {} });
      await e.launch({ program: ${JSON.stringify(hello)}, args: [], cwd: process.cwd(), env: {}, stopOnEntry: false,
        breakpoints: [], functionBreakpoints: [], exceptions: { filters: ['uncaught'] }, options: {} });
      const deadline = Date.now() + 20000;
      while (!events.some((ev) => ev.type === 'terminated') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await e.dispose();
      console.log(JSON.stringify({ path: mod.loadedAddonPath, exit: events.find((ev) => ev.type === 'exited') }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim().split('\n').at(-1)!) as { path: string; exit?: { exitCode?: number } };
    expect(result.path.startsWith(folder)).toBe(true);
    expect(result.exit?.exitCode).toBe(7);
  });
});
