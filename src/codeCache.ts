/**
 * Loads a CommonJS bundle through a V8 code cache, what Node.js 22's `module.enableCompileCache()`
 * does, on Node.js 20 too: V8 reads the compiled functions from `<bundle>.v8cache` instead of
 * parsing and compiling ~1.5 MB of JavaScript (the MCP SDK, ajv, zod and ours) on every start.
 * A cache V8 rejects (another Node.js or V8, other V8 flags, another build) is ignored: the bundle
 * compiles as it would without one.
 *
 * The build (scripts/bundle-cli.mjs) writes each bundle as one function expression with Node.js's
 * module parameters, so its line numbers are the file's, and writes the cache after a
 * representative run (scripts/write-code-cache.mjs), so it holds the functions a start runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script, constants } from 'node:vm';

/** The parameters every bundle's function expression takes, as Node.js's CommonJS wrapper does. */
export const BUNDLE_PARAMETERS = 'exports, require, module, __filename, __dirname';

export const cacheFileOf = (bundle: string) => `${bundle}.v8cache`;

export interface LoadedBundle {
  exports: unknown;
  /** Its compiled script: `createCachedData()` after a run gives the cache to write. */
  script: Script;
  cacheRejected: boolean;
}

/** Runs a bundle once per process and returns its exports; `cachedData` is the cache to use, if any. */
export function runBundle(bundle: string, cachedData: Buffer | undefined): LoadedBundle {
  const script = new Script(readFileSync(bundle, 'utf8'), {
    filename: bundle,
    cachedData,
    // Its import()s of other files (a runtime's engine package, tsc's ES modules) go through Node.js's own loader.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as unknown };
  const body = script.runInThisContext() as (...args: unknown[]) => void;
  body.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, script, cacheRejected: cachedData !== undefined && script.cachedDataRejected === true };
}

function readCache(bundle: string): Buffer | undefined {
  try {
    return readFileSync(cacheFileOf(bundle));
  } catch {
    return undefined;
  }
}

/** Whether V8 takes a bundle's cache in this process (`debugbridge doctor`): compiled with it, not run. */
export function codeCacheState(bundle: string): 'used' | 'rejected' | 'missing' {
  const cachedData = readCache(bundle);
  if (!cachedData || !existsSync(bundle)) return 'missing';
  return new Script(readFileSync(bundle, 'utf8'), { filename: bundle, cachedData }).cachedDataRejected ? 'rejected' : 'used';
}

const loaded = new Map<string, unknown>();

/** A bundle's exports, loaded on first use with its code cache. */
export function requireBundle(bundle: string): unknown {
  if (!loaded.has(bundle)) loaded.set(bundle, runBundle(bundle, readCache(bundle)).exports);
  return loaded.get(bundle);
}

/**
 * V8 settings for code that runs once, while it runs: a module initialising, the tools' schemas
 * being built. What it makes survives anyway: growing the young generation for it (from 1 to 8 MiB a
 * half) and compiling its hot constructors with TurboFan (zod's, run for each of ~2,000 schemas: a
 * first TurboFan compile maps ~3.5 MiB of its code and keeps ~2 MiB of its memory) buys nothing a
 * session uses. V8's defaults come back after: Node.js takes its built-in modules' code cache, and
 * ours, only under them.
 */
const INITIALISING = '--semi-space-growth-factor=1 --no-turbofan';
/** (`--max-opt` would not do: V8 derives other flags from it, which setting it back leaves changed.) */
const V8_DEFAULTS = '--semi-space-growth-factor=2 --turbofan';
/** A user's own setting of either flag (NODE_OPTIONS, node's arguments) is left alone. */
const userSet = () => /semi[-_]space[-_]growth[-_]factor|turbofan|[-_]opt\b|max[-_]opt/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);
let depth = 0;
/** node:v8 on first use: loading it takes ~1 ms, which a server's start (this file is in it) must not pay. */
const setV8Flags = (flags: string) => (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(flags);

export function initialising<T>(run: () => T): T {
  if (depth === 0 && userSet()) return run();
  if (depth++ === 0) setV8Flags(INITIALISING);
  try {
    return run();
  } finally {
    if (--depth === 0) setV8Flags(V8_DEFAULTS);
  }
}
