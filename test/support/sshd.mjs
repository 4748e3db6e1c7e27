/**
 * An sshd of its own on a free port of 127.0.0.1 (its own host key and client key, nothing of the
 * system's configuration used), for the remote tests and the remote bench alike: plain JavaScript so
 * that the bench runs it without a TypeScript loader (it needs dist/ built, as both do).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../../dist/core/freePort.js';

export const SSHD = '/usr/sbin/sshd';

/** Starts it in `dir`; answers the ssh command that reaches it and a stop. */
export async function startSshd(dir) {
  mkdirSync(dir, { recursive: true });
  // sshd refuses to start without its privilege separation folder, which only a service start of the
  // system's sshd makes (a fresh install in a container has none).
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const hostKey = join(dir, 'host_ed25519');
  const clientKey = join(dir, 'client_ed25519');
  for (const key of [hostKey, clientKey]) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${clientKey}.pub`));
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const daemon = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  daemon.stderr.on('data', (d) => (stderr += d.toString()));
  await waitForPort(port, daemon, () => stderr);
  const ssh = ['ssh', '-i', clientKey, '-p', String(port), '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', '127.0.0.1'];
  return { command: (...remote) => [...ssh, ...remote], stop: () => daemon.kill('SIGTERM') };
}

async function waitForPort(port, daemon, stderr) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (daemon.exitCode !== null) throw new Error(`sshd exited with ${daemon.exitCode}: ${stderr()}`);
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not listen on ${port}: ${stderr()}`);
}
