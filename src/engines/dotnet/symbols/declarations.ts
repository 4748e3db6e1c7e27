/**
 * The types things are declared with, from metadata signatures: a method's local variables (its body's
 * LocalVarSig), its parameters, the interfaces a type implements, and the constraints of a type
 * parameter. Set value checks a new object against them.
 */
import type { AssemblyMetadata } from './assemblyMetadata.js';
import { BlobReader } from './blobReader.js';
import { decodeCoded, encodeCoded } from './metadataTables.js';
import { localsSig, methodSig, readType, type MethodSig, type TypeSig } from './signatures.js';
import { Coded, Table, token, tokenRid, tokenTable } from './tableSchema.js';

const FAT_HEADER = 0x3;

/** The types of a method's local variable slots, in slot order (none for a tiny header). */
export function localVariableTypes(meta: AssemblyMetadata, methodRid: number): TypeSig[] {
  const method = meta.method(methodRid);
  const header = method.rva ? meta.image.at(method.rva, 12) : undefined;
  if (!header || (header[0]! & 0x3) !== FAT_HEADER) return [];
  const sigToken = header.readUInt32LE(8);
  if (tokenTable(sigToken) !== Table.StandAloneSig || tokenRid(sigToken) === 0) return [];
  return localsSig(meta.tables.blob(meta.tables.row(Table.StandAloneSig, tokenRid(sigToken)).signature!));
}

export function methodSignature(meta: AssemblyMetadata, methodRid: number): MethodSig {
  return methodSig(meta.tables.blob(meta.tables.row(Table.MethodDef, methodRid).signature!));
}

/** The interfaces a type declares it implements (not those of its base types). */
export function implementedInterfaces(meta: AssemblyMetadata, typeRid: number): TypeSig[] {
  const out: TypeSig[] = [];
  for (const rid of meta.tables.rowsWhere(Table.InterfaceImpl, 'type', typeRid)) {
    const row = meta.tables.row(Table.InterfaceImpl, rid);
    const coded = decodeCoded(row.interface!, Coded.TypeDefOrRef);
    if (coded.table === Table.TypeSpec) out.push(readType(new BlobReader(meta.tables.blob(meta.tables.row(Table.TypeSpec, coded.rid).signature!))));
    else out.push({ kind: 'class', token: token(coded.table, coded.rid) });
  }
  return out;
}

/** A generic parameter as its GenericParam row declares it: name, flags (`class`, `struct`, `new()`) and constraint types (TypeDef, TypeRef or TypeSpec tokens). */
export interface GenericParamDecl {
  name: string;
  flags: number;
  constraints: number[];
}

/** The generic parameters of a type or method, in order. */
export function genericParameters(meta: AssemblyMetadata, owner: Table.TypeDef | Table.MethodDef, ownerRid: number): GenericParamDecl[] {
  const t = meta.tables;
  const out: GenericParamDecl[] = [];
  for (const rid of t.rowsWhere(Table.GenericParam, 'owner', encodeCoded(owner, ownerRid, Coded.TypeOrMethodDef))) {
    const row = t.row(Table.GenericParam, rid);
    const constraints = t.rowsWhere(Table.GenericParamConstraint, 'owner', rid).map((c) => {
      const coded = decodeCoded(t.row(Table.GenericParamConstraint, c).constraint!, Coded.TypeDefOrRef);
      return token(coded.table, coded.rid);
    });
    out[row.number!] = { name: t.string(row.name!), flags: row.flags!, constraints };
  }
  return out;
}

/** The constraint types (TypeDef, TypeRef or TypeSpec tokens) of type parameter `index` of a type or method. */
export function typeParameterConstraints(meta: AssemblyMetadata, owner: Table.TypeDef | Table.MethodDef, ownerRid: number, index: number): number[] {
  return genericParameters(meta, owner, ownerRid)[index]?.constraints ?? [];
}
