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
