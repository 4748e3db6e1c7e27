#!/usr/bin/env node
// Builds the .NET debugger addon from source with cmake-js (offline: package.json "binary" makes it
// use node-api-headers). In a clone cmake-js and the headers are devDependencies; an installed package
// has none of them, so when cmake and a C++ compiler are here they are fetched into build-tools/ for
// this one build (the versions package.json names) and removed afterwards. With --optional (the npm
// install script) a failure is loud on stderr but not fatal: Python and Node.js debugging still work,
// and languages_list / doctor explain why .NET is missing.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const optional = process.argv.includes('--optional');
const BUILD_TOOLS = ['cmake-js', 'node-addon-api', 'node-api-headers'];

function fail(why) {
  process.stderr.write(
    [
      '',
      `!!! debugbridge: the .NET debugger addon could not be built (${why}).`,
      `!!! No prebuilt binary matches ${process.platform}-${process.arch} either, so .NET debugging is unavailable.`,
      '!!! Python and Node.js debugging work. To fix: install cmake and a C++17 compiler, then run',
      `!!!   npm run build:native   (in ${root})`,
      '',
    ].join('\n'),
  );
  process.exit(optional ? 0 : 1);
}

function runs(command, args = ['--version']) {
  return spawnSync(command, args, { stdio: 'ignore', shell: process.platform === 'win32' }).status === 0;
}

/** cmake-js as the clone has it, or undefined. */
function localCmakeJs() {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('cmake-js/package.json')), 'bin', 'cmake-js');
  } catch {
    return undefined;
  }
}

/** Installs the build tools into build-tools/ with the npm that runs this install (or the one on PATH). */
function fetchBuildTools(folder) {
  const wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies ?? {};
  const specs = BUILD_TOOLS.map((name) => (wanted[name] ? `${name}@${wanted[name]}` : name));
  // An enclosing `npm install -g` passes its own settings down; this install is local to build-tools/.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_config_(global|location|prefix|save.*|omit|include|dry_run|package_lock.*|workspaces?)$/i.test(key)),
  );
  const npmCli = process.env.npm_execpath;
  const [command, prefixArgs] = npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
  const args = [...prefixArgs, 'install', '--prefix', folder, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', ...specs];
  process.stderr.write(`debugbridge: fetching the addon's build tools (${specs.join(', ')})\n`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'], shell: command === 'npm' && process.platform === 'win32' });
  if (result.status !== 0) return undefined;
  return join(folder, 'node_modules', 'cmake-js', 'bin', 'cmake-js');
}

let cmakeJs = localCmakeJs();
let toolsFolder;
const env = { ...process.env };
if (!cmakeJs) {
  if (!runs('cmake')) fail('cmake is not installed');
  const compiler = process.env.CXX ?? (process.platform === 'win32' ? undefined : ['c++', 'g++', 'clang++'].find((c) => runs(c)));
  if (process.platform !== 'win32' && !compiler) fail('no C++ compiler (c++, g++ or clang++) is installed');
  toolsFolder = join(root, 'build-tools');
  cmakeJs = fetchBuildTools(toolsFolder);
  if (!cmakeJs) fail('the build tools could not be installed from the npm registry');
  // CMakeLists.txt and cmake-js find node-addon-api through Node's resolution.
  env.NODE_PATH = [join(toolsFolder, 'node_modules'), process.env.NODE_PATH].filter(Boolean).join(delimiter);
}

const result = spawnSync(process.execPath, [cmakeJs, 'compile', '--release'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
if (toolsFolder) rmSync(toolsFolder, { recursive: true, force: true });
if (result.status !== 0) fail(result.error ? result.error.message : `cmake-js exited with ${result.status}`);
