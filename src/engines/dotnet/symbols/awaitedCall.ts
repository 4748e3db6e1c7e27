/**
 * The call an `await` waits on, from the IL of the async method's MoveNext: the compiler emits the
 * awaited call, then (ConfigureAwait and) GetAwaiter, IsCompleted and the suspension, so the last
 * call before the await's GetAwaiter is the API the program awaited (`NetworkStream.ReadAsync`,
 * `HttpClient.GetAsync`). The IL is decoded instruction by instruction from the method's start
 * (ECMA-335 III: opcode and operand sizes), never scanned for bytes that might be operands.
 */
import { typeFullName, type AssemblyMetadata } from './assemblyMetadata.js';
import { BlobReader } from './blobReader.js';
import { decodeCoded } from './metadataTables.js';
import { Coded, Table, token, tokenRid, tokenTable } from './tableSchema.js';

export interface CalledMethod {
  /** The declaring type's metadata name (`System.Net.Sockets.NetworkStream`, generic types with their arity). */
  type: string;
  name: string;
}

const CALL = 0x28;
const CALLVIRT = 0x6f;
/** Calls between the awaited one and its GetAwaiter. */
const AWAIT_PLUMBING = new Set(['ConfigureAwait', 'GetAwaiter', 'AsTask', 'WaitAsync']);

/** The method called last before the GetAwaiter of the await that suspends at `yieldOffset`. */
export function awaitedCall(meta: AssemblyMetadata, il: Buffer, yieldOffset: number): CalledMethod | undefined {
  const calls = calledMethods(meta, il, 0, yieldOffset);
  const getAwaiter = calls.map((c) => c.name).lastIndexOf('GetAwaiter');
  return getAwaiter < 0 ? undefined : calls.slice(0, getAwaiter).reverse().find((c) => !AWAIT_PLUMBING.has(c.name));
}

/** The methods called (call, callvirt) by the instructions in [from, to) of a method's IL, in order. */
export function calledMethods(meta: AssemblyMetadata, il: Buffer, from: number, to: number): CalledMethod[] {
  const calls: CalledMethod[] = [];
  for (const { at, opcode, operand } of instructions(il, Math.min(to, il.length))) {
    if (at < from || (opcode !== CALL && opcode !== CALLVIRT)) continue;
    const called = methodNamed(meta, operand);
    if (called) calls.push(called);
  }
  return calls;
}

/** Operand sizes of the one-byte opcodes that have one (all others have none but `switch`). */
const ONE_BYTE_OPERANDS = new Map<number, number>();
const sized = (size: number, ...ranges: [number, number][]) => ranges.forEach(([from, to]) => { for (let op = from; op <= to; op++) ONE_BYTE_OPERANDS.set(op, size); });
sized(1, [0x0e, 0x13], [0x1f, 0x1f], [0x2b, 0x37], [0xde, 0xde]);
sized(4, [0x20, 0x20], [0x22, 0x22], [0x27, 0x29], [0x38, 0x44], [0x6f, 0x75], [0x79, 0x79], [0x7b, 0x81], [0x8c, 0x8d], [0x8f, 0x8f], [0xa3, 0xa5], [0xc2, 0xc2], [0xc6, 0xc6], [0xd0, 0xd0], [0xdd, 0xdd]);
sized(8, [0x21, 0x21], [0x23, 0x23]);
const SWITCH = 0x45;
/** Two-byte opcodes (0xFE xx) with operands: ldftn … sizeof take a token, ldarg … stloc an index, unaligned. / no. a byte. */
const TWO_BYTE_OPERANDS = new Map<number, number>([
  [0x06, 4], [0x07, 4], [0x15, 4], [0x16, 4], [0x1c, 4],
  [0x09, 2], [0x0a, 2], [0x0b, 2], [0x0c, 2], [0x0d, 2], [0x0e, 2],
  [0x12, 1], [0x19, 1],
]);

function* instructions(il: Buffer, end: number): Generator<{ at: number; opcode: number; operand: number }> {
  let at = 0;
  while (at < end) {
    const start = at;
    let opcode = il[at++]!;
    let size: number;
    if (opcode === 0xfe) {
      opcode = 0xfe00 | (il[at++] ?? 0);
      size = TWO_BYTE_OPERANDS.get(opcode & 0xff) ?? 0;
    } else if (opcode === SWITCH) {
      size = 4 + 4 * (at + 4 <= il.length ? il.readUInt32LE(at) : 0);
    } else size = ONE_BYTE_OPERANDS.get(opcode) ?? 0;
    if (at + size > il.length) return;
    yield { at: start, opcode, operand: size === 4 ? il.readUInt32LE(at) : 0 };
    at += size;
  }
}

/** A MethodDef, MemberRef or MethodSpec token's declaring type and name. */
function methodNamed(meta: AssemblyMetadata, tok: number): CalledMethod | undefined {
  const rid = tokenRid(tok);
  switch (tokenTable(tok)) {
    case Table.MethodDef: {
      const method = meta.method(rid);
      return { type: meta.typeNameOf(Table.TypeDef, method.declaringType), name: method.name };
    }
    case Table.MemberRef: {
      const row = meta.tables.row(Table.MemberRef, rid);
      const parent = decodeCoded(row.parent!, Coded.MemberRefParent);
      return { type: typeTokenName(meta, parent.table, parent.rid), name: meta.tables.string(row.name!) };
    }
    case Table.MethodSpec: {
      const method = decodeCoded(meta.tables.row(Table.MethodSpec, rid).method!, Coded.MethodDefOrRef);
      return methodNamed(meta, token(method.table, method.rid));
    }
    default:
      return undefined;
  }
}

/** A type token's metadata name: a type by name, or a generic instantiation's type (a TypeSpec's GENERICINST). */
export function typeTokenName(meta: AssemblyMetadata, table: number, rid: number): string {
  if (table === Table.TypeDef || table === Table.TypeRef) return typeFullName(meta, table, rid);
  if (table !== Table.TypeSpec) return '';
  const blob = meta.tables.blob(meta.tables.row(Table.TypeSpec, rid).signature!);
  const r = new BlobReader(blob);
  const GENERIC_INSTANCE = 0x15;
  if (blob.length < 3 || r.u8() !== GENERIC_INSTANCE) return '';
  r.u8(); // CLASS or VALUETYPE
  const type = decodeCoded(r.compressedUnsigned(), Coded.TypeDefOrRef);
  return type.table === Table.TypeSpec ? '' : typeFullName(meta, type.table, type.rid);
}
