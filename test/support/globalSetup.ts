import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { installFromLock } from './lockInstall.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** End-to-end tests spawn dist/cli.cjs (and dist/cli.js): make sure both are built from the current sources. */
export default function setup(): void {
  compileTypeScriptFixtures();
  const cli = join(root, 'dist', 'cli.cjs');
  if (process.env.DEBUGBRIDGE_SKIP_BUILD === '1' && existsSync(cli)) return;
  if (builtAfterEverySource(cli)) return;
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  // The entry point bundled as npm run build does it (scripts/bundle-cli.mjs).
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle-cli.mjs')], { stdio: 'inherit' });
  // The build also writes the tool catalog the server answers tools/list from at cold start.
  execFileSync(process.execPath, [join(root, 'dist', 'server', 'writeToolCatalog.js')], { stdio: 'inherit' });
  if (!statSync(cli).isFile()) throw new Error('build produced no dist/cli.cjs');
}

/** Whether `npm run build` ran after the last change to the sources it builds from (CI builds just before). */
function builtAfterEverySource(cli: string): boolean {
  const catalog = join(root, 'dist', 'server', 'toolCatalog.json');
  if (!existsSync(cli) || !existsSync(catalog)) return false;
  const built = Math.min(statSync(cli).mtimeMs, statSync(catalog).mtimeMs);
  const inputs = [join(root, 'tsconfig.json'), join(root, 'package.json'), join(root, 'scripts', 'bundle-cli.mjs')];
  return newestChange(join(root, 'src'), inputs.map((f) => statSync(f).mtimeMs)) < built;
}

function newestChange(dir: string, seed: number[]): number {
  let newest = Math.max(...seed, statSync(dir).mtimeMs);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path, []) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The Node engine's TypeScript fixture: its runners (tsx, ts-node) installed, and its sources
 * compiled by tsc with source maps in .map files and inline.
 */
function compileTypeScriptFixtures(): void {
  const dir = join(root, 'test', 'fixtures', 'node', 'ts');
  installFromLock(dir);
  for (const config of ['tsconfig.json', 'tsconfig.inline.json']) execFileSync(process.execPath, [tsc, '-p', join(dir, config)], { stdio: 'inherit' });
}
