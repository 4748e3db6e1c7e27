import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

const cache = new Map<string, string>();

/** One spelling per file, so a path from the adapter matches the one the user gave. */
export function canonicalPath(file: string): string {
  let canonical = cache.get(file);
  if (canonical === undefined) {
    try {
      canonical = realpathSync.native(file);
    } catch {
      canonical = resolve(file);
    }
    if (process.platform === 'win32' || process.platform === 'darwin') canonical = canonical.toLowerCase();
    cache.set(file, canonical);
  }
  return canonical;
}
