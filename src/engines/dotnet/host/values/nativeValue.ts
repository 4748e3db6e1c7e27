/** A value as the native side describes it (native/src/debugger/value_json.cpp). */
import type { NativeType } from '../nativeEvents.js';

export interface NativeValue {
  /** Handle for further reads; valid until the program runs on. */
  h: number;
  /** The object's address, for reference equality (references to heap objects only). */
  addr?: string;
  null?: boolean;
  /** CorElementType of the value itself (after references and boxes). */
  et?: number;
  boxed?: boolean;
  /** A primitive's value as text (exact for 64-bit integers). */
  v?: string;
  /** A string's text (capped) and full length; an array's element count. */
  str?: string;
  len?: number;
  dims?: number[];
  /** Arrays and null references: the type. */
  type?: NativeType;
  /** Objects and structs: the exact type, then each base class. */
  chain?: NativeType[];
}

export const ElementType = {
  boolean: 0x02,
  char: 0x03,
  i1: 0x04,
  u1: 0x05,
  i2: 0x06,
  u2: 0x07,
  i4: 0x08,
  u4: 0x09,
  i8: 0x0a,
  u8: 0x0b,
  r4: 0x0c,
  r8: 0x0d,
  string: 0x0e,
  valuetype: 0x11,
  class: 0x12,
  array: 0x14,
  i: 0x18,
  u: 0x19,
  object: 0x1c,
  szarray: 0x1d,
} as const;

/** The C# keyword of each primitive CorElementType (the numeric ones compute in expressions). */
export const NUMERIC_KEYWORDS = {
  0x02: 'bool',
  0x03: 'char',
  0x04: 'sbyte',
  0x05: 'byte',
  0x06: 'short',
  0x07: 'ushort',
  0x08: 'int',
  0x09: 'uint',
  0x0a: 'long',
  0x0b: 'ulong',
  0x0c: 'float',
  0x0d: 'double',
} as const satisfies Record<number, string>;

export const KEYWORDS: Record<number, string> = { ...NUMERIC_KEYWORDS, 0x01: 'void', 0x0e: 'string', 0x18: 'nint', 0x19: 'nuint', 0x1c: 'object' };

export function isPrimitive(et: number | undefined): boolean {
  return et !== undefined && ((et >= ElementType.boolean && et <= ElementType.r8) || et === ElementType.i || et === ElementType.u);
}
