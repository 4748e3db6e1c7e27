/**
 * A type's members as a debugger shows them: fields (with the auto-properties they back), properties
 * with their getters, methods by name, enum constants, and the debugger attributes
 * ([DebuggerDisplay], [DebuggerBrowsable], [DebuggerTypeProxy]) with their arguments.
 */
import type { AssemblyMetadata } from './assemblyMetadata.js';
import { BlobReader } from './blobReader.js';
import { encodeCoded } from './metadataTables.js';
import { fieldSig, methodSig, type MethodSig, type TypeSig } from './signatures.js';
import { Coded, Table, token, tokenRid } from './tableSchema.js';

export interface FieldInfo {
  token: number;
  name: string;
  isStatic: boolean;
  isLiteral: boolean;
  isPublic: boolean;
  type: TypeSig;
  /** For `<Name>k__BackingField` of an auto-property: the property it backs (one whose getter is written, with C# 14's `field`, is read by its getter). */
  propertyName?: string;
  /** [DebuggerBrowsable(Never)] (compiler backing fields carry it too). */
  hidden: boolean;
  /** A tuple-typed field's element names ([TupleElementNames]). */
  tupleNames?: TupleNames;
}

export interface PropertyInfo {
  name: string;
  getter?: number;
  isStatic: boolean;
  /** Its getter is public. */
  isPublic: boolean;
  hidden: boolean;
  /** [DebuggerBrowsable(RootHidden)]: its children are shown in its place. */
  rootHidden: boolean;
  /** Its getter is the compiler's (an auto-property's `get;`), not code the type wrote. */
  auto: boolean;
  /** A tuple-typed property's element names ([TupleElementNames]). */
  tupleNames?: TupleNames;
}

/** A tuple's element names in order, undefined for an unnamed element (`(int count, string)`). */
export type TupleNames = (string | undefined)[];

export interface DebuggerAttributes {
  display?: string;
  typeProxy?: string;
  hidden: boolean;
  rootHidden: boolean;
}

/** Field and method access (the low 3 bits of their flags), II.23.1.5 / II.23.1.10. */
const ACCESS_MASK = 0x7;
const PUBLIC = 0x6;
const FIELD_STATIC = 0x10;
const FIELD_LITERAL = 0x40;
const METHOD_STATIC = 0x10;
const SEMANTICS_GETTER = 0x2;
const PARAM_OPTIONAL = 0x0010;
const BROWSABLE_NEVER = 0;
const BROWSABLE_ROOT_HIDDEN = 3;
const COMPILER_GENERATED = 'System.Runtime.CompilerServices.CompilerGeneratedAttribute';
const BACKING_FIELD = /^<(.+)>k__BackingField$/;

export function fieldsOf(meta: AssemblyMetadata, typeRid: number): FieldInfo[] {
  const { first, last } = meta.tables.listRange(Table.TypeDef, typeRid, 'fieldList', Table.Field);
  const fields: FieldInfo[] = [];
  for (let rid = first; rid <= last; rid++) {
    const row = meta.tables.row(Table.Field, rid);
    const name = meta.tables.string(row.name!);
    const tok = token(Table.Field, rid);
    fields.push({
      token: tok,
      name,
      isStatic: (row.flags! & FIELD_STATIC) !== 0,
      isLiteral: (row.flags! & FIELD_LITERAL) !== 0,
      isPublic: (row.flags! & ACCESS_MASK) === PUBLIC,
      type: fieldSig(meta.tables.blob(row.signature!)),
      propertyName: BACKING_FIELD.exec(name)?.[1],
      hidden: debuggerAttributes(meta, tok).hidden,
      ...withTupleNames(meta, tok),
    });
  }
  // A property whose getter is written (`get => field ??= Load()`, C# 14) is not its field's value.
  if (!fields.some((f) => f.propertyName)) return fields;
  const computed = new Set(propertiesOf(meta, typeRid).filter((p) => !p.auto).map((p) => p.name));
  return fields.map((f) => (f.propertyName && computed.has(f.propertyName) ? { ...f, propertyName: undefined } : f));
}

