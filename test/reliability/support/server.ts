/**
 * A debugbridge server for reliability tests: the real MCP client over stdio, a state folder of its
 * own, everything it writes to stderr kept, and a record of every process it started.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpTestClient } from '../../../src/demo/mcpClient.js';
import { markerLine } from '../../../src/demo/markers.js';
import { descendants, parentOf, processSessionOf } from '../../support/processTree.js';
import { readiedAhead, READY_LAUNCHER_FILE } from '../../support/readiedAhead.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export function fixture(path: string): string {
  return join(FIXTURES, path);
}

/** The 1-based line of `BP:<marker>` in a fixture. */
export function line(path: string, marker: string): number {
  return markerLine(fixture(path), `BP:${marker}`);
}

export interface TestServer {
  client: McpTestClient;
  pid: number;
  stderr(): string;
  /** Every process of the server's tree seen so far (polled), the server excluded. */
  watch: ProcessWatch;
  close(): Promise<void>;
}

/** `args`: the server's command line after `node` (default: dist/cli.js). */
/** `cwd`: the server's working folder, whose project files say which runtimes it readies (core/readiness.ts). */
export async function startServer(env: Record<string, string> = {}, args?: string[], cwd?: string): Promise<TestServer> {
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-rel-state-'));
  const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir, ...env }, stderr: 'pipe', args, cwd });
  let stderr = '';
  client.transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const pid = client.pid!;
  const watch = new ProcessWatch(pid);
  // The server loads its tools after tools/list and readies the runtimes its folder holds: after this first call
  // later timings mean the call alone, and the processes seen so far are the server's own.
  await client.call('languages_list');
  return {
    client,
    pid,
    stderr: () => stderr,
    watch,
    close: async () => {
      watch.stop();
      await client.close();
    },
  };
}

/** Polls a process tree and remembers every process in it, so none can slip away unseen. */
export class ProcessWatch {
  readonly seen = new Set<number>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly root: number, intervalMs = 20) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): void {
    for (const pid of descendants(this.root)) this.seen.add(pid);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The processes seen that are still alive (zombies count as gone). */
  alive(): number[] {
    return [...this.seen].filter(isRunning);
  }
}

export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '?';
  }
}

/** A command line short enough for a failure message. */
function shortCommand(pid: number): string {
  const command = commandOf(pid).replace(/\s+/g, ' ');
  return command.length > 120 ? `${command.slice(0, 60)} … ${command.slice(-60)}` : command;
}

/** The processes among `pids` still running after `ms`, with their command lines (for failure messages). */
export async function aliveAfter(pids: Iterable<number>, ms: number): Promise<string[]> {
  await sleep(ms);
  return describe([...pids].filter(isRunning));
}

export function describe(pids: number[]): string[] {
  return pids.map((pid) => `${pid} ${shortCommand(pid)}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What the server reports of a session's run (the live session, else the last one, when none is named). */
export interface RunPids {
  /** The program's. */
  pid?: number;
  /** Its debugpy adapter's (Python), which leads a process session holding the launcher and the program. */
  adapterPid?: number;
}

export async function runPids(server: TestServer, sessionId?: string): Promise<RunPids> {
  type Diagnostics = { diagnostics: { pid?: number; engine?: { details?: { adapterPid?: number } } } };
  const d = await server.client.call<Diagnostics>('session_diagnostics', sessionId ? { sessionId } : {});
  return { pid: d.structured?.diagnostics.pid, adapterPid: d.structured?.diagnostics.engine?.details?.adapterPid };
}

/**
 * The processes of these runs and `others` still running `ms` from now, with their command lines:
 * each run's program and adapter and every process of the adapter's process session, less what the
 * server readied ahead for the next launch.
 */
export async function leftAfter(server: TestServer, runs: RunPids[], others: Iterable<number>, ms: number): Promise<string[]> {
  if (ms > 0) await sleep(ms);
  server.watch.sample();
  const adapters = runs.flatMap((r) => (r.adapterPid === undefined ? [] : [r.adapterPid]));
  const inAdapterSessions = [...server.watch.seen].filter((pid) => adapters.includes(processSessionOf(pid) ?? -1));
  const candidates = [...others, ...runs.flatMap((r) => (r.pid === undefined ? [] : [r.pid])), ...adapters, ...inAdapterSessions];
  const alive = [...new Set(candidates)].filter(isRunning);
  const readied = readiedAhead([...server.watch.seen], adapters);
  return describe(alive.filter((pid) => !readied.has(pid)));
}

/** The server's ready debuggee, before any launch took one, once its program is up: that process, its launcher and its adapter. */
export async function readyDebuggee(server: TestServer, ms = 20_000): Promise<{ adapter: number; launcher: number; debuggee: number }> {
  const deadline = Date.now() + ms;
  for (;;) {
    server.watch.sample();
    const debuggee = [...server.watch.seen].find((pid) => isRunning(pid) && commandOf(pid).includes('--connect') && commandOf(pid).includes(READY_LAUNCHER_FILE));
    const launcher = debuggee === undefined ? undefined : parentOf(debuggee);
    const adapter = launcher === undefined ? undefined : parentOf(launcher);
    if (adapter !== undefined) return { adapter, launcher: launcher!, debuggee: debuggee! };
    if (Date.now() > deadline) throw new Error('no ready debuggee under the server');
    await sleep(20);
  }
}

/** Waits for a process of the server's tree that matches, up to `ms`. */
export async function waitForProcess(server: TestServer, matches: (cmd: string) => boolean, ms = 15_000): Promise<number | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    server.watch.sample();
    const found = [...server.watch.seen].find((pid) => isRunning(pid) && matches(commandOf(pid)));
    if (found || Date.now() > deadline) return found;
    await sleep(15);
  }
}
