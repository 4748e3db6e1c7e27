/**
 * ECMA-335 signature blobs (II.23.2): method signatures (for overloads and parameter types), field
 * and property types, local variable signatures, and the type signatures inside them.
 */
import { BlobReader } from './blobReader.js';
import { decodeCoded } from './metadataTables.js';
import { Coded, token } from './tableSchema.js';

export type TypeSig =
  | { kind: 'primitive'; et: number }
  | { kind: 'class' | 'valuetype'; token: number }
  | { kind: 'generic'; base: TypeSig; args: TypeSig[] }
  | { kind: 'szarray'; elem: TypeSig }
  | { kind: 'array'; elem: TypeSig; rank: number }
  | { kind: 'var' | 'mvar'; index: number }
  | { kind: 'byref' | 'ptr'; elem: TypeSig }
  | { kind: 'other'; et: number };

export interface MethodSig {
  hasThis: boolean;
  genericParams: number;
  returnType: TypeSig;
  params: TypeSig[];
}

const ET = {
  void: 0x01,
  string: 0x0e,
  ptr: 0x0f,
  byref: 0x10,
  valuetype: 0x11,
  class: 0x12,
  var: 0x13,
  array: 0x14,
  genericInst: 0x15,
  typedByRef: 0x16,
  i: 0x18,
  u: 0x19,
  fnptr: 0x1b,
  object: 0x1c,
  szarray: 0x1d,
  mvar: 0x1e,
  cmodReqd: 0x1f,
  cmodOpt: 0x20,
  sentinel: 0x41,
  pinned: 0x45,
};

export function readType(r: BlobReader): TypeSig {
  const et = r.u8();
  switch (et) {
    case ET.cmodReqd:
    case ET.cmodOpt:
      r.compressedUnsigned();
      return readType(r);
    case ET.pinned:
      return readType(r);
    case ET.class:
    case ET.valuetype: {
      const coded = decodeCoded(r.compressedUnsigned(), Coded.TypeDefOrRef);
      return { kind: et === ET.class ? 'class' : 'valuetype', token: token(coded.table, coded.rid) };
    }
    case ET.genericInst: {
      const base = readType(r);
      const count = r.compressedUnsigned();
      const args: TypeSig[] = [];
      for (let i = 0; i < count; i++) args.push(readType(r));
      return { kind: 'generic', base, args };
    }
    case ET.szarray:
      return { kind: 'szarray', elem: readType(r) };
    case ET.array: {
      const elem = readType(r);
      const rank = r.compressedUnsigned();
      const sizes = r.compressedUnsigned();
      for (let i = 0; i < sizes; i++) r.compressedUnsigned();
      const bounds = r.compressedUnsigned();
      for (let i = 0; i < bounds; i++) r.compressedSigned();
      return { kind: 'array', elem, rank };
    }
    case ET.var:
    case ET.mvar:
      return { kind: et === ET.var ? 'var' : 'mvar', index: r.compressedUnsigned() };
    case ET.byref:
    case ET.ptr:
      return { kind: et === ET.byref ? 'byref' : 'ptr', elem: readType(r) };
    case ET.fnptr:
      readMethodSig(r);
      return { kind: 'other', et };
    default:
      return et <= ET.string || et === ET.i || et === ET.u || et === ET.object || et === ET.typedByRef
        ? { kind: 'primitive', et }
        : { kind: 'other', et };
  }
}

export function readMethodSig(r: BlobReader): MethodSig {
  const conv = r.u8();
  const genericParams = conv & 0x10 ? r.compressedUnsigned() : 0;
  const count = r.compressedUnsigned();
  const returnType = readType(r);
  const params: TypeSig[] = [];
  for (let i = 0; i < count; i++) {
    if (r.bytes[r.pos] === ET.sentinel) r.pos++;
    params.push(readType(r));
  }
  return { hasThis: (conv & 0x20) !== 0, genericParams, returnType, params };
}

export function methodSig(blob: Buffer): MethodSig {
  return readMethodSig(new BlobReader(blob));
}

/** A field signature (0x06, then its type). */
export function fieldSig(blob: Buffer): TypeSig {
  const r = new BlobReader(blob);
  r.u8();
  return readType(r);
}

/** A local variable signature (0x07, count, types), as StandAloneSig holds it. */
export function localsSig(blob: Buffer): TypeSig[] {
  const r = new BlobReader(blob);
  if (r.u8() !== 0x07) return [];
  const count = r.compressedUnsigned();
  const types: TypeSig[] = [];
  for (let i = 0; i < count; i++) types.push(readType(r));
  return types;
}
