import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** End-to-end tests spawn dist/cli.js: make sure it is built from the current sources. */
export default function setup(): void {
  const cli = join(root, 'dist', 'cli.js');
  if (process.env.DEBUGBRIDGE_SKIP_BUILD === '1' && existsSync(cli)) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  // The build also writes the tool catalog the server answers tools/list from at cold start.
  execFileSync(process.execPath, [join(root, 'dist', 'server', 'writeToolCatalog.js')], { stdio: 'inherit' });
  if (!statSync(cli).isFile()) throw new Error('build produced no dist/cli.js');
}
