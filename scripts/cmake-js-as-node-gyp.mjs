#!/usr/bin/env node
// prebuildify runs "<node-gyp> rebuild --target=V --devdir=D --arch=A --release"; this stands in for
// node-gyp and runs cmake-js instead. Only --arch and --debug/--release are passed on: in cmake-js
// --target names a CMake target, not a Node version (the addon is Node-API, version-independent).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
const args = ['rebuild'];
for (const arg of process.argv.slice(2)) {
  if (arg.startsWith('--arch=')) args.push('--arch', arg.slice('--arch='.length));
  if (arg === '--debug') args.push('--debug');
}
const result = spawnSync(process.execPath, [cmakeJs, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
