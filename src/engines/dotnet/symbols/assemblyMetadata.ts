/**
 * An assembly's type system as a debugger reads it: types with their nesting and generic
 * parameters, methods with their declaring type, IL size and custom attributes, and the entry point.
 */
import { csharpTypeKeyword, parseGeneratedName, withTypeArguments } from './csharpNames.js';
import { decodeCoded, encodeCoded, MetadataTables } from './metadataTables.js';
import { readPeImage, type PeImage } from './peImage.js';
import { Coded, Table, token, tokenRid, tokenTable } from './tableSchema.js';

export interface TypeInfo {
  rid: number;
  name: string;
  namespace: string;
  flags: number;
  /** Row id of the enclosing type for a nested type. */
  enclosing?: number;
  genericParams: string[];
}

export interface MethodInfo {
  rid: number;
  token: number;
  name: string;
  flags: number;
  implFlags: number;
  rva: number;
  declaringType: number;
  genericParams: string[];
}

const METHOD_SPECIAL_NAME = 0x0800;

export class AssemblyMetadata {
  readonly tables: MetadataTables;
  readonly entryPointToken: number;
  private readonly typeCache = new Map<number, TypeInfo>();

  constructor(
    readonly image: PeImage,
    readonly path?: string,
  ) {
    if (!image.metadata) throw new Error('not a .NET assembly (no CLI metadata)');
    this.tables = new MetadataTables(image.metadata);
    this.entryPointToken = image.entryPointToken;
  }

  // Looked up row by row, nothing indexed up front: System.Private.CoreLib has ~40,000 methods, and
  // its metadata is opened at every launch's first stop.

  /** The TypeDef owning a method: the last type whose method list starts at or before it (II.22.37). */
  private methodOwner(rid: number): number {
    const t = this.tables;
    if (rid < 1 || rid > t.rowCount(Table.MethodDef)) return 0;
    let low = 1;
    let high = t.rowCount(Table.TypeDef) + 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (t.cell(Table.TypeDef, mid, 'methodList') <= rid) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }

  private enclosingOf(typeRid: number): number | undefined {
    const [row] = this.tables.rowsWhere(Table.NestedClass, 'nested', typeRid);
    return row === undefined ? undefined : this.tables.cell(Table.NestedClass, row, 'enclosing');
  }

  /** A type's or method's generic parameter names, in order. */
  private genericParamsOf(table: Table.TypeDef | Table.MethodDef, rid: number): string[] {
    const list: string[] = [];
    for (const row of this.tables.rowsWhere(Table.GenericParam, 'owner', encodeCoded(table, rid, Coded.TypeOrMethodDef))) {
      list[this.tables.cell(Table.GenericParam, row, 'number')] = this.tables.string(this.tables.cell(Table.GenericParam, row, 'name'));
    }
    return list;
  }

  static fromBuffer(buffer: Buffer, path?: string): AssemblyMetadata {
    return new AssemblyMetadata(readPeImage(buffer), path);
  }

  get typeCount(): number {
    return this.tables.rowCount(Table.TypeDef);
  }

  get methodCount(): number {
    return this.tables.rowCount(Table.MethodDef);
  }

  type(rid: number): TypeInfo {
    let info = this.typeCache.get(rid);
    if (!info) {
      const row = this.tables.row(Table.TypeDef, rid);
      info = {
        rid,
        name: this.tables.string(row.name!),
        namespace: this.tables.string(row.namespace!),
        flags: row.flags!,
        enclosing: this.enclosingOf(rid),
        genericParams: this.genericParamsOf(Table.TypeDef, rid),
      };
      this.typeCache.set(rid, info);
    }
    return info;
  }

  method(rid: number): MethodInfo {
    const row = this.tables.row(Table.MethodDef, rid);
    return {
      rid,
      token: token(Table.MethodDef, rid),
      name: this.tables.string(row.name!),
      flags: row.flags!,
      implFlags: row.implFlags!,
      rva: row.rva!,
      declaringType: this.methodOwner(rid),
      genericParams: this.genericParamsOf(Table.MethodDef, rid),
    };
  }

  methodByToken(tok: number): MethodInfo | undefined {
    if (tokenTable(tok) !== Table.MethodDef) return undefined;
    const rid = tokenRid(tok);
    return rid >= 1 && rid <= this.methodCount ? this.method(rid) : undefined;
  }

  isSpecialName(method: MethodInfo): boolean {
    return (method.flags & METHOD_SPECIAL_NAME) !== 0;
  }

  /** The size of a method's IL code, from its body header (II.25.4), or 0 when it has no body. */
  ilSize(method: MethodInfo): number {
    if (method.rva === 0) return 0;
    const header = this.image.at(method.rva, 1);
    if (!header) return 0;
    if ((header[0]! & 0x3) === 0x2) return header[0]! >>> 2; // tiny header
    const fat = this.image.at(method.rva, 12);
    return fat ? fat.readUInt32LE(4) : 0;
  }

