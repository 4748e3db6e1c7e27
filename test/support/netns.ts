/**
 * A host of the test's own on this machine: a network namespace joined to this one by a veth pair
 * (10.x.y.1 here, 10.x.y.2 there), a mount namespace where the program's folder is bind-mounted at
 * another path, so a port attach crosses a real network and a real path map, and a PID namespace
 * whose init is the script: killing the `unshare` above it (--kill-child) ends every program in it
 * (a daemonised debugpy adapter too), the namespaces and the veth pair. Root here; elsewhere
 * through `sudo -n`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { commandLine, descendants, isAlive, waitGone } from './processTree.js';

export interface NetHost {
  /** The namespace's address, as this machine reaches it. */
  address: string;
  /** Resolves once something listens on each port there (read from the namespace's /proc/net/tcp, nothing connects). */
  listening(ports: number[]): Promise<void>;
  /** Every process inside (as this machine numbers them). */
  processes(): number[];
  stop(): Promise<void>;
  /** Whether the veth pair is gone within 5 s (the kernel removes it with the namespace, after the namespace's last process, in its own time). */
  linkGone(): Promise<boolean>;
}

const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];

function run(command: string, ...args: string[]): string {
  const [file, ...rest] = [...sudo, command, ...args];
  return execFileSync(file, rest, { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] });
}

/** Whether this machine lets the test make a network namespace and a veth pair. */
export function netnsWorks(): boolean {
  try {
    run('unshare', '--net', 'ip', 'link', 'add', 'dbbprobe0', 'type', 'veth', 'peer', 'name', 'dbbprobe1');
    return true;
  } catch {
    return false;
  }
}

/** Starts `script` (sh, `$ADDR` its address) inside, with `local` seen at `far` there. */
export async function startNetHost(local: string, far: string, script: string): Promise<NetHost> {
  mkdirSync(far, { recursive: true });
  const tag = `${process.pid % 10_000}${Math.floor(Math.random() * 100)}`.slice(0, 6);
  const [here, there] = [`dbb${tag}h`, `dbb${tag}c`];
  const subnet = `10.213.${Math.floor(Math.random() * 250) + 1}`;
  const address = `${subnet}.2`;
  const inside = [
    'ip link set lo up',
    `while ! ip link show ${there} >/dev/null 2>&1; do sleep 0.05; done`,
    `ip addr add ${address}/30 dev ${there} && ip link set ${there} up`,
    'mount --bind "$0" "$1"',
    `ADDR=${address}`,
    script,
  ].join('\n');
  const holder: ChildProcess = spawn(sudo[0] ?? 'unshare', [...sudo.slice(1), ...(sudo.length ? ['unshare'] : []), '--net', '--pid', '--mount', '--mount-proc', '--fork', '--kill-child', 'sh', '-c', inside, local, far], { stdio: 'ignore' });
  const unshare = sudo.length ? await descendant(holder.pid!, 'unshare') : holder.pid!;
  const shell = await descendant(unshare, 'sh');
  run('ip', 'link', 'add', here, 'type', 'veth', 'peer', 'name', there, 'netns', String(shell));
  run('ip', 'addr', 'add', `${subnet}.1/30`, 'dev', here);
  run('ip', 'link', 'set', here, 'up');
  return {
    address,
    listening: (ports) => listeningIn(shell, ports),
    processes: () => [unshare, ...descendants(unshare)].filter(isAlive),
    stop: async () => {
      const all = [unshare, ...descendants(unshare)].filter(isAlive);
      if (all.length) run('kill', '-KILL', String(unshare));
      await waitGone(all, 10_000);
    },
    linkGone: async () => {
      for (const deadline = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 50))) {
        try {
          run('ip', 'link', 'show', here);
        } catch {
          return true;
        }
        if (Date.now() > deadline) return false;
      }
    },
  };
}

/** The first process under `pid` that runs `command`. */
async function descendant(pid: number, command: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const child = descendants(pid).find((p) => commandLine(p).split(' ')[0] === command);
    if (child) return child;
    if (Date.now() > deadline) throw new Error(`unshare (pid ${pid}) started nothing`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function listeningIn(pid: number, ports: number[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    // Rows: "sl local_address(hex ip:hex port) rem_address st ..."; st 0A is LISTEN.
    const rows = readFileSync(`/proc/${pid}/net/tcp`, 'utf8').split('\n').slice(1).map((r) => r.trim().split(/\s+/));
    const open = new Set(rows.filter((r) => r[3] === '0A').map((r) => parseInt(r[1].split(':')[1], 16)));
    if (ports.every((p) => open.has(p))) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${ports.filter((p) => !open.has(p)).join(', ')} in the namespace`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