export function propertiesOf(meta: AssemblyMetadata, typeRid: number): PropertyInfo[] {
  const t = meta.tables;
  const mapRid = t.rowsWhere(Table.PropertyMap, 'parent', typeRid).at(-1);
  if (!mapRid) return [];
  const { first, last } = t.listRange(Table.PropertyMap, mapRid, 'propertyList', Table.Property);
  const properties: PropertyInfo[] = [];
  for (let rid = first; rid <= last; rid++) {
    const semantics = t.rowsWhere(Table.MethodSemantics, 'association', encodeCoded(Table.Property, rid, Coded.HasSemantics));
    const getter = semantics.map((s) => t.row(Table.MethodSemantics, s)).find((row) => row.semantics! & SEMANTICS_GETTER)?.method;
    const getterInfo = getter ? meta.method(getter) : undefined;
    const browsable = debuggerAttributes(meta, token(Table.Property, rid));
    properties.push({
      name: t.string(t.row(Table.Property, rid).name!),
      getter: getterInfo?.token,
      isStatic: getterInfo ? (getterInfo.flags & METHOD_STATIC) !== 0 : false,
      isPublic: getterInfo ? (getterInfo.flags & ACCESS_MASK) === PUBLIC : false,
      hidden: browsable.hidden,
      rootHidden: browsable.rootHidden,
      auto: !!getterInfo && meta.attributeNames(getterInfo.token).includes(COMPILER_GENERATED),
      ...withTupleNames(meta, token(Table.Property, rid)),
    });
  }
  return properties;
}

/** Methods of a type with this name (every overload), with their signatures. */
export function methodsNamed(meta: AssemblyMetadata, typeRid: number, name: string): { token: number; sig: MethodSig; isStatic: boolean }[] {
  const { first, last } = meta.tables.listRange(Table.TypeDef, typeRid, 'methodList', Table.MethodDef);
  const found: { token: number; sig: MethodSig; isStatic: boolean }[] = [];
  for (let rid = first; rid <= last; rid++) {
    const row = meta.tables.row(Table.MethodDef, rid);
    if (meta.tables.string(row.name!) !== name) continue;
    found.push({ token: token(Table.MethodDef, rid), sig: methodSig(meta.tables.blob(row.signature!)), isStatic: (row.flags! & METHOD_STATIC) !== 0 });
  }
  return found;
}

/** The metadata names of a type's local functions named `name` (`<ExecuteAsync>g__Describe|4_2`), of whichever method. */
export function localFunctionNames(meta: AssemblyMetadata, typeRid: number, name: string): string[] {
  const { first, last } = meta.tables.listRange(Table.TypeDef, typeRid, 'methodList', Table.MethodDef);
  const names: string[] = [];
  for (let rid = first; rid <= last; rid++) {
    const method = meta.tables.string(meta.tables.row(Table.MethodDef, rid).name!);
    if (method.startsWith('<') && method.includes(`>g__${name}|`)) names.push(method);
  }
  return names;
}

/** A method's parameter names by position (metadata Param rows, sequence 1 = the first). */
export function parameterNames(meta: AssemblyMetadata, methodRid: number): string[] {
  const { first, last } = meta.tables.listRange(Table.MethodDef, methodRid, 'paramList', Table.Param);
  const names: string[] = [];
  for (let rid = first; rid <= last; rid++) {
    const row = meta.tables.row(Table.Param, rid);
    if (row.sequence! > 0) names[row.sequence! - 1] = meta.tables.string(row.name!);
  }
  return names;
}

/** The tuple element names of a method's parameter (sequence 1 = the first) or, at sequence 0, of what it returns. */
export function parameterTupleNames(meta: AssemblyMetadata, methodRid: number, sequence: number): TupleNames | undefined {
  const { first, last } = meta.tables.listRange(Table.MethodDef, methodRid, 'paramList', Table.Param);
  for (let rid = first; rid <= last; rid++) {
    if (meta.tables.row(Table.Param, rid).sequence === sequence) return tupleElementNames(meta, token(Table.Param, rid));
  }
  return undefined;
}

/** How many of a method's last parameters are optional (their Param rows' Optional flag: `x = default`). */
export function optionalParameterCount(meta: AssemblyMetadata, methodRid: number, paramCount: number): number {
  const { first, last } = meta.tables.listRange(Table.MethodDef, methodRid, 'paramList', Table.Param);
  const optional = new Set<number>();
  for (let rid = first; rid <= last; rid++) {
    const row = meta.tables.row(Table.Param, rid);
    if (row.sequence! > 0 && (row.flags! & PARAM_OPTIONAL) !== 0) optional.add(row.sequence!);
  }
  let count = 0;
  while (count < paramCount && optional.has(paramCount - count)) count++;
  return count;
}

/** Whether a method's last parameter is `params T[]` ([ParamArray] on its Param row). */
export function hasParamArray(meta: AssemblyMetadata, methodRid: number, paramCount: number): boolean {
  if (paramCount === 0) return false;
  const { first, last } = meta.tables.listRange(Table.MethodDef, methodRid, 'paramList', Table.Param);
  for (let rid = first; rid <= last; rid++) {
    if (meta.tables.row(Table.Param, rid).sequence !== paramCount) continue;
    return meta.attributeNames(token(Table.Param, rid)).includes('System.ParamArrayAttribute');
  }
  return false;
}

