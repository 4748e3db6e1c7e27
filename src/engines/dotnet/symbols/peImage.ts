/**
 * The parts of a PE/COFF image a debugger needs: where the CLI metadata is, the entry point token,
 * and the debug directory (the PDB's id and path, or the Portable PDB embedded in the image).
 */
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

export function readPeImage(image: Buffer): PeImage {
  if (image.length < 0x40 || image.readUInt16LE(0) !== 0x5a4d) throw new Error('not a PE image (no MZ header)');
  const pe = image.readUInt32LE(0x3c);
  if (image.readUInt32LE(pe) !== 0x00004550) throw new Error('not a PE image (no PE signature)');
  const sectionCount = image.readUInt16LE(pe + 6);
  const optionalSize = image.readUInt16LE(pe + 20);
  const optional = pe + 24;
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
  const directory = (index: number): { offset: number; size: number } | undefined => {
    if (index >= directoryCount) return undefined;
    const rva = image.readUInt32LE(directories + index * 8);
    const size = image.readUInt32LE(directories + index * 8 + 4);
    const offset = rva ? toOffset(rva) : undefined;
    return offset === undefined || size === 0 ? undefined : { offset, size };
  };

  const at = (rva: number, length: number): Buffer | undefined => {
    const offset = toOffset(rva);
    return offset === undefined || offset + length > image.length ? undefined : image.subarray(offset, offset + length);
  };
  const result: PeImage = { at, entryPointToken: 0 };
  const cli = directory(CLI_DIRECTORY);
  if (cli) {
    const metadataOffset = toOffset(image.readUInt32LE(cli.offset + 8));
    const metadataSize = image.readUInt32LE(cli.offset + 12);
    if (metadataOffset !== undefined) result.metadata = image.subarray(metadataOffset, metadataOffset + metadataSize);
    result.entryPointToken = image.readUInt32LE(cli.offset + 20);
  }
  const debug = directory(DEBUG_DIRECTORY);
  for (let at = debug?.offset ?? 0; debug && at + 28 <= debug.offset + debug.size; at += 28) {
    const type = image.readUInt32LE(at + 12);
    const size = image.readUInt32LE(at + 16);
    const pointer = image.readUInt32LE(at + 24);
    if (pointer === 0 || pointer + size > image.length) continue;
    if (type === IMAGE_DEBUG_TYPE_CODEVIEW && size >= 24 && image.readUInt32LE(pointer) === RSDS) {
      const pathBytes = image.subarray(pointer + 24, pointer + size);
      const end = pathBytes.indexOf(0);
      result.codeView = {
        guid: Buffer.from(image.subarray(pointer + 4, pointer + 20)),
        age: image.readUInt32LE(pointer + 20),
        path: pathBytes.subarray(0, end < 0 ? pathBytes.length : end).toString('utf8'),
      };
    } else if (type === IMAGE_DEBUG_TYPE_EMBEDDED_PORTABLE_PDB && size >= 8 && image.readUInt32LE(pointer) === MPDB) {
      const inflatedSize = image.readUInt32LE(pointer + 4);
      result.embeddedPdb = inflateRawSync(image.subarray(pointer + 8, pointer + size), { maxOutputLength: inflatedSize });
    }
  }
  return result;
}
