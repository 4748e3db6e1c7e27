/**
 * `debugbridge reload`: the hot-reload proxy for MCP servers. Wires the client's stdio, the
 * proxy, the file watcher, the build and the watchdog together, and ends them all in order.
 */
import { relative } from 'node:path';
import { reloadHelp } from './help.js';
import { ignorePredicate } from './ignore.js';
import { LineSplitter } from './lineSplitter.js';
import { parseReloadArgs, UsageError } from './options.js';
import { ReloadProxy } from './proxy.js';
import { ReloadLog } from './reloadLog.js';
import { ReloadTrigger } from './reloadTrigger.js';
import { Watchdog } from './watchdog.js';
import { watchForChanges } from './watcher.js';

const newline = Buffer.from('\n');

/** `argv` is what follows `reload` on the command line; resolves to the exit code. */
export async function runReload(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseReloadArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`debugbridge reload: ${e.message}\n(see debugbridge reload --help)\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(reloadHelp);
    return 0;
  }
  const options = parsed.options;
  const cwd = process.cwd();
  const log = new ReloadLog();
  const watchdog = Watchdog.start(options.killTimeoutMs);

  const toClient = (line: Buffer): void => {
    if (process.stdout.writable) process.stdout.write(Buffer.concat([line, newline]));
  };
  const proxy = new ReloadProxy({
    command: options.command,
    args: options.args,
    killTimeoutMs: options.killTimeoutMs,
    toClient,
    log,
    onServerStarted: (pid) => watchdog.guard(pid),
    onServerEnded: (pid) => watchdog.release(pid),
  });
  const trigger = new ReloadTrigger(options.build, (reason) => void proxy.reload(reason), log);
  const watcher = watchForChanges(
    options.watch,
    ignorePredicate(options.ignore, cwd, options.watch),
    options.debounceMs,
    (changed) => trigger.changed(describeChange(changed, cwd)),
    (error) => log.warning(`file watching: ${error.message}`),
  );
  void watcher.ready.then(() => process.stderr.write(`[debugbridge-reload] watching ${options.watch.join(', ')}\n`));
  proxy.start();

  const splitter = new LineSplitter((line) => proxy.fromClient(line));
  const onData = (chunk: Buffer): void => splitter.push(chunk);
  const forceReload = (): void => trigger.changed('SIGUSR2');

  return new Promise<number>((resolve) => {
    let finishing = false;
    const finish = async (): Promise<void> => {
      if (finishing) return;
      finishing = true;
      process.stdin.off('data', onData);
      process.off('SIGTERM', finish).off('SIGINT', finish).off('SIGHUP', finish).off('SIGUSR2', forceReload);
      trigger.close();
      await Promise.all([proxy.close(), watcher.close()]);
      watchdog.close();
      process.stdin.destroy();
      resolve(0);
    };
    process.stdin.on('data', onData);
    process.stdin.once('end', () => {
      splitter.end();
      void finish();
    });
    process.stdin.once('error', () => void finish());
    // The client stopped reading: nothing can reach it any more.
    process.stdout.once('error', () => void finish());
    process.on('SIGTERM', finish).on('SIGINT', finish).on('SIGHUP', finish).on('SIGUSR2', forceReload);
  });
}

function describeChange(changed: string[], cwd: string): string {
  const inside = relative(cwd, changed[0]!);
  const first = inside === '' || inside.startsWith('..') ? changed[0]! : inside;
  return changed.length === 1 ? `${first} changed` : `${first} and ${changed.length - 1} more changed`;
}
