/**
 * The node processes a launched program starts. Every node process of the program loads the
 * preload (NODE_OPTIONS `--require`); one that is not the first opens its inspector, writes where
 * it listens into this hub's folder and waits for the debugger. The hub watches the folder and
 * hands each report to the engine, which connects, arms the breakpoints and lets it run.
 */
import { mkdtempSync, watch, type FSWatcher } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ChildReport {
  pid: number;
  ppid: number;
  /** The inspector's WebSocket URL. */
  url: string;
  /** The script it runs (`process.argv[1]`). */
  script: string;
}

/** The preload is compiled to dist/ beside this module (also when this runs from its TypeScript source, in tests). */
export const PRELOAD_PATH = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../../dist/engines/node/preload.cjs' : './preload.cjs', import.meta.url));
export const PRELOAD_URL = pathToFileURL(PRELOAD_PATH).href;

/** Reports fs.watch missed (it may, on some file systems) are found by a rescan this often. */
const RESCAN_MS = 250;

export class ChildProcessHub {
  private readonly seen = new Set<string>();
  private readonly watcher: FSWatcher;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly onReport: (report: ChildReport) => void,
  ) {
    this.watcher = watch(dir, () => void this.scan());
    this.watcher.on('error', () => undefined);
    this.timer = setInterval(() => void this.scan(), RESCAN_MS);
    this.timer.unref();
  }

  /** At once: one mkdir, where awaiting the thread pool's answer cost a launch 10–35 ms under load. */
  static open(onReport: (report: ChildReport) => void): ChildProcessHub {
    return new ChildProcessHub(mkdtempSync(join(tmpdir(), 'dbb-node-')), onReport);
  }

  /** The environment that makes the program's node processes load the preload and report here. */
  env(programEnv: Record<string, string | undefined>): Record<string, string> {
    const inherited = programEnv.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? '';
    const ours = `--require ${quoted(PRELOAD_PATH)} --inspect-publish-uid=http`;
    return {
      NODE_OPTIONS: inherited ? `${inherited} ${ours}` : ours,
      DEBUGBRIDGE_HUB: this.dir,
      DEBUGBRIDGE_SERVER_PID: String(process.pid),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher.close();
    clearInterval(this.timer);
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private async scan(): Promise<void> {
    if (this.closed) return;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.json') || this.seen.has(name)) continue;
      this.seen.add(name);
      const report = await readFile(join(this.dir, name), 'utf8').then((text) => JSON.parse(text) as ChildReport, () => undefined);
      if (report && !this.closed) this.onReport(report);
    }
  }
}

/** A value as NODE_OPTIONS reads it: in double quotes, with `\` and `"` escaped. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