  /**
   * A type's C# name with its type arguments (the actual ones when given, else the declared
   * parameters); compiler-generated closure and state-machine classes show as the type that holds them
   * (a frame's method is named in its source type), unless `ownName`: a value's type is its own class
   * (an iterator `book.Paid()` returns is an `Orders.OrderBook.<Paid>d__9`, as Visual Studio names it).
   */
  csharpTypeName(typeRid: number, typeArgs: string[] = [], ownName = false): string {
    const type = this.type(typeRid);
    if (type.enclosing && !ownName && parseGeneratedName(type.name)) return this.csharpTypeName(type.enclosing, typeArgs);
    const all = typeArgs.length === type.genericParams.length ? typeArgs : type.genericParams;
    const arity = Number(/`(\d+)$/.exec(type.name)?.[1] ?? 0);
    const own = all.slice(all.length - arity);
    const prefix = type.enclosing
      ? `${this.csharpTypeName(type.enclosing, all.slice(0, all.length - arity))}.`
      : type.namespace
        ? `${type.namespace}.`
        : '';
    return csharpTypeKeyword(prefix + withTypeArguments(type.name, own));
  }

  /** `Namespace.Name` of a type's base type (as its `extends` names it), or '' for none. */
  baseTypeName(typeRid: number): string {
    const extendsCoded = this.tables.row(Table.TypeDef, typeRid).extends!;
    if (!extendsCoded) return '';
    const base = decodeCoded(extendsCoded, Coded.TypeDefOrRef);
    return this.typeNameOf(base.table, base.rid);
  }

  /** A method's IL code (after its tiny or fat header), or an empty buffer. */
  ilCode(method: MethodInfo): Buffer {
    const size = this.ilSize(method);
    const header = method.rva ? this.image.at(method.rva, 2) : undefined;
    if (!header || size === 0) return Buffer.alloc(0);
    const headerSize = (header[0]! & 0x3) === 0x2 ? 1 : ((header.readUInt16LE(0) >>> 12) & 0xf) * 4;
    return this.image.at(method.rva + headerSize, size) ?? Buffer.alloc(0);
  }

  /** The namespace-qualified names of the attribute types applied to a token. */
  attributeNames(target: number): string[] {
    return this.customAttributes(target).map((a) => a.type);
  }

  /** The custom attributes applied to a token: attribute type name and the raw value blob. */
  customAttributes(target: number): { type: string; value: Buffer }[] {
    const parent = encodeCoded(tokenTable(target), tokenRid(target), Coded.HasCustomAttribute);
    return this.tables.rowsWhere(Table.CustomAttribute, 'parent', parent).map((rid) => {
      const row = this.tables.row(Table.CustomAttribute, rid);
      return { type: this.attributeTypeName(row.type!), value: this.tables.blob(row.value!) };
    });
  }

  /** `Namespace.Name` of a TypeDef, TypeRef or (when simple) TypeSpec, by coded TypeDefOrRef / token. */
  typeNameOf(table: number, rid: number): string {
    if (table === Table.TypeDef) {
      const type = this.type(rid);
      const outer = type.enclosing ? `${this.typeNameOf(Table.TypeDef, type.enclosing)}+` : type.namespace ? `${type.namespace}.` : '';
      return outer + type.name;
    }
    if (table === Table.TypeRef) {
      const row = this.tables.row(Table.TypeRef, rid);
      const namespace = this.tables.string(row.namespace!);
      return (namespace ? `${namespace}.` : '') + this.tables.string(row.name!);
    }
    return '';
  }

  private attributeTypeName(codedConstructor: number): string {
    const ctor = decodeCoded(codedConstructor, Coded.CustomAttributeType);
    if (ctor.table === Table.MethodDef) return this.typeNameOf(Table.TypeDef, this.methodOwner(ctor.rid));
    if (ctor.table === Table.MemberRef) {
      const parent = decodeCoded(this.tables.row(Table.MemberRef, ctor.rid).parent!, Coded.MemberRefParent);
      return this.typeNameOf(parent.table, parent.rid);
    }
    return '';
  }
}

/** The metadata name of a TypeDef or TypeRef: `Namespace.Name`, nested types as `Outer+Inner`. */
export function typeFullName(meta: AssemblyMetadata, table: number, rid: number): string {
  if (table === Table.TypeRef) {
    const row = meta.tables.row(Table.TypeRef, rid);
    const scope = decodeCoded(row.scope!, Coded.ResolutionScope);
    const own = meta.tables.string(row.name!);
    if (scope.table === Table.TypeRef) return `${typeFullName(meta, Table.TypeRef, scope.rid)}+${own}`;
    const namespace = meta.tables.string(row.namespace!);
    return namespace ? `${namespace}.${own}` : own;
  }
  return meta.typeNameOf(Table.TypeDef, rid);
}
