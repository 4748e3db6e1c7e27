/**
 * Real targets on this machine for the remote end-to-end tests: an sshd of the test's own (sshd.mjs) on a free
 * port of 127.0.0.1 (its own host key and client key, nothing of the system's configuration used),
 * and a container-like target made with Linux namespaces (own PID and mount namespace, the
 * program's folder bind-mounted at another path inside, so the path map matters).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(PACKAGE_ROOT, 'dist/cli.js');
export { SSHD, startSshd, type Sshd } from './sshd.mjs';

/**
 * A container-like target: `debugbridge agent` as PID 1 of a new PID namespace, in a mount
 * namespace where `local` is bind-mounted on `remote` (outside, `remote` stays an empty folder).
 */
export function namespaceCommand(local: string, remote: string): string[] {
  mkdirSync(remote, { recursive: true });
  return [...unshare(), 'sh', '-c', `mount --bind "$0" "$1" && exec "$2" "$3" agent`, local, remote, process.execPath, CLI];
}

/** The agent as PID 1 of a new PID namespace that sees the files at their own paths (a build made here, run there). */
export function pidNamespaceCommand(): string[] {
  return [...unshare(), process.execPath, CLI, 'agent'];
}

/** Whether this machine lets the tests make their namespaces (root, or user namespaces allowed). */
export function namespacesWork(): boolean {
  try {
    execFileSync(unshare()[0], [...unshare().slice(1), 'true'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

function unshare(): string[] {
  // Not root (a CI runner): a user namespace of its own, where the user is root and may mount.
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  return ['unshare', ...user, '--pid', '--fork', '--mount', '--mount-proc', '--kill-child'];
}

/** This package as another version of it (a copy of dist/ beside a package.json that says `version`). */
export function packageOfVersion(dir: string, version: string): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  pkg.version = version;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  cpSync(join(PACKAGE_ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(dir, 'node_modules'));
  return join(dir, 'dist/cli.js');
}

/** Live processes whose command line contains `text`. */
export function processesMentioning(text: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (cmdline.includes(text) && !/\) Z /.test(state)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
