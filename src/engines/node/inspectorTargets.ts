/**
 * Finding the WebSocket of a node process that already runs: by host and port (`--inspect`), or
 * by pid, where `process._debugProcess` (SIGUSR1 on POSIX) opens the inspector on 127.0.0.1:9229.
 */
import { readFile } from 'node:fs/promises';
import { DebugError } from '../../core/errors.js';

export const DEFAULT_INSPECTOR_PORT = 9229;

interface TargetInfo {
  type?: string;
  webSocketDebuggerUrl?: string;
}

/** The debugger URL the inspector at host:port lists, retrying until `timeoutMs`. */
export async function findDebuggerUrl(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline && !signal?.aborted) {
    try {
      const response = await fetch(`http://${hostForUrl(host)}:${port}/json/list`, { signal: AbortSignal.timeout(2000) });
      const targets = (await response.json()) as TargetInfo[];
      const url = targets.find((t) => t.webSocketDebuggerUrl && (t.type ?? 'node') === 'node')?.webSocketDebuggerUrl;
      if (url) return url;
      lastError = 'the inspector lists no node target';
    } catch (e) {
      lastError = (e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new DebugError(
    'ATTACH_FAILED',
    `No node inspector at ${host}:${port} (${lastError || 'cancelled'}).`,
    'Start the program with `node --inspect=PORT prog.js` (or --inspect-brk) and attach to that port.',
  );
}

/**
 * Asks a running node process to open its inspector (on 127.0.0.1:9229 unless it was told another port).
 * SIGUSR1 ends a process that does not handle it yet (a node still starting, or not node at all), so on
 * Linux the signal waits until the process says it catches it.
 */
export async function openInspectorOf(pid: number, signal?: AbortSignal): Promise<void> {
  const debugProcess = (process as unknown as { _debugProcess?: (pid: number) => void })._debugProcess;
  if (!debugProcess) {
    throw new DebugError('UNSUPPORTED', 'This node cannot open the inspector of another process.', `Restart the program with \`node --inspect=${DEFAULT_INSPECTOR_PORT}\` and attach by port.`);
  }
  if (process.platform === 'linux') await untilCatchesSigusr1(pid, signal);
  try {
    debugProcess(pid);
  } catch (e) {
    throw new DebugError(
      'ATTACH_FAILED',
      `Cannot signal process ${pid}: ${(e as Error).message}.`,
      'Check the pid (it must be a node process of the same user), or start it with `node --inspect=PORT` and attach by port.',
    );
  }
}

const SIGUSR1_CAUGHT = 1n << 9n;
const SIGNAL_READY_TIMEOUT_MS = 3000;

async function untilCatchesSigusr1(pid: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + SIGNAL_READY_TIMEOUT_MS;
  for (;;) {
    let status: string;
    try {
      status = await readFile(`/proc/${pid}/status`, 'utf8');
    } catch {
      throw new DebugError('ATTACH_FAILED', `No process ${pid}.`, 'Check the pid with `ps`, or attach by port to a program started with `node --inspect=PORT`.');
    }
    const caught = /^SigCgt:\s*([0-9a-f]+)/m.exec(status)?.[1];
    if (caught !== undefined && (BigInt(`0x${caught}`) & SIGUSR1_CAUGHT) !== 0n) return;
    if (Date.now() >= deadline || signal?.aborted) {
      throw new DebugError(
        'ATTACH_FAILED',
        `Process ${pid} does not handle SIGUSR1 (not a node process, or started with --disable-sigusr1): signalling it would end it.`,
        'Check the pid, or start the program with `node --inspect=PORT` and attach by port.',
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
