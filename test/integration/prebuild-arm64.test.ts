/**
 * The linux-arm64 prebuild is cross-compiled on x64 (scripts/prebuild.mjs --arch=arm64, Debian's
 * g++-aarch64-linux-gnu): this rebuilds it when native/ changed since it was built, then reads its
 * ELF header and imports: an AArch64 shared object that needs Node-API, libc and the C++ runtime only,
 * and exports the Node-API module entry. (Loading it needs an arm64 node: checked by hand under
 * qemu-aarch64 with Debian's arm64 nodejs; see docs/architecture.md.)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/engines/dotnet/addon.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const folder = join(packageRoot, 'prebuilds', 'linux-arm64');
const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64';
const run = onLinuxX64 && requireRuntime('the aarch64 cross toolchain (apt-get install g++-aarch64-linux-gnu)', hasCommand('aarch64-linux-gnu-g++'));
const LIBRARIES = ['libc.so.6', 'libm.so.6', 'libdl.so.2', 'libpthread.so.0', 'libgcc_s.so.1', 'libstdc++.so.6', 'ld-linux-aarch64.so.1'];
/** Weak hooks every GCC-built object refers to; nothing has to provide them. */
const TOOLCHAIN_HOOKS = ['__gmon_start__', '_ITM_registerTMCloneTable', '_ITM_deregisterTMCloneTable'];

const readelf = (...args: string[]) => execFileSync('readelf', ['-W', ...args], { encoding: 'utf8' });

describe.runIf(run)('linux-arm64 prebuild (cross-compiled)', () => {
  let binary: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(packageRoot, 'scripts', 'prebuild.mjs'), '--arch=arm64'], { cwd: packageRoot, stdio: 'inherit', timeout: 600_000 });
    binary = join(folder, readdirSync(folder).find((f) => f.endsWith('.node'))!);
  }, 620_000);

  it('is a 64-bit AArch64 shared object', () => {
    const header = readelf('-h', binary);
    expect(header).toMatch(/Class:\s+ELF64/);
    expect(header).toMatch(/Type:\s+DYN/);
    expect(header).toMatch(/Machine:\s+AArch64/);
  });

  it('needs only Node-API, libc and the C++ runtime, and exports the module entry', () => {
    const needed = [...readelf('-d', binary).matchAll(/\(NEEDED\)\s+Shared library: \[(.+)\]/g)].map((m) => m[1]);
    expect(needed.filter((lib) => !LIBRARIES.includes(lib))).toEqual([]);
    const symbols = readelf('--dyn-syms', binary)
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f.length >= 8 && /^\d+:$/.test(f[0]));
    const imports = symbols.filter((f) => f[6] === 'UND' && f[7]).map((f) => f[7]);
    // Every import is Node-API or versioned by glibc / libstdc++ / libgcc: none from node, V8 or libuv.
    const foreign = imports.filter((s) => !s.startsWith('napi_') && !/@(GLIBC|GLIBCXX|CXXABI|GCC)_/.test(s) && !TOOLCHAIN_HOOKS.includes(s));
    expect(foreign).toEqual([]);
    expect(imports.some((s) => s.startsWith('napi_'))).toBe(true);
    expect(symbols.some((f) => f[6] !== 'UND' && f[7] === 'napi_register_module_v1')).toBe(true);
  });
});
