/**
 * The program's types as overload resolution needs them (expressions/overloadResolution.ts's
 * TypeFacts), read from the metadata of every loaded module: types by metadata name, their base types
 * and interfaces, variance, value types and enums; signatures turned into ClrTypes; and ClrTypes turned
 * into the type specs the native side makes runtime types of.
 */
import { type ClrType, named, OBJECT, STRING, substitute } from '../../expressions/clrType.js';
import type { TypeFacts } from '../../expressions/overloadResolution.js';
import { type AssemblyMetadata, typeFullName } from '../../symbols/assemblyMetadata.js';
import { decodeCoded } from '../../symbols/metadataTables.js';
import { readType, type TypeSig } from '../../symbols/signatures.js';
import { BlobReader } from '../../symbols/blobReader.js';
import { methodsNamed } from '../../symbols/typeMembers.js';
import { Coded, Table, token, tokenRid, tokenTable } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { NativeType } from '../nativeEvents.js';
import type { TypeSpec } from '../nativeSession.js';
import { ElementType, type NativeValue } from '../values/nativeValue.js';

export interface TypeDefinition {
  module: number;
  meta: AssemblyMetadata;
  rid: number;
}

const PRIMITIVE_NAMES: Record<number, string> = {
  [ElementType.boolean]: 'System.Boolean',
  [ElementType.char]: 'System.Char',
  [ElementType.i1]: 'System.SByte',
  [ElementType.u1]: 'System.Byte',
  [ElementType.i2]: 'System.Int16',
  [ElementType.u2]: 'System.UInt16',
  [ElementType.i4]: 'System.Int32',
  [ElementType.u4]: 'System.UInt32',
  [ElementType.i8]: 'System.Int64',
  [ElementType.u8]: 'System.UInt64',
  [ElementType.r4]: 'System.Single',
  [ElementType.r8]: 'System.Double',
  [ElementType.string]: STRING,
  [ElementType.i]: 'System.IntPtr',
  [ElementType.u]: 'System.UIntPtr',
  [ElementType.object]: OBJECT,
  0x16: 'System.TypedReference',
  0x01: 'System.Void',
};

/** Interfaces every one-dimensional array implements, beside System.Array's own. */
const ARRAY_INTERFACES = ['System.Collections.Generic.IList`1', 'System.Collections.Generic.ICollection`1', 'System.Collections.Generic.IEnumerable`1', 'System.Collections.Generic.IReadOnlyList`1', 'System.Collections.Generic.IReadOnlyCollection`1'];

const INTERFACE = 0x20;
const ABSTRACT = 0x80;
// MethodAttributes' member access mask, and its public value.
const MEMBER_ACCESS = 0x7;
const PUBLIC = 0x6;
const VARIANCE_MASK = 0x3;

export class ClrTypes implements TypeFacts {
  private readonly byModule = new Map<number, Map<string, number>>();
  private readonly interfacesByModule = new Map<number, Map<number, number[]>>();
  private readonly supertypeCache = new Map<string, ClrType[]>();
  private readonly varianceByModule = new Map<number, Map<string, 'in' | 'out'>>();

  constructor(private readonly modules: ModuleRegistry) {}

  /** The TypeDef of a metadata name in a loaded module (the framework's CoreLib first). */
  definition(name: string): TypeDefinition | undefined {
    for (const module of this.modules.all()) {
      const rid = this.index(module.handle)?.get(name);
      if (rid !== undefined) return { module: module.handle, meta: this.modules.metadata(module.handle)!, rid };
    }
    return undefined;
  }

  /** The name of the assembly a loaded module holds (its file's name, as the build writes it). */
  assemblyName(module: number): string {
    return (this.modules.get(module)?.path ?? '').replace(/^.*[\\/]/, '').replace(/\.(dll|exe)$/i, '');
  }

