/**
 * The package as a user gets it: `npm pack`, then `npm install -g` of the tarball into a fresh prefix.
 * With the prebuilt addon nothing is compiled and no build tool is installed; doctor and a Python
 * session through the MCP client work against the installed copy. Without a prebuild the install
 * script builds the addon from source, and when that build fails (no cmake or compiler; a compiler
 * that fails) the install still succeeds, the build tools fetched for it are gone, and the other
 * languages work. The complete source build (about 1.5 CPU-minutes of C++ that would hold both
 * cores of a CI machine) is in `npm run test:heavy` (test/heavy/package-source-build.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { killRunningCommands } from '../support/commands.js';
import { BUILD_TOOLS, doctor, INSTALL_BUDGET_MS, installInto, pack, withoutPrebuilds } from '../support/npmPackage.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const work = mkdtempSync(join(tmpdir(), 'dbb-package-'));
const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));
const onLinux = process.platform === 'linux';
/** An install, doctor and a short session, each with its own budget. */
const TEST_BUDGET_MS = INSTALL_BUDGET_MS + 180_000;

function sizeOf(folder: string): string {
  return execFileSync('du', ['-sh', '--apparent-size', folder], { encoding: 'utf8' }).split('\t')[0];
}

describe.runIf(onLinux && requireRuntime('python with debugpy', hasDebugpy))('the npm package, installed', () => {
  let tarball: string;
  beforeAll(async () => {
    tarball = await pack(work);
  }, 180_000);
  afterAll(() => {
    killRunningCommands();
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'installs with the prebuilt addon: nothing compiled, no build tool, doctor and a Python session work',
    async () => {
      const prefix = join(work, 'prefix');
      const { pkg } = await installInto(prefix, tarball);
      expect(existsSync(join(pkg, 'build'))).toBe(false);
      expect(readdirSync(join(pkg, 'node_modules')).filter((d) => BUILD_TOOLS.includes(d))).toEqual([]);
      console.log(`installed size: ${sizeOf(prefix)} (package ${sizeOf(pkg)}, ${readdirSync(join(pkg, 'node_modules')).length} top-level dependencies)`);

      // npm sets new modification times on every file it installs: the catalog must still be current.
      const catalog = (await import(join(pkg, 'dist', 'server', 'toolCatalog.js'))) as typeof import('../../src/server/toolCatalog.js');
      const { VERSION } = (await import(join(pkg, 'dist', 'version.js'))) as typeof import('../../src/version.js');
      expect(catalog.loadCatalog(VERSION)?.tools.length).toBeGreaterThan(20);

      const { out } = await doctor(prefix);
      expect(out).toMatch(/ok {7}python/);
      if (requireRuntime('dotnet', findDotnet() !== undefined)) expect(out).toMatch(/ok {7}dotnet/);

      const program = join(pkg, 'samples', 'python', 'orders.py');
      const client = await McpTestClient.start({ command: join(prefix, 'bin', 'debugbridge'), args: [], env: { DEBUGBRIDGE_STATE_DIR: join(work, 'state') } });
      try {
        const launched = await client.call('session_launch', { program, breakpoints: [{ file: program, line: markerLine(program, 'DEMO:total') }], waitForStop: true });
        expect(launched.text).toMatch(/Stopped at breakpoint #1 in compute_total \(orders\.py:\d+\)/);
        expect((await client.call('inspect_evaluate', { expression: 'price * item["qty"]' })).text).toMatch(/7\.5/);
        expect((await client.call('session_stop')).isError).toBe(false);
      } finally {
        await client.close();
      }
    },
    TEST_BUDGET_MS,
  );

  describe('on a platform with no prebuild', () => {
    let bare: string;
    beforeAll(() => {
      bare = withoutPrebuilds(tarball, work);
    });

    it(
      'still installs when the source build fails, with the build tools fetched for it gone again, and the other languages work',
      async () => {
        if (!requireRuntime('cmake', hasCommand('cmake'))) return;
        const prefix = join(work, 'prefix-failing-build');
        // A compiler that fails: the source build runs up to the compiler check and fails there.
        const { pkg, log } = await installInto(prefix, bare, { env: { ...process.env, CXX: 'false' } });
        expect(log).toMatch(/fetching the addon's build tools \(cmake-js@/);
        expect(log).toMatch(/the \.NET debugger addon could not be built \(cmake-js exited with 1\)/);
        // It built in the installed package, nowhere else.
        expect(existsSync(join(pkg, 'build', 'CMakeFiles'))).toBe(true);
        expect(existsSync(join(pkg, 'build-tools'))).toBe(false);
        expect(readdirSync(join(pkg, 'node_modules')).filter((d) => BUILD_TOOLS.includes(d))).toEqual([]);
        const { code, out } = await doctor(prefix);
        expect(code).toBe(1);
        expect(out).toMatch(/ok {7}python/);
        expect(out).toMatch(/MISSING {2}dotnet .*addon/);
      },
      TEST_BUDGET_MS,
    );

    it(
      'still installs without build tools, and the other languages work',
      async () => {
        // A PATH with node and a shell but no cmake or compiler.
        const bin = join(work, 'bin-without-tools');
        mkdirSync(bin);
        for (const tool of ['node', 'npm', 'sh']) {
          const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
          symlinkSync(found, join(bin, tool));
        }
        const prefix = join(work, 'prefix-no-tools');
        const { log } = await installInto(prefix, bare, { env: { ...process.env, PATH: bin } });
        expect(log).toMatch(/the \.NET debugger addon could not be built \(cmake is not installed\)/);
        const { code, out } = await doctor(prefix);
        expect(code).toBe(1);
        expect(out).toMatch(/ok {7}python/);
        expect(out).toMatch(/ok {7}node/);
        expect(out).toMatch(/MISSING {2}dotnet .*addon/);
      },
      TEST_BUDGET_MS,
    );
  });
});
