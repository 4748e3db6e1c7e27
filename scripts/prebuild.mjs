#!/usr/bin/env node
// `npm run build:prebuild [-- --platform=win32] [-- --arch=arm64] [-- --force]`: builds the addon with
// prebuildify (driving cmake-js) into prebuilds/<platform>-<arch>/, stripped, Node-API tagged. A
// SOURCES.sha256 beside the binary records which native sources it was built from; when they have not
// changed the build is skipped (--force rebuilds anyway). A --platform or --arch other than this
// machine's cross-compiles where a toolchain is known (on Linux x64: linux-arm64 with Debian's
// g++-aarch64-linux-gnu, win32-x64 with g++-mingw-w64-x86-64-posix).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const force = process.argv.includes('--force');
const archArg = process.argv.find((a) => a.startsWith('--arch='));
const arch = archArg ? archArg.slice('--arch='.length) : process.env.PREBUILD_ARCH || process.arch;
const platformArg = process.argv.find((a) => a.startsWith('--platform='));
const platform = platformArg ? platformArg.slice('--platform='.length) : process.platform;
const target = `${platform}-${arch}`;
const folder = join(root, 'prebuilds', target);
const stamp = join(folder, 'SOURCES.sha256');

/** Cross toolchains by target, when it is not this machine's own platform. */
const CROSS = {
  'linux-arm64': { toolchain: join(root, 'scripts', 'toolchains', 'linux-arm64.cmake'), compiler: 'aarch64-linux-gnu-g++', strip: 'aarch64-linux-gnu-strip', apt: 'g++-aarch64-linux-gnu' },
  'win32-x64': { toolchain: join(root, 'scripts', 'toolchains', 'win32-x64.cmake'), compiler: 'x86_64-w64-mingw32-g++-posix', strip: 'x86_64-w64-mingw32-strip', apt: 'g++-mingw-w64-x86-64-posix' },
};

function files(dir) {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    })
    .sort();
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const file of [join(root, 'CMakeLists.txt'), ...files(join(root, 'native'))]) {
    hash.update(relative(root, file).replaceAll('\\', '/'));
    hash.update(readFileSync(file, 'utf8').replaceAll('\r\n', '\n'));
  }
  return hash.digest('hex');
}

const hash = sourceHash();
const hasBinary = existsSync(folder) && readdirSync(folder).some((f) => f.endsWith('.node'));
if (!force && hasBinary && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash) {
  process.stderr.write(`prebuild: ${relative(root, folder)} is up to date with native/ (use --force to rebuild)\n`);
  process.exit(0);
}

const cross = platform === process.platform && arch === process.arch ? undefined : CROSS[target];
if (cross) {
  buildCross(cross);
} else if (platform === process.platform) {
  buildNative();
} else {
  process.stderr.write(`prebuild: no cross toolchain is known for ${target} on ${process.platform}-${process.arch}\n`);
  process.exit(1);
}
writeFileSync(stamp, `${hash}\n`);
process.stderr.write(`prebuild: wrote ${relative(root, folder)}\n`);

/** This machine's own platform: prebuildify drives cmake-js (through the node-gyp stand-in) in build/. */
function buildNative() {
  const prebuildify = join(dirname(require.resolve('prebuildify/package.json')), 'bin.js');
  const nodeGyp = join(root, 'scripts', process.platform === 'win32' ? 'cmake-js-as-node-gyp.cmd' : 'cmake-js-as-node-gyp.mjs');
  const startedAt = Date.now();
  const result = spawnSync(process.execPath, [prebuildify, '--napi', '--strip', `--arch=${arch}`, '--node-gyp', nodeGyp], { cwd: root, stdio: 'inherit' });
  const built =
    existsSync(folder) && readdirSync(folder).some((f) => f.endsWith('.node') && statSync(join(folder, f)).mtimeMs >= startedAt - 2_000);
  // prebuildify can report a failed node-gyp run and still exit 0: check that a binary was written.
  if (result.status !== 0 || !built) failed(result.status);
}

/**
 * Another platform: cmake-js with the target's toolchain file, in a build folder of its own (build/
 * is this machine's, and node-gyp-build would load a foreign binary found there), then strip.
 */
function buildCross(cross) {
  if (spawnSync(cross.compiler, ['--version'], { stdio: 'ignore' }).status !== 0) {
    process.stderr.write(`prebuild: cross-compiling for ${target} needs ${cross.compiler} (Debian/Ubuntu: apt-get install ${cross.apt})\n`);
    process.exit(1);
  }
  const out = join(root, `build-${target}`);
  const cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
  const result = spawnSync(process.execPath, [cmakeJs, 'rebuild', '--arch', arch, '--out', out, `--CDCMAKE_TOOLCHAIN_FILE=${cross.toolchain}`], { cwd: root, stdio: 'inherit' });
  // A DLL is a runtime output, which cmake-js does not direct into Release/.
  const binary = [join(out, 'Release', 'debugbridge_dotnet.node'), join(out, 'debugbridge_dotnet.node')].find((f) => existsSync(f));
  if (result.status !== 0 || !binary) failed(result.status);
  mkdirSync(folder, { recursive: true });
  const dest = join(folder, 'debugbridge.node');
  copyFileSync(binary, dest);
  rmSync(out, { recursive: true, force: true });
  if (spawnSync(cross.strip, ['--strip-all', dest], { stdio: 'inherit' }).status !== 0) failed(1);
}

function failed(status) {
  process.stderr.write('prebuild: FAILED, no binary was written\n');
  process.exit(status || 1);
}
