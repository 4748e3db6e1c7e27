/**
 * Loads the native addon (a matching prebuild, else a local build; node-gyp-build's rules). Loaded on first
 * use by the dotnet engine only, so a missing or broken addon never stops the server.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DebugError } from '../../core/errors.js';

/** The package root: holds package.json, build/ and prebuilds/ (same from src/ and dist/). */
export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface SpawnedDebuggee {
  pid: number;
  /** POSIX: the keeper process; Windows: the addon's waiter for the debuggee. */
  keeperPid: number;
  /** POSIX: descriptors of this process (-1 on Windows). */
  stdoutFd: number;
  stderrFd: number;
  /** -1 once the debuggee runs (startNow). */
  resumeFd: number;
  statusFd: number;
  /** Windows: the same streams as named pipes to connect to, and the suspended main thread. */
  stdoutPipe?: string;
  stderrPipe?: string;
  statusPipe?: string;
  resumeThread?: number;
  /** startNow: the startup handshake was prepared and the debuggee runs (for discardStartup). */
  startupKey?: string;
  /** startNow: why the handshake could not be prepared (the debuggee still waits for the host). */
  startupError?: string;
}

/** One debuggee on the native debugger thread (host/nativeSession.ts gives its commands types). */
export interface NativeSession {
  /** Runs a command of native/src/debugger/commands.cpp; resolves with JSON text. */
  call(command: string, args: object): Promise<string>;
  close(): Promise<string>;
}

export interface DotnetAddon {
  initialize(errorClass: typeof NativeError): void;
  /**
   * `startNow` (Linux): the runtime-startup handshake is prepared here and the program runs at once,
   * its runtime waiting for the debugger host, which then only opens the handshake.
   */
  spawnSuspended(options: { file: string; argv: string[]; env: string[]; cwd: string; startNow?: boolean }): SpawnedDebuggee;
  /** Removes a prepared startup handshake no debugger took (Linux). */
  discardStartup?(pid: number, startupKey: string): void;
  reapKeeper(keeperPid: number): boolean;
  /** Windows: ends the debuggee and every process it started (its job object). */
  terminateSpawned?(keeperPid: number, exitCode: number): boolean;
  Session: new (onEvent: (json: string) => void) => NativeSession;
  /** Whether the addon can reach a runtime without dbgshim on this OS (Linux, Windows). */
  ownRuntimeAccess: boolean;
}

/** What the addon throws and rejects with: a stable native code plus the HRESULT when there is one. */
export class NativeError extends Error {
  override readonly name = 'NativeError';
  readonly code: string;
  readonly hresult: number;
  constructor(message: string, details: { code: string; hresult: number }) {
    super(message);
    this.code = details.code;
    this.hresult = details.hresult;
  }
  get hresultHex(): string {
    return `0x${(this.hresult >>> 0).toString(16).padStart(8, '0')}`;
  }
}

interface NodeGypBuild {
  (dir: string): unknown;
  path(dir: string): string;
  parseTuple(name: string): unknown;
  matchTuple(platform: string, arch: string): (tuple: unknown) => boolean;
  compareTuples(a: unknown, b: unknown): number;
  parseTags(file: string): unknown;
  matchTags(runtime: string, abi: string): (tags: unknown) => boolean;
  compareTags(runtime: string): (a: unknown, b: unknown) => number;
}

/** A matching prebuilds/<platform>-<arch>/ binary, chosen with node-gyp-build's own tag rules. */
function findPrebuild(ngb: NodeGypBuild, root: string): string | undefined {
  const list = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const tuple = list(join(root, 'prebuilds'))
    .map((name) => ngb.parseTuple(name))
    .filter(ngb.matchTuple(process.platform, process.arch))
    .sort(ngb.compareTuples)[0] as { name: string } | undefined;
  if (!tuple) return undefined;
  const folder = join(root, 'prebuilds', tuple.name);
  const winner = list(folder)
    .map((file) => ngb.parseTags(file))
    .filter(ngb.matchTags('node', process.versions.modules))
    .sort(ngb.compareTags('node'))[0] as { file: string } | undefined;
  return winner ? join(folder, winner.file) : undefined;
}

/** Which binary was loaded, for diagnostics and tests. */
export let loadedAddonPath: string | undefined;

/**
 * Load order: DEBUGBRIDGE_DOTNET_ADDON (an explicit file), a matching prebuild, then a local build
 * (build/Release or build/Debug, through node-gyp-build). A prebuild that fails to load (e.g. another
 * libc) falls through to the local build.
 */
function requireAddon(): DotnetAddon {
  const require = createRequire(import.meta.url);
  const explicit = process.env.DEBUGBRIDGE_DOTNET_ADDON;
  if (explicit) {
    loadedAddonPath = explicit;
    return require(explicit) as DotnetAddon;
  }
  const ngb = require('node-gyp-build') as NodeGypBuild;
  const prebuild = findPrebuild(ngb, packageRoot);
  let prebuildError: unknown;
  if (prebuild) {
    try {
      const addon = require(prebuild) as DotnetAddon;
      loadedAddonPath = prebuild;
      return addon;
    } catch (e) {
      prebuildError = e;
    }
  }
  try {
    const local = ngb.path(packageRoot);
    const addon = require(local) as DotnetAddon;
    loadedAddonPath = local;
    return addon;
  } catch (e) {
    throw prebuildError ?? e;
  }
}

let cached: { addon?: DotnetAddon; error?: DebugError } | undefined;

export const addonFixHint =
  'Rebuild the native addon with `npm run build:native` (needs cmake and a C++17 compiler), ' +
  'or reinstall debugbridge on a platform with a prebuilt binary (prebuilds/<platform>-<arch>/).';

/** The addon, or a DebugError ENGINE_UNAVAILABLE that says why it cannot load and how to fix it. */
export function loadAddon(): DotnetAddon {
  if (!cached) {
    try {
      const addon = requireAddon();
      addon.initialize(NativeError);
      cached = { addon };
    } catch (e) {
      const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
      cached = {
        error: new DebugError('ENGINE_UNAVAILABLE', `the .NET debugger addon could not be loaded: ${why}`, addonFixHint),
      };
    }
  }
  if (cached.error) throw cached.error;
  return cached.addon!;
}
