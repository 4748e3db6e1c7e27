/**
 * The package as a user gets it: `npm pack`, then `npm install -g` of the tarball into a fresh prefix.
 * With the prebuilt addon nothing is compiled and no build tool is installed; doctor and a Python
 * session through the MCP client work against the installed copy. Without a prebuild the addon is
 * built from source when cmake and a compiler are there, and when they are not, the install still
 * succeeds and the other languages work.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'dbb-package-'));
const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));
const onLinux = process.platform === 'linux';
const BUILD_TOOLS = ['cmake-js', 'node-addon-api', 'node-api-headers', 'prebuildify', 'typescript'];

function npm(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: options.cwd ?? work, env: options.env ?? process.env, encoding: 'utf8', timeout: 300_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Installs a tarball globally into a prefix of its own; returns the package folder. */
function installInto(prefix: string, tarball: string, env?: NodeJS.ProcessEnv): string {
  npm(['install', '-g', '--prefix', prefix, tarball], { env });
  return join(prefix, 'lib', 'node_modules', 'debugbridge');
}

function doctor(prefix: string): { code: number; out: string } {
  const r = spawnSync(join(prefix, 'bin', 'debugbridge'), ['doctor'], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout };
}

function sizeOf(folder: string): string {
  return execFileSync('du', ['-sh', '--apparent-size', folder], { encoding: 'utf8' }).split('\t')[0];
}

describe.runIf(onLinux && requireRuntime('python with debugpy', hasDebugpy))('the npm package, installed', () => {
  let tarball: string;
  beforeAll(() => {
    // dist/ is built by the test setup; --ignore-scripts keeps `prepare` from rebuilding it under running tests.
    const name = npm(['pack', '--ignore-scripts', '--pack-destination', work], { cwd: root }).trim().split('\n').at(-1)!;
    tarball = join(work, name);
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs with the prebuilt addon: nothing compiled, no build tool, doctor and a Python session work', async () => {
    const prefix = join(work, 'prefix');
    const pkg = installInto(prefix, tarball);
    expect(existsSync(join(pkg, 'build'))).toBe(false);
    expect(readdirSync(join(pkg, 'node_modules')).filter((d) => BUILD_TOOLS.includes(d))).toEqual([]);
    console.log(`installed size: ${sizeOf(prefix)} (package ${sizeOf(pkg)}, ${readdirSync(join(pkg, 'node_modules')).length} top-level dependencies)`);

    // npm sets new modification times on every file it installs: the catalog must still be current.
    const catalog = (await import(join(pkg, 'dist', 'server', 'toolCatalog.js'))) as typeof import('../../src/server/toolCatalog.js');
    const { VERSION } = (await import(join(pkg, 'dist', 'version.js'))) as typeof import('../../src/version.js');
    expect(catalog.loadCatalog(VERSION)?.tools.length).toBeGreaterThan(20);

    const { out } = doctor(prefix);
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
  });

  describe('on a platform with no prebuild', () => {
    let bare: string;
    beforeAll(() => {
      const unpacked = join(work, 'unpacked');
      mkdirSync(unpacked);
      execFileSync('tar', ['xzf', tarball, '-C', unpacked]);
      rmSync(join(unpacked, 'package', 'prebuilds'), { recursive: true });
      bare = join(work, 'no-prebuild.tgz');
      execFileSync('tar', ['czf', bare, '-C', unpacked, 'package']);
    });

    it('builds the addon from source when cmake and a compiler are there, fetching the build tools only for that', () => {
      if (!requireRuntime('cmake and a C++ compiler', hasCommand('cmake') && hasCommand('c++'))) return;
      const prefix = join(work, 'prefix-source');
      const pkg = installInto(prefix, bare);
      expect(readdirSync(join(pkg, 'build', 'Release')).filter((f) => f.endsWith('.node'))).toHaveLength(1);
      expect(existsSync(join(pkg, 'build-tools'))).toBe(false);
      expect(readdirSync(join(pkg, 'node_modules')).filter((d) => BUILD_TOOLS.includes(d))).toEqual([]);
      if (requireRuntime('dotnet', findDotnet() !== undefined)) expect(doctor(prefix).out).toMatch(/ok {7}dotnet/);
    });

    it('still installs without build tools, and the other languages work', () => {
      // A PATH with node and a shell but no cmake or compiler.
      const bin = join(work, 'bin-without-tools');
      mkdirSync(bin);
      for (const tool of ['node', 'npm', 'sh']) {
        const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
        symlinkSync(found, join(bin, tool));
      }
      const prefix = join(work, 'prefix-no-tools');
      installInto(prefix, bare, { ...process.env, PATH: bin });
      const { code, out } = doctor(prefix);
      expect(code).toBe(1);
      expect(out).toMatch(/ok {7}python/);
      expect(out).toMatch(/ok {7}node/);
      expect(out).toMatch(/MISSING {2}dotnet .*addon/);
    });
  });
});
