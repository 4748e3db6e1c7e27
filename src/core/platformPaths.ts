/**
 * Paths and environment variables compared the way the platform does: on Windows file names and
 * variable names are case-insensitive and `/` and `\` both separate folders; elsewhere they are
 * compared as they are.
 */
import { win32 } from 'node:path';

type Platform = NodeJS.Platform;

/** Equal for two spellings of one path on `platform` (Windows: case, separators, `.` and `..` parts). */
export function pathKey(path: string, platform: Platform = process.platform): string {
  return platform === 'win32' ? win32.normalize(path).toLowerCase() : path;
}

export function samePath(a: string, b: string, platform: Platform = process.platform): boolean {
  return pathKey(a, platform) === pathKey(b, platform);
}

/** `path` spelled as this platform spells paths (Windows: `\` separators, so `Z:/src/a.cs` is `Z:\src\a.cs`). */
export function nativeSpelling(path: string, platform: Platform = process.platform): string {
  return platform === 'win32' && path !== '' ? win32.normalize(path) : path;
}

/** A variable of `env` (a plain object, not only process.env): on Windows `Path` is `PATH`, and the last spelling wins. */
export function envValue(env: Record<string, string | undefined>, name: string, platform: Platform = process.platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const wanted = name.toUpperCase();
  let value: string | undefined;
  for (const [key, v] of Object.entries(env)) if (key.toUpperCase() === wanted && v !== undefined) value = v;
  return value;
}
