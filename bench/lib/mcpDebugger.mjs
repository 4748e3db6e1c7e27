// @debugmcp/mcp-debugger, the alternative the workflow benchmarks compare with: installed on
// demand into bench/.cache/ (ignored by git), run as `node dist/cli.mjs stdio`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MCPD_VERSION = '0.24.2';
export const MCPD_PACKAGE = '@debugmcp/mcp-debugger';
export const MCPD_CACHE = process.env.BENCH_CACHE ?? join(dirname(fileURLToPath(import.meta.url)), '..', '.cache', `mcp-debugger-${MCPD_VERSION}`);

function mcpdEntry() {
  const pkgDir = join(MCPD_CACHE, 'node_modules', '@debugmcp', 'mcp-debugger');
  try {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    if (pkg.version !== MCPD_VERSION) return undefined;
    // bin "mcp-debugger": dist/cli, a shim that imports dist/cli.mjs; run the module directly.
    const entry = join(pkgDir, 'dist', 'cli.mjs');
    return existsSync(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** `{ entry }` (the script to run with node), or `{ reason }` it cannot be had. */
export function installMcpd() {
  let entry = mcpdEntry();
  if (entry) return { entry };
  mkdirSync(MCPD_CACHE, { recursive: true });
  if (!existsSync(join(MCPD_CACHE, 'package.json'))) writeFileSync(join(MCPD_CACHE, 'package.json'), '{"private": true}\n');
  console.log(`installing ${MCPD_PACKAGE}@${MCPD_VERSION} into ${MCPD_CACHE} …`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--prefix', MCPD_CACHE, `${MCPD_PACKAGE}@${MCPD_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  entry = mcpdEntry();
  if (entry) return { entry };
  const why = r.error ? r.error.message : `npm exited with ${r.status}: ${(r.stderr || r.stdout || '').trim().split('\n').slice(-3).join(' | ')}`;
  return { reason: `could not install ${MCPD_PACKAGE}@${MCPD_VERSION} (${why})` };
}