  /** A signature's type as a ClrType; `meta` is the module the signature belongs to. */
  fromSig(sig: TypeSig, meta: AssemblyMetadata): ClrType {
    switch (sig.kind) {
      case 'primitive':
        return named(PRIMITIVE_NAMES[sig.et] ?? OBJECT);
      case 'class':
      case 'valuetype':
        return this.fromToken(sig.token, meta);
      case 'generic': {
        const base = this.fromSig(sig.base, meta);
        return base.kind === 'named' ? named(base.name, sig.args.map((a) => this.fromSig(a, meta))) : base;
      }
      case 'szarray':
        return { kind: 'array', elem: this.fromSig(sig.elem, meta), rank: 1 };
      case 'array':
        return { kind: 'array', elem: this.fromSig(sig.elem, meta), rank: sig.rank };
      case 'var':
      case 'mvar':
        return { kind: 'param', method: sig.kind === 'mvar', index: sig.index };
      case 'byref':
        return { kind: 'unusable', why: 'a ref parameter' };
      case 'ptr':
        return { kind: 'unusable', why: 'a pointer parameter' };
      default:
        return { kind: 'unusable', why: 'a parameter of an unusual type' };
    }
  }

  /** A TypeDef, TypeRef or TypeSpec token of `meta` as a ClrType (spans and other ref structs are unusable). */
  fromToken(tok: number, meta: AssemblyMetadata): ClrType {
    const table = tokenTable(tok);
    if (table === Table.TypeSpec) {
      const blob = meta.tables.blob(meta.tables.row(Table.TypeSpec, tokenRid(tok)).signature!);
      return this.fromSig(readType(new BlobReader(blob)), meta);
    }
    const name = typeFullName(meta, table, tokenRid(tok));
    if (name === 'System.Span`1' || name === 'System.ReadOnlySpan`1') return { kind: 'unusable', why: 'a span parameter' };
    return named(name);
  }

  /** The runtime type of a value read from the program. */
  fromValue(value: NativeValue): ClrType {
    if (value.null) return { kind: 'null' };
    if (value.et === ElementType.szarray || value.et === ElementType.array) {
      return value.type ? this.fromNative(value.type) : { kind: 'array', elem: named(OBJECT), rank: value.dims?.length ?? 1 };
    }
    if (value.chain?.[0]) return this.fromNative(value.chain[0]);
    return named(PRIMITIVE_NAMES[value.et ?? ElementType.object] ?? OBJECT);
  }

  fromNative(type: NativeType): ClrType {
    if (type.et === ElementType.szarray || type.et === ElementType.array) {
      return { kind: 'array', elem: type.elem ? this.fromNative(type.elem) : named(OBJECT), rank: type.et === ElementType.array ? (type.rank ?? 1) : 1 };
    }
    const primitive = PRIMITIVE_NAMES[type.et];
    if (primitive) return named(primitive);
    const meta = type.path ? this.modules.metadata(type.path) : type.module !== undefined ? this.modules.metadata(type.module) : undefined;
    if (!meta || !type.token) return named(OBJECT);
    return named(typeFullName(meta, Table.TypeDef, tokenRid(type.token)), (type.args ?? []).map((a) => this.fromNative(a)));
  }

  supertypes(t: ClrType): ClrType[] {
    if (t.kind === 'array') {
      const own = t.rank === 1 ? ARRAY_INTERFACES.map((name) => named(name, [t.elem])) : [];
      return [named('System.Array'), ...own];
    }
    if (t.kind !== 'named') return [];
    const key = JSON.stringify(t);
    let found = this.supertypeCache.get(key);
    if (!found) {
      found = this.readSupertypes(t);
      this.supertypeCache.set(key, found);
    }
    return found;
  }

  isValueType(t: ClrType): boolean {
    if (t.kind !== 'named') return false;
    if (PRIMITIVE_NAMES[ElementType.string] === t.name || t.name === OBJECT) return false;
    const def = this.definition(t.name);
    if (!def) return false;
    const base = def.meta.baseTypeName(def.rid);
    return (base === 'System.ValueType' && t.name !== 'System.Enum') || base === 'System.Enum';
  }

  isEnum(t: ClrType): boolean {
    if (t.kind !== 'named') return false;
    const def = this.definition(t.name);
    return !!def && def.meta.baseTypeName(def.rid) === 'System.Enum';
  }

  isInterface(t: ClrType): boolean {
    if (t.kind !== 'named') return false;
    const def = this.definition(t.name);
    return !!def && (def.meta.type(def.rid).flags & INTERFACE) !== 0;
  }

