#!/usr/bin/env node
// Builds the .NET debugger addon from source with cmake-js (offline: package.json "binary" makes it
// use node-api-headers). With --optional (npm install) a failure is loud on stderr but not fatal:
// the server still runs Python and Node, and languages_list explains why .NET is missing.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const optional = process.argv.includes('--optional');
const require = createRequire(import.meta.url);

let cmakeJs;
try {
  cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
} catch {
  cmakeJs = undefined;
}
const result = cmakeJs
  ? spawnSync(process.execPath, [cmakeJs, 'compile', '--release'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
  : { status: 1, error: new Error('cmake-js is not installed') };

if (result.status !== 0) {
  const why = result.error ? result.error.message : `cmake-js exited with ${result.status}`;
  process.stderr.write(
    [
      '',
      '!!! debugbridge: the .NET debugger addon could not be built (' + why + ').',
      '!!! No prebuilt binary matches this platform either, so .NET debugging is unavailable.',
      '!!! Python and Node.js debugging work. To fix: install cmake and a C++17 compiler, then run',
      '!!!   npm run build:native',
      '',
    ].join('\n'),
  );
  process.exit(optional ? 0 : 1);
}
