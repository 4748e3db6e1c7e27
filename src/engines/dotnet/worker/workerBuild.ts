/**
 * The .NET worker is built on first use with the user's own SDK (about 25 MB of Roslyn, too much to
 * ship in the npm package for a feature many sessions never use): its sources (this folder's C#
 * files) are copied into a cache folder named after their hash and built there once; every later
 * server finds the build. A lock folder keeps two servers from building the same one at once.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, cpSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DebugError } from '../../../core/errors.js';

/** The worker's C# sources: beside this file in the source tree, under src/ in the package. */
export const WORKER_SOURCES = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './' : '../../../../src/engines/dotnet/worker/', import.meta.url));
export const WORKER_DLL = 'DebugBridge.EncWorker.dll';
const BUILD_TIMEOUT_MS = 600_000;
const STALE_LOCK_MS = 900_000;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'bin' || entry.name === 'obj' ? [] : sourceFiles(path);
    return /\.(cs|csproj)$/.test(entry.name) ? [path] : [];
  });
}

/** Where built workers are kept: DEBUGBRIDGE_CACHE_DIR, else the user's cache folder. */
export function workerCacheRoot(): string {
  if (process.env.DEBUGBRIDGE_CACHE_DIR) return join(process.env.DEBUGBRIDGE_CACHE_DIR, 'enc-worker');
  const base = process.env.XDG_CACHE_HOME ?? (process.platform === 'win32' ? join(homedir(), 'AppData', 'Local') : join(homedir(), '.cache'));
  return join(base, 'debugbridge', 'enc-worker');
}

export function workerSourceHash(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(WORKER_SOURCES).sort()) {
    hash.update(relative(WORKER_SOURCES, file).replace(/\\/g, '/')).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Whether this version of the worker's sources is built on this machine. */
export function isWorkerBuilt(): boolean {
  return existsSync(join(workerCacheRoot(), workerSourceHash(), 'bin', '.complete'));
}

/** The built worker's dll, building it first when this version of its sources has no build yet. */
export async function ensureWorkerBuilt(dotnet: string, signal?: AbortSignal): Promise<string> {
  const folder = join(workerCacheRoot(), workerSourceHash());
  const dll = join(folder, 'bin', WORKER_DLL);
  const done = join(folder, 'bin', '.complete');
  if (existsSync(done)) return dll;
  mkdirSync(dirname(folder), { recursive: true });
  const lock = `${folder}.lock`;
  await takeLock(lock, signal);
  try {
    if (existsSync(done)) return dll;
    rmSync(folder, { recursive: true, force: true });
    cpSync(WORKER_SOURCES, join(folder, 'src'), { recursive: true, filter: (src) => !/[\\/](bin|obj)$/.test(src) && !src.endsWith('.ts') });
    await build(dotnet, join(folder, 'src', 'EncWorker.csproj'), join(folder, 'bin'), signal);
    writeFileSync(done, new Date().toISOString());
    return dll;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function build(dotnet: string, project: string, out: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      dotnet,
      ['build', project, '-c', 'Release', '-o', out, '-nologo', '-v:q', '-clp:ErrorsOnly'],
      { timeout: BUILD_TIMEOUT_MS, signal, maxBuffer: 8 * 1024 * 1024, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1' } },
      (error, stdout, stderr) => {
        if (!error) return resolve();
        const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-8).join('\n');
        reject(
          new DebugError(
            'ENGINE_UNAVAILABLE',
            `building the .NET worker that computes Edit and Continue deltas (Roslyn from NuGet) failed:\n${output}`,
            'It needs the .NET SDK and access to the NuGet feed for Microsoft.CodeAnalysis.CSharp.Features 5.12.0; fix that, or session_restart to run the edited program.',
          ),
        );
      },
    );
  });
}

async function takeLock(lock: string, signal?: AbortSignal): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      const age = (() => {
        try {
          return Date.now() - statSync(lock).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      if (signal?.aborted) throw new DebugError('CANCELLED', 'cancelled while another server built the .NET worker');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
