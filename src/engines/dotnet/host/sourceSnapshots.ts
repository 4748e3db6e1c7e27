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

  /**
   * Reads the module's source files while its load is held: an edit made as soon as the program
   * stops must find them already kept (read later, an edited file no longer matches its checksum).
   */
  async take(module: number, symbols: ModuleSymbols): Promise<void> {
    const built = readBuilt(symbols);
    this.byModule.set(module, built);
    await built;
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
  const reads: Promise<void>[] = [];
  for (let rid = 1; rid < documents.length; rid++) {
    const path = documents[rid]!;
    const checksum = symbols.pdb.documentChecksum(rid);
    if (!path.endsWith('.cs') || !checksum) continue;
    reads.push(
      readFile(path)
        .then((bytes) => {
          if (createHash(checksum.algorithm).update(bytes).digest().equals(checksum.hash)) built.set(path, bytes);
        })
        .catch(() => undefined),
    );
  }
  await Promise.all(reads);
  return built;
}
