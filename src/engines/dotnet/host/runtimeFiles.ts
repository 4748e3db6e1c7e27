/**
 * Which assemblies in a folder are the .NET runtime's own: all of a shared framework's folder
 * (it holds Microsoft.NETCore.App.deps.json), and in a self-contained app's folder the files its
 * deps.json takes from the runtime pack. They never carry symbols, so they are not opened to look.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface DepsJson {
  targets?: Record<string, Record<string, { runtime?: Record<string, unknown> }>>;
  libraries?: Record<string, { type?: string }>;
}

/** `isRuntimeFile(name)` for the folder's assembly file names (compared case-insensitively), or everything for a shared framework. */
export function runtimeFilesOf(folder: string): (name: string) => boolean {
  if (existsSync(join(folder, 'Microsoft.NETCore.App.deps.json'))) return () => true;
  const names = new Set<string>();
  let entries: string[] = [];
  try {
    entries = readdirSync(folder).filter((f) => f.toLowerCase().endsWith('.deps.json'));
  } catch {
    // an unreadable folder: nothing is known to be the runtime's
  }
  for (const file of entries) {
    try {
      const deps = JSON.parse(readFileSync(join(folder, file), 'utf8')) as DepsJson;
      for (const target of Object.values(deps.targets ?? {})) {
        for (const [library, parts] of Object.entries(target)) {
          if (deps.libraries?.[library]?.type !== 'runtimepack') continue;
          for (const name of Object.keys(parts.runtime ?? {})) names.add(name.toLowerCase());
        }
      }
    } catch {
      // not a deps file we can read
    }
  }
  return (name) => names.has(name.toLowerCase());
}
