/**
 * The package as a user gets it: `npm pack` of this clone (dist/ as the test setup built it), and
 * `npm install -g` of a tarball into a prefix of its own, the way a user installs it. Each command
 * runs with a time budget sized for a busy 2-core CI machine (measured figures beside each).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun, runCommand } from './commands.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Needed only to build the addon from source: never installed with the package. */
export const BUILD_TOOLS = ['cmake-js', 'node-addon-api', 'node-api-headers', 'prebuildify', 'typescript'];

/** Budgets. An install from npm's cache took 12–18 s at load 10–15 on 2 cores, a source build of the addon 91–135 s. */
export const INSTALL_BUDGET_MS = 240_000;
export const SOURCE_BUILD_BUDGET_MS = 600_000;

/** Packs this clone into `folder`; answers the tarball. */
export async function pack(folder: string): Promise<string> {
  // --ignore-scripts keeps `prepare` from rebuilding dist/ under running tests.
  const out = await mustRun('npm', ['pack', '--ignore-scripts', '--pack-destination', folder, '--no-audit', '--no-fund'], { cwd: root, budgetMs: 120_000 });
  return join(folder, out.trim().split('\n').at(-1)!);
}

/** The same package without its prebuilt addons, as on a platform no prebuild matches; answers the tarball. */
export function withoutPrebuilds(tarball: string, folder: string): string {
  const unpacked = join(folder, 'unpacked');
  mkdirSync(unpacked);
  execFileSync('tar', ['xzf', tarball, '-C', unpacked]);
  rmSync(join(unpacked, 'package', 'prebuilds'), { recursive: true });
  const bare = join(folder, 'no-prebuild.tgz');
  execFileSync('tar', ['czf', bare, '-C', unpacked, 'package']);
  return bare;
}

/**
 * `npm install -g` of the tarball into a prefix of its own, install scripts in the foreground so that
 * their output is in `log`; answers the package folder. Nothing the install starts may outlive it.
 */
export async function installInto(prefix: string, tarball: string, options: { env?: NodeJS.ProcessEnv; budgetMs?: number } = {}): Promise<{ pkg: string; log: string }> {
  const done = await runCommand('npm', ['install', '-g', '--prefix', prefix, '--foreground-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: dirname(prefix),
    env: options.env,
    budgetMs: options.budgetMs ?? INSTALL_BUDGET_MS,
  });
  const log = `${done.stdout}\n${done.stderr}`;
  if (done.code !== 0) throw new Error(`npm install -g ${tarball} exited with ${done.code}:\n${log.trim().split('\n').slice(-30).join('\n')}`);
  if (done.leftovers.length) throw new Error(`npm install -g left processes running: ${done.leftovers.join(', ')}`);
  return { pkg: join(prefix, 'lib', 'node_modules', 'debugbridge'), log };
}

/** `debugbridge doctor` of the copy installed in `prefix`. */
export async function doctor(prefix: string): Promise<{ code: number | null; out: string }> {
  const done = await runCommand(join(prefix, 'bin', 'debugbridge'), ['doctor'], { budgetMs: 60_000 });
  if (done.leftovers.length) throw new Error(`debugbridge doctor left processes running: ${done.leftovers.join(', ')}`);
  return { code: done.code, out: done.stdout };
}
