/**
 * The watchdog process. The proxy tells it on stdin which server process groups are alive
 * (`+<pid>` / `-<pid>`); when its stdin ends without the proxy having released them — the proxy
 * was killed, even with SIGKILL — it ends those groups: SIGTERM, then SIGKILL.
 */
import { ownGroup, signalGroup } from './processGroup.js';
import { LineSplitter } from './lineSplitter.js';

const killTimeoutMs = Number(process.argv[2] ?? 3000);
const proxyPid = process.argv[3] ?? '?';
const guarded = new Set<number>();

// A Ctrl-C or hang-up aimed at the proxy's terminal must not end the watchdog before it acted.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});

const splitter = new LineSplitter((line) => {
  const text = line.toString('utf8').trim();
  const pid = Number(text.slice(1));
  if (!Number.isInteger(pid) || pid <= 0) return;
  if (text.startsWith('+')) guarded.add(pid);
  else if (text.startsWith('-')) guarded.delete(pid);
});
process.stdin.on('data', (chunk: Buffer) => splitter.push(chunk));
process.stdin.on('end', () => void endGuarded());
process.stdin.on('error', () => void endGuarded());

async function endGuarded(): Promise<void> {
  const alive = [...guarded].filter((pid) => signalGroup(pid, 'SIGTERM'));
  if (alive.length > 0) {
    process.stderr.write(`[debugbridge-reload] watchdog: the proxy (pid ${proxyPid}) is gone; stopping server ${alive.join(', ')}\n`);
    const deadline = Date.now() + killTimeoutMs;
    while (Date.now() < deadline && alive.some((pid) => signalGroup(pid, 0))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const pid of alive) signalGroup(pid, 'SIGKILL');
  }
  process.exit(0);
}

if (!ownGroup) process.stderr.write('[debugbridge-reload] watchdog: process groups are not available here\n');
