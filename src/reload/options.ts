/** The `debugbridge reload` command line: options first, then `--` and the server command. */
export interface ReloadOptions {
  /** Files and folders to watch (default: the current folder). */
  watch: string[];
  /** Extra glob patterns to ignore, on top of the built-in ones. */
  ignore: string[];
  /** Quiet time after the last change before reloading. */
  debounceMs: number;
  /** Shell command run before each restart; the old server keeps running if it fails. */
  build?: string;
  /** Time a server gets to exit after SIGTERM before it is killed. */
  killTimeoutMs: number;
  command: string;
  args: string[];
}

export type ParsedArgs = { help: true } | { help: false; options: ReloadOptions };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const defaults = { debounceMs: 150, killTimeoutMs: 3000 };

export function parseReloadArgs(argv: string[]): ParsedArgs {
  const watch: string[] = [];
  const ignore: string[] = [];
  let debounceMs = defaults.debounceMs;
  let killTimeoutMs = defaults.killTimeoutMs;
  let build: string | undefined;
  let i = 0;
  const valueOf = (flag: string, inline: string | undefined): string => {
    if (inline !== undefined) return inline;
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    return value;
  };
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-')) break;
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    switch (flag) {
      case '-h':
      case '--help':
        return { help: true };
      case '-w':
      case '--watch':
        watch.push(...splitList(valueOf(flag, inline)));
        break;
      case '-i':
      case '--ignore':
        ignore.push(...splitList(valueOf(flag, inline)));
        break;
      case '--debounce':
        debounceMs = milliseconds(flag, valueOf(flag, inline));
        break;
      case '--kill-timeout':
        killTimeoutMs = milliseconds(flag, valueOf(flag, inline));
        break;
      case '-b':
      case '--build':
        build = valueOf(flag, inline);
        break;
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  const [command, ...args] = argv.slice(i);
  if (command === undefined) throw new UsageError('no server command: put it after --, e.g. `debugbridge reload -- node server.js`');
  return {
    help: false,
    options: { watch: watch.length > 0 ? watch : ['.'], ignore, debounceMs, build, killTimeoutMs, command, args },
  };
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function milliseconds(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} takes a whole number of milliseconds, not "${value}"`);
  return n;
}
