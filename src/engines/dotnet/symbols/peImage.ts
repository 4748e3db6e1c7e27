/**
 * The parts of a PE/COFF image a debugger needs: where the CLI metadata is, the entry point token,
 * and the debug directory (the PDB's id and path, or the Portable PDB embedded in the image).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

interface Section {
  virtualAddress: number;
  virtualSize: number;
  rawSize: number;
  rawPointer: number;
}

export interface CodeViewEntry {
  /** The PDB id's GUID part as raw bytes (matches the first 16 bytes of the PDB's #Pdb id). */
  guid: Buffer;
  age: number;
  path: string;
}

export interface PeImage {
  /** The bytes at a relative virtual address, or undefined outside every section. */
  at(rva: number, length: number): Buffer | undefined;
  /** The CLI metadata root, or undefined for a native image. */
  metadata?: Buffer;
  entryPointToken: number;
  codeView?: CodeViewEntry;
  /** The Portable PDB embedded in the image (already inflated). */
  embeddedPdb?: Buffer;
}

const IMAGE_DEBUG_TYPE_CODEVIEW = 2;
const IMAGE_DEBUG_TYPE_EMBEDDED_PORTABLE_PDB = 17;
const DEBUG_DIRECTORY = 6;
const CLI_DIRECTORY = 14;
const RSDS = 0x53445352;
const MPDB = 0x4244504d;

/** Bytes of an image: `length` bytes at file offset `offset`, fewer at its end. */
interface ImageBytes {
  size: number;
  read(offset: number, length: number): Buffer;
}

export function readPeImage(image: Buffer): PeImage {
  return parsePe({ size: image.length, read: (offset, length) => image.subarray(offset, offset + length) });
}

/**
 * An image on disk, read in parts: its headers, metadata and debug data now, method bodies when asked
 * for. System.Private.CoreLib is a 15 MB file whose metadata is a fifth of it, and every launch's
 * first stop reads that metadata.
 */
export function readPeFile(path: string): PeImage {
  const size = statSync(path).size;
  return parsePe({
    size,
    read(offset, length) {
      const fd = openSync(path, 'r');
      try {
        const bytes = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - offset)));
        return bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, offset));
      } finally {
        closeSync(fd);
      }
    },
  });
}

/** The PE headers' size we read first; the section table follows the optional header inside them. */
const HEADERS_READ = 4096;

function parsePe(file: ImageBytes): PeImage {
  let image = file.read(0, Math.min(file.size, HEADERS_READ));
  if (image.length < 0x40 || image.readUInt16LE(0) !== 0x5a4d) throw new Error('not a PE image (no MZ header)');
  const pe = image.readUInt32LE(0x3c);
  if (pe + 24 > image.length) image = file.read(0, pe + 24);
  if (pe + 24 > image.length || image.readUInt32LE(pe) !== 0x00004550) throw new Error('not a PE image (no PE signature)');
  const sectionCount = image.readUInt16LE(pe + 6);
  const optionalSize = image.readUInt16LE(pe + 20);
  const optional = pe + 24;
  const headersEnd = optional + optionalSize + sectionCount * 40;
  if (headersEnd > image.length) image = file.read(0, headersEnd);
  if (headersEnd > image.length) throw new Error('not a PE image (truncated headers)');
  const magic = image.readUInt16LE(optional);
  const directories = optional + (magic === 0x20b ? 112 : 96);
  const directoryCount = image.readUInt32LE(optional + (magic === 0x20b ? 108 : 92));
  const sections: Section[] = [];
  for (let i = 0, at = optional + optionalSize; i < sectionCount; i++, at += 40) {
    sections.push({
      virtualSize: image.readUInt32LE(at + 8),
      virtualAddress: image.readUInt32LE(at + 12),
      rawSize: image.readUInt32LE(at + 16),
      rawPointer: image.readUInt32LE(at + 20),
    });
  }
  const toOffset = (rva: number): number | undefined => {
    for (const s of sections) {
      if (rva >= s.virtualAddress && rva < s.virtualAddress + Math.max(s.virtualSize, s.rawSize)) return rva - s.virtualAddress + s.rawPointer;
    }
    return undefined;
  };
  /** `length` bytes at a file offset, or undefined past the file's end. */
  const bytes = (offset: number, length: number): Buffer | undefined => (offset + length > file.size ? undefined : file.read(offset, length));
  const directory = (index: number): Buffer | undefined => {
    if (index >= directoryCount) return undefined;
    const rva = image.readUInt32LE(directories + index * 8);
    const size = image.readUInt32LE(directories + index * 8 + 4);
    const offset = rva ? toOffset(rva) : undefined;
    return offset === undefined || size === 0 ? undefined : bytes(offset, size);
  };

  const at = (rva: number, length: number): Buffer | undefined => {
    const offset = toOffset(rva);
    return offset === undefined ? undefined : bytes(offset, length);
  };
  const result: PeImage = { at, entryPointToken: 0 };
  const cli = directory(CLI_DIRECTORY);
  if (cli && cli.length >= 24) {
    const metadataOffset = toOffset(cli.readUInt32LE(8));
    const metadataSize = cli.readUInt32LE(12);
    if (metadataOffset !== undefined) result.metadata = file.read(metadataOffset, metadataSize);
    result.entryPointToken = cli.readUInt32LE(20);
  }
  const debug = directory(DEBUG_DIRECTORY);
  for (let at = 0; debug && at + 28 <= debug.length; at += 28) {
    const type = debug.readUInt32LE(at + 12);
    const size = debug.readUInt32LE(at + 16);
    const pointer = debug.readUInt32LE(at + 24);
    const entry = pointer === 0 ? undefined : bytes(pointer, size);
    if (!entry) continue;
    if (type === IMAGE_DEBUG_TYPE_CODEVIEW && size >= 24 && entry.readUInt32LE(0) === RSDS) {
      const pathBytes = entry.subarray(24);
      const end = pathBytes.indexOf(0);
      result.codeView = {
        guid: Buffer.from(entry.subarray(4, 20)),
        age: entry.readUInt32LE(20),
        path: pathBytes.subarray(0, end < 0 ? pathBytes.length : end).toString('utf8'),
      };
    } else if (type === IMAGE_DEBUG_TYPE_EMBEDDED_PORTABLE_PDB && size >= 8 && entry.readUInt32LE(0) === MPDB) {
      const inflatedSize = entry.readUInt32LE(4);
      result.embeddedPdb = inflateRawSync(entry.subarray(8), { maxOutputLength: inflatedSize });
    }
  }
  return result;
}
