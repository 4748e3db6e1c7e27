/**
 * The win32-x64 prebuild is cross-compiled on Linux x64 with mingw-w64 (scripts/prebuild.mjs
 * --platform=win32, Debian's g++-mingw-w64-x86-64-posix): this rebuilds it when native/ changed since
 * it was built, then reads its PE headers: a 64-bit DLL that imports Node-API from node.exe and
 * otherwise only Windows' own system DLLs (the mingw C++ and thread runtimes linked in, so no
 * libstdc++-6.dll or libwinpthread-1.dll has to ship beside it), and exports the Node-API module entry.
 * Loading it and debugging with it under Windows node.exe is `npm run test:windows` (Wine).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/engines/dotnet/addon.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const folder = join(packageRoot, 'prebuilds', 'win32-x64');
const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64';
const run =
  onLinuxX64 && requireRuntime('the mingw-w64 cross toolchain (apt-get install g++-mingw-w64-x86-64-posix)', hasCommand('x86_64-w64-mingw32-g++-posix'));
/** DLLs every Windows has: the addon may import from these and from node.exe, nothing else. */
const SYSTEM_DLLS = ['kernel32.dll', 'msvcrt.dll', 'bcrypt.dll', 'advapi32.dll', 'user32.dll', 'ws2_32.dll', 'ntdll.dll'];

const objdump = (...args: string[]) => execFileSync('x86_64-w64-mingw32-objdump', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** Imported names by DLL, from `objdump -p`'s import tables. */
function importsByDll(dump: string): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of dump.split('\n')) {
    const dll = /^\s*DLL Name: (\S+)/.exec(line);
    if (dll) imports.set(dll[1]!.toLowerCase(), (current = []));
    else if (current && /^\s*$/.test(line)) current = undefined;
    else if (current) {
      const member = /^\s*[0-9a-f]+\s+\d+\s+(\S+)/.exec(line);
      if (member) current.push(member[1]!);
    }
  }
  return imports;
}

describe.runIf(run)('win32-x64 prebuild (cross-compiled with mingw-w64)', () => {
  let binary: string;
  let dump: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(packageRoot, 'scripts', 'prebuild.mjs'), '--platform=win32', '--arch=x64'], {
      cwd: packageRoot,
      stdio: 'inherit',
      timeout: 600_000,
    });
    binary = join(folder, readdirSync(folder).find((f) => f.endsWith('.node'))!);
    dump = objdump('-p', binary);
  }, 620_000);

  it('is a 64-bit Windows DLL', () => {
    expect(objdump('-f', binary)).toMatch(/file format pei-x86-64/);
    expect(dump).toMatch(/Magic\s+020b\s+\(PE32\+\)/);
    expect(dump).toMatch(/Characteristics 0x[0-9a-f]+\n(\t.*\n)*\tDLL\n/);
  });

  it('imports Node-API from node.exe and otherwise only system DLLs, and exports the module entry', () => {
    const imports = importsByDll(dump);
    const dlls = [...imports.keys()];
    expect(dlls.filter((dll) => dll !== 'node.exe' && !SYSTEM_DLLS.includes(dll))).toEqual([]);
    expect(dlls.some((dll) => /winpthread|libstdc\+\+|libgcc/.test(dll))).toBe(false);
    const fromNode = imports.get('node.exe') ?? [];
    expect(fromNode.length).toBeGreaterThan(10);
    expect(fromNode.filter((name) => !name.startsWith('napi_') && !name.startsWith('node_api_'))).toEqual([]);
    const exports = dump.slice(dump.indexOf('[Ordinal/Name Pointer] Table'));
    expect(exports).toMatch(/\] napi_register_module_v1\b/);
  });
});