/** The value of a literal field (`const`, enum member): its element type and raw bytes. */
export function literalOf(meta: AssemblyMetadata, fieldToken: number): { et: number; bytes: Buffer } | undefined {
  const t = meta.tables;
  const [rid] = t.rowsWhere(Table.Constant, 'parent', encodeCoded(Table.Field, tokenRid(fieldToken), Coded.HasConstant));
  const row = rid ? t.row(Table.Constant, rid) : undefined;
  return row && { et: row.type! & 0xff, bytes: t.blob(row.value!) };
}

/** An enum's named values (literal static fields), for names and flags. */
export function enumConstants(meta: AssemblyMetadata, typeRid: number): { name: string; value: bigint }[] {
  return fieldsOf(meta, typeRid)
    .filter((f) => f.isLiteral && f.isStatic)
    .flatMap((f) => {
      const literal = literalOf(meta, f.token);
      const value = literal && constantValue(literal.et, literal.bytes);
      return value === undefined ? [] : [{ name: f.name, value }];
    });
}

export function debuggerAttributes(meta: AssemblyMetadata, target: number): DebuggerAttributes {
  const found: DebuggerAttributes = { hidden: false, rootHidden: false };
  for (const attribute of meta.customAttributes(target)) {
    const r = new BlobReader(attribute.value);
    if (attribute.value.length < 2 || r.u16() !== 0x0001) continue;
    switch (attribute.type) {
      case 'System.Diagnostics.DebuggerDisplayAttribute':
        found.display = serString(r);
        break;
      case 'System.Diagnostics.DebuggerBrowsableAttribute': {
        const state = r.u32();
        found.hidden = state === BROWSABLE_NEVER;
        found.rootHidden = state === BROWSABLE_ROOT_HIDDEN;
        break;
      }
      case 'System.Diagnostics.DebuggerTypeProxyAttribute':
        found.typeProxy = serString(r);
        break;
    }
  }
  return found;
}

/**
 * The tuple element names of a field, property or parameter (a method's return: its Param row 0), from
 * [TupleElementNames(new[] { "name", "count" })], which the compiler puts on each declaration whose type
 * names its elements (the PDB names a plain local's); unnamed: undefined.
 */
export function tupleElementNames(meta: AssemblyMetadata, target: number): TupleNames | undefined {
  const attribute = meta.customAttributes(target).find((a) => a.type === 'System.Runtime.CompilerServices.TupleElementNamesAttribute');
  if (!attribute || attribute.value.length < 6) return undefined;
  const r = new BlobReader(attribute.value);
  if (r.u16() !== 0x0001) return undefined;
  const count = r.u32();
  if (count === 0xffffffff) return undefined;
  const names: (string | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const name = serString(r);
    if (name === undefined) r.u8();
    names.push(name);
  }
  return names;
}

function withTupleNames(meta: AssemblyMetadata, target: number): { tupleNames?: TupleNames } {
  const tupleNames = tupleElementNames(meta, target);
  return tupleNames ? { tupleNames } : {};
}

/** Whether a type's attribute list holds [Flags]. */
export function isFlagsEnum(meta: AssemblyMetadata, typeRid: number): boolean {
  return meta.customAttributes(token(Table.TypeDef, typeRid)).some((a) => a.type === 'System.FlagsAttribute');
}

/** A SerString (II.23.3): 0xFF for null, else a compressed length and UTF-8 bytes. */
function serString(r: BlobReader): string | undefined {
  if (r.bytes[r.pos] === 0xff) return undefined;
  const length = r.compressedUnsigned();
  return r.bytesOf(length).toString('utf8');
}

function constantValue(et: number, blob: Buffer): bigint {
  switch (et) {
    case 0x02:
    case 0x04:
      return BigInt(blob.readInt8(0));
    case 0x05:
      return BigInt(blob.readUInt8(0));
    case 0x03:
    case 0x07:
      return BigInt(blob.readUInt16LE(0));
    case 0x06:
      return BigInt(blob.readInt16LE(0));
    case 0x08:
      return BigInt(blob.readInt32LE(0));
    case 0x09:
      return BigInt(blob.readUInt32LE(0));
    case 0x0a:
      return blob.readBigInt64LE(0);
    case 0x0b:
      return blob.readBigUInt64LE(0);
    default:
      return 0n;
  }
}