  /** `new()` holds: a struct, or a non-abstract class with a public constructor without parameters. */
  isConstructible(t: ClrType): boolean {
    if (this.isValueType(t)) return true;
    const def = t.kind === 'named' ? this.definition(t.name) : undefined;
    if (!def || (def.meta.type(def.rid).flags & (INTERFACE | ABSTRACT)) !== 0) return false;
    return methodsNamed(def.meta, def.rid, '.ctor').some((c) => !c.isStatic && c.sig.params.length === 0 && (def.meta.method(tokenRid(c.token)).flags & MEMBER_ACCESS) === PUBLIC);
  }

  variance(name: string, index: number): 'in' | 'out' | undefined {
    const def = this.definition(name);
    if (!def) return undefined;
    let byOwner = this.varianceByModule.get(def.module);
    if (!byOwner) {
      byOwner = new Map();
      const t = def.meta.tables;
      for (let rid = 1; rid <= t.rowCount(Table.GenericParam); rid++) {
        const row = t.row(Table.GenericParam, rid);
        const owner = decodeCoded(row.owner!, Coded.TypeOrMethodDef);
        const v = row.flags! & VARIANCE_MASK;
        if (owner.table === Table.TypeDef && v) byOwner.set(`${owner.rid}:${row.number}`, v === 1 ? 'out' : 'in');
      }
      this.varianceByModule.set(def.module, byOwner);
    }
    return byOwner.get(`${def.rid}:${index}`);
  }

  /** The native side's spec of a ClrType (undefined when a type it names is not loaded). */
  spec(t: ClrType): TypeSpec | undefined {
    if (t.kind === 'array') {
      const elem = this.spec(t.elem);
      return elem && (t.rank === 1 ? { elem } : { elem, rank: t.rank });
    }
    if (t.kind !== 'named') return undefined;
    const def = this.definition(t.name);
    if (!def) return undefined;
    const args: TypeSpec[] = [];
    for (const a of t.args) {
      const spec = this.spec(a);
      if (!spec) return undefined;
      args.push(spec);
    }
    return { module: def.module, token: token(Table.TypeDef, def.rid), ...(args.length && { args }), ...(this.isValueType(t) && { valuetype: true }) };
  }

  private readSupertypes(t: ClrType & { kind: 'named' }): ClrType[] {
    const def = this.definition(t.name);
    if (!def) return t.name === OBJECT ? [] : [named(OBJECT)];
    const sub = (s: ClrType) => substitute(s, t.args);
    const out: ClrType[] = [];
    const extendsCoded = def.meta.tables.row(Table.TypeDef, def.rid).extends!;
    if (extendsCoded) {
      const base = decodeCoded(extendsCoded, Coded.TypeDefOrRef);
      out.push(sub(this.fromToken(token(base.table, base.rid), def.meta)));
    }
    for (const coded of this.interfaces(def.module, def.meta).get(def.rid) ?? []) {
      const iface = decodeCoded(coded, Coded.TypeDefOrRef);
      out.push(sub(this.fromToken(token(iface.table, iface.rid), def.meta)));
    }
    if (!extendsCoded && t.name !== OBJECT) out.push(named(OBJECT));
    return out;
  }

  private interfaces(module: number, meta: AssemblyMetadata): Map<number, number[]> {
    let map = this.interfacesByModule.get(module);
    if (!map) {
      map = new Map();
      for (let rid = 1; rid <= meta.tables.rowCount(Table.InterfaceImpl); rid++) {
        const row = meta.tables.row(Table.InterfaceImpl, rid);
        map.set(row.type!, [...(map.get(row.type!) ?? []), row.interface!]);
      }
      this.interfacesByModule.set(module, map);
    }
    return map;
  }

  private index(handle: number): Map<string, number> | undefined {
    let map = this.byModule.get(handle);
    if (map) return map;
    const meta = this.modules.metadata(handle);
    if (!meta) return undefined;
    map = new Map();
    for (let rid = 1; rid <= meta.typeCount; rid++) map.set(typeFullName(meta, Table.TypeDef, rid), rid);
    this.byModule.set(handle, map);
    return map;
  }
}

