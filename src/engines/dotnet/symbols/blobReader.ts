/**
 * Reads the little-endian and compressed integers of ECMA-335 metadata (II.23.2) and Portable PDB
 * blobs from a byte range.
 */
export class BlobReader {
  pos: number;
  readonly end: number;

  constructor(
    readonly bytes: Buffer,
    start = 0,
    end = bytes.length,
  ) {
    this.pos = start;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const v = this.bytes.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.bytes.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  bytesOf(length: number): Buffer {
    this.need(length);
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }

  /** An unsigned compressed integer: 1, 2 or 4 bytes by its first bits. */
  compressedUnsigned(): number {
    return this.compressed().value;
  }

  /** A signed compressed integer: the sign is in the lowest bit of the rotated value. */
  compressedSigned(): number {
    const { value, size } = this.compressed();
    const magnitude = value >>> 1;
    if ((value & 1) === 0) return magnitude;
    if (size === 1) return magnitude - 0x40;
    if (size === 2) return magnitude - 0x2000;
    return magnitude - 0x10000000;
  }

  private compressed(): { value: number; size: number } {
    const first = this.u8();
    if ((first & 0x80) === 0) return { value: first, size: 1 };
    if ((first & 0xc0) === 0x80) return { value: ((first & 0x3f) << 8) | this.u8(), size: 2 };
    if ((first & 0xe0) === 0xc0) {
      const value = ((first & 0x1f) << 24) | (this.u8() << 16) | (this.u8() << 8) | this.u8();
      return { value: value >>> 0, size: 4 };
    }
    throw new Error(`bad compressed integer 0x${first.toString(16)} at ${this.pos - 1}`);
  }

  private need(count: number): void {
    if (this.pos + count > this.end) throw new Error(`metadata blob ends early (need ${count} bytes at ${this.pos}, end ${this.end})`);
  }
}

/** A GUID as text in the registry form (first three fields little-endian), lowercase. */
export function guidText(bytes: Buffer): string {
  const hex = (b: Buffer) => b.toString('hex');
  const le = (start: number, length: number) => hex(Buffer.from(bytes.subarray(start, start + length)).reverse());
  return `${le(0, 4)}-${le(4, 2)}-${le(6, 2)}-${hex(bytes.subarray(8, 10))}-${hex(bytes.subarray(10, 16))}`;
}
