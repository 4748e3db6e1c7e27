/** Where the .NET host and dbgshim are, and the environment settings that make debugging impossible. */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { DebugError } from '../../core/errors.js';
import { envValue } from '../../core/platformPaths.js';
import { packageRoot } from './addon.js';

const exe = process.platform === 'win32' ? '.exe' : '';

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where installers put the `dotnet` host when it is not on PATH. */
function installFolders(env: NodeJS.ProcessEnv): string[] {
  if (process.platform === 'win32') {
    const programFiles = envValue(env, 'ProgramFiles') ?? 'C:\\Program Files';
    return [join(programFiles, 'dotnet'), join(envValue(env, 'LOCALAPPDATA') ?? join(homedir(), 'AppData', 'Local'), 'Microsoft', 'dotnet')];
  }
  return [join(homedir(), '.dotnet'), '/usr/share/dotnet', '/usr/lib/dotnet', '/usr/local/share/dotnet'];
}

/** The `dotnet` host: DOTNET_ROOT, then PATH, then the usual install folders (names of `env` as Windows reads them there). */
export function findDotnet(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const folders = [envValue(env, 'DOTNET_ROOT'), ...(envValue(env, 'PATH') ?? '').split(delimiter), ...installFolders(env)];
  return folders.filter((dir): dir is string => !!dir).map((dir) => join(dir, `dotnet${exe}`)).find(isFile);
}

/**
 * System.Private.CoreLib of the newest shared runtime beside the `dotnet` host (the one a program
 * rolls forward to unless it asks for another): where a readied debugger host reads framework names
 * ahead of its launch. Undefined when there is none.
 */
export function newestCoreLibrary(dotnet = findDotnet()): string | undefined {
  if (!dotnet) return undefined;
  try {
    const shared = join(dirname(realpathSync(dotnet)), 'shared', 'Microsoft.NETCore.App');
    const numbers = (version: string) => version.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
    const newest = readdirSync(shared)
      .filter((version) => /^\d+\.\d+\.\d+$/.test(version))
      .sort((a, b) => {
        const [x, y] = [numbers(a), numbers(b)];
        return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
      })
      .at(-1);
    const library = newest && join(shared, newest, 'System.Private.CoreLib.dll');
    return library && isFile(library) ? library : undefined;
  } catch {
    return undefined;
  }
}

const shimName =
  process.platform === 'win32' ? 'dbgshim.dll' : process.platform === 'darwin' ? 'libdbgshim.dylib' : 'libdbgshim.so';

function rid(): string {
  const os = process.platform === 'win32' ? 'win' : process.platform === 'darwin' ? 'osx' : 'linux';
  return `${os}-${process.arch}`;
}

/**
 * A real libdbgshim when one is found: DBGSHIM_PATH (file or folder), beside the addon, or the NuGet
 * cache's microsoft.diagnostics.dbgshim.<rid> package. Undefined means "use the addon's own access".
 */
export function findDbgShim(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env.DBGSHIM_PATH;
  if (explicit) {
    const path = isFile(explicit) ? explicit : join(explicit, shimName);
    if (isFile(path)) return path;
    throw new DebugError('ENGINE_UNAVAILABLE', `DBGSHIM_PATH=${explicit} holds no ${shimName}`, 'Point DBGSHIM_PATH at the library or unset it.');
  }
  const beside = [join(packageRoot, 'build', 'Release', shimName), join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`, shimName)];
  const found = beside.find(isFile);
  if (found) return found;
  const nugetRoot = env.NUGET_PACKAGES ?? join(homedir(), '.nuget', 'packages');
  for (const name of [`microsoft.diagnostics.dbgshim.${rid()}`, 'microsoft.diagnostics.dbgshim']) {
    const pkg = join(nugetRoot, name);
    if (!existsSync(pkg)) continue;
    const versions = readdirSync(pkg).sort().reverse();
    for (const version of versions) {
      const path = join(pkg, version, 'runtimes', rid(), 'native', shimName);
      if (isFile(path)) return path;
    }
  }
  return undefined;
}

const disablingVariables = [
  'DOTNET_EnableDiagnostics',
  'COMPlus_EnableDiagnostics',
  'DOTNET_EnableDiagnostics_Debugger',
  'COMPlus_EnableDiagnostics_Debugger',
];

/** The variable that turns the runtime's debugger support off, if the environment sets one to 0. */
export function debuggingDisabledBy(env: Record<string, string | undefined>): string | undefined {
  return disablingVariables.find((name) => envValue(env, name)?.trim() === '0');
}

export function assertDebuggingEnabled(env: Record<string, string | undefined>, whose: string): void {
  const variable = debuggingDisabledBy(env);
  if (variable) {
    throw new DebugError(
      'DEBUGGING_DISABLED',
      `${whose} sets ${variable}=0, which turns off the .NET runtime's debugger support`,
      `Remove ${variable} from the environment (or set it to 1) and start again.`,
    );
  }
}

function normalizeTmp(dir: string | undefined): string {
  return (dir && dir.length > 0 ? dir : '/tmp').replace(/\/+$/, '') || '/';
}

/**
 * The runtime puts its debugger pipes in TMPDIR and mscordbi looks for them in its own TMPDIR, so both
 * must agree (Linux/macOS); otherwise attaching only ends in a timeout.
 */
export function assertSameTmpdir(targetEnv: Record<string, string | undefined>, whose: string): void {
  if (process.platform === 'win32') return;
  const ours = normalizeTmp(process.env.TMPDIR);
  const theirs = normalizeTmp(targetEnv.TMPDIR);
  if (ours !== theirs) {
    throw new DebugError(
      'LAUNCH_FAILED',
      `${whose} uses TMPDIR=${theirs} but the debugger uses TMPDIR=${ours}; the .NET runtime creates its debugger pipes in TMPDIR, so the debugger could not find them`,
      `Give the program the debugger's TMPDIR (${ours}), or start debugbridge with TMPDIR=${theirs}.`,
    );
  }
}

/** The environment of a running process (Linux /proc); undefined when unreadable. */
export function processEnvironment(pid: number): Record<string, string> | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
    const env: Record<string, string> = {};
    for (const entry of raw.split('\0')) {
      const eq = entry.indexOf('=');
      if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    return env;
  } catch {
    return undefined;
  }
}

