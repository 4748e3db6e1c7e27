/**
 * Finds and opens a module's symbols: the Portable PDB embedded in the image, else the `.pdb` beside
 * it or at the path its CodeView entry names, accepted only when its id matches the image's.
 * Results are cached by path, size and modification time.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AssemblyMetadata } from './assemblyMetadata.js';
import { ModuleSymbols } from './moduleSymbols.js';
import { readPeFile } from './peImage.js';
import { PortablePdb } from './portablePdb.js';

export type LoadedModule = { symbols: ModuleSymbols; metadata: AssemblyMetadata } | { symbols?: undefined; metadata?: AssemblyMetadata; reason: string };

const cache = new Map<string, { stamp: string; loaded: LoadedModule }>();

export function loadModuleSymbols(path: string): LoadedModule {
  let stamp: string;
  try {
    const stat = statSync(path);
    stamp = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return { reason: `${path} cannot be read` };
  }
  const cached = cache.get(path);
  if (cached?.stamp === stamp) return cached.loaded;
  const loaded = load(path);
  cache.set(path, { stamp, loaded });
  return loaded;
}

function load(path: string): LoadedModule {
  let metadata: AssemblyMetadata;
  let image;
  try {
    image = readPeFile(path);
    metadata = new AssemblyMetadata(image, path);
  } catch (e) {
    return { reason: `${basename(path)} is not a readable .NET assembly: ${(e as Error).message}` };
  }
  try {
    if (image.embeddedPdb) return { metadata, symbols: new ModuleSymbols(metadata, new PortablePdb(image.embeddedPdb)) };
    const candidates = [join(dirname(path), basename(path).replace(/\.(dll|exe)$/i, '') + '.pdb')];
    if (image.codeView?.path) candidates.push(image.codeView.path);
    for (const candidate of candidates) {
      if (!existsSync(candidate)) continue;
      const pdb = new PortablePdb(readFileSync(candidate));
      if (image.codeView && !pdb.guid.equals(image.codeView.guid)) {
        return { metadata, reason: `${basename(candidate)} does not match ${basename(path)} (rebuild the project)` };
      }
      return { metadata, symbols: new ModuleSymbols(metadata, pdb) };
    }
  } catch (e) {
    return { metadata, reason: `the symbols of ${basename(path)} cannot be read: ${(e as Error).message}` };
  }
  return { metadata, reason: `no symbols (.pdb) for ${basename(path)}` };
}
