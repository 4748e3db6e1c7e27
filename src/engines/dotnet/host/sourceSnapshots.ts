/**
 * The program's source files as they were built, kept from the moment its modules load: Edit and
 * Continue compares the files on disk with them, and Roslyn needs the built text of every file the
 * agent edits afterwards. A file already different from what the PDB's checksum says is not kept
 * (its edits cannot be told from earlier ones).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ModuleSymbols } from '../symbols/moduleSymbols.js';

export class SourceSnapshots {
  private readonly byModule = new Map<number, Promise<Map<string, Buffer>>>();

  /** Starts reading the module's source files (the load it came with is not held for it). */
  take(module: number, symbols: ModuleSymbols): void {
    this.byModule.set(module, readBuilt(symbols));
  }

  forget(module: number): void {
    this.byModule.delete(module);
  }

  /** The built bytes (base64) of each of the module's files that differs on disk now. */
  async changedOriginals(module: number): Promise<Record<string, string>> {
    const built = (await this.byModule.get(module)) ?? new Map<string, Buffer>();
    const changed: Record<string, string> = {};
    for (const [path, bytes] of built) {
      const now = await readFile(path).catch(() => undefined);
      if (now && !now.equals(bytes)) changed[path] = bytes.toString('base64');
    }
    return changed;
  }
}

async function readBuilt(symbols: ModuleSymbols): Promise<Map<string, Buffer>> {
  const built = new Map<string, Buffer>();
  const documents = symbols.pdb.documents();
  for (let rid = 1; rid < documents.length; rid++) {
    const path = documents[rid]!;
    const checksum = symbols.pdb.documentChecksum(rid);
    if (!path.endsWith('.cs') || !checksum) continue;
    const bytes = await readFile(path).catch(() => undefined);
    if (bytes && createHash(checksum.algorithm).update(bytes).digest().equals(checksum.hash)) built.set(path, bytes);
  }
  return built;
}
