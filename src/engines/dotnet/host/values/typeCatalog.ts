/**
 * What the debugger knows of a runtime type from its metadata: its names, fields (with the
 * auto-properties they back), properties, methods, enum constants and debugger attributes. Read once
 * per type and kept for the session.
 */
import type { AssemblyMetadata } from '../../symbols/assemblyMetadata.js';
import type { MethodSig } from '../../symbols/signatures.js';
import { tokenRid } from '../../symbols/tableSchema.js';
import {
  debuggerAttributes,
  enumConstants,
  fieldsOf,
  isFlagsEnum,
  methodsNamed,
  propertiesOf,
  type DebuggerAttributes,
  type FieldInfo,
  type PropertyInfo,
} from '../../symbols/typeMembers.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { NativeType } from '../nativeEvents.js';

export interface TypeView {
  module: number;
  token: number;
  /** `System.Collections.Generic.List`1`: the metadata name, for recognising framework types. */
  fullName: string;
  meta: AssemblyMetadata;
  fields: FieldInfo[];
  properties: PropertyInfo[];
  attributes: DebuggerAttributes;
}

export interface MethodRef {
  module: number;
  token: number;
  sig: MethodSig;
  isStatic: boolean;
  /** The type in the chain that declares it (its type arguments come from the object). */
  declaringModule: number;
  declaringType: number;
}

export class TypeCatalog {
  private readonly views = new Map<string, TypeView | undefined>();

  constructor(private readonly modules: ModuleRegistry) {}

  view(type: NativeType | undefined): TypeView | undefined {
    if (!type?.token || type.module === undefined) return undefined;
    const key = `${type.path ?? type.module}:${type.token}`;
    if (!this.views.has(key)) this.views.set(key, this.read(type));
    return this.views.get(key);
  }

  /** The C# name of a runtime type, with its actual type arguments (`arg` writes them, and an array's element). */
  name(type: NativeType | undefined, arg?: (t: NativeType | undefined) => string): string {
    return this.modules.typeName(type, arg);
  }

  /** The most derived method of this name whose parameter count fits, searching up the chain. */
  findMethod(chain: NativeType[], name: string, argCount: number, wantStatic?: boolean): MethodRef | undefined {
    for (const type of chain) {
      const view = this.view(type);
      if (!view) continue;
      const match = methodsNamed(view.meta, tokenRid(view.token), name).find(
        (m) => m.sig.params.length === argCount && (wantStatic === undefined || m.isStatic === wantStatic),
      );
      if (match) return { module: view.module, token: match.token, sig: match.sig, isStatic: match.isStatic, declaringModule: view.module, declaringType: view.token };
    }
    return undefined;
  }

  /** Every overload of this name with `argCount` parameters (any number when undefined), most derived type first. */
  findMethods(chain: NativeType[], name: string, argCount: number | undefined, wantStatic?: boolean): MethodRef[] {
    const found: MethodRef[] = [];
    for (const type of chain) {
      const view = this.view(type);
      if (!view) continue;
      for (const m of methodsNamed(view.meta, tokenRid(view.token), name)) {
        if ((argCount !== undefined && m.sig.params.length !== argCount) || (wantStatic !== undefined && m.isStatic !== wantStatic)) continue;
        found.push({ module: view.module, token: m.token, sig: m.sig, isStatic: m.isStatic, declaringModule: view.module, declaringType: view.token });
      }
    }
    return found;
  }

  /** Whether the type is an enum (its base type is System.Enum). */
  isEnum(type: NativeType | undefined): boolean {
    const view = this.view(type);
    if (!view) return false;
    return view.meta.baseTypeName(tokenRid(view.token)) === 'System.Enum';
  }

  enumInfo(type: NativeType): { constants: { name: string; value: bigint }[]; flags: boolean } | undefined {
    const view = this.view(type);
    if (!view) return undefined;
    const rid = tokenRid(view.token);
    return { constants: enumConstants(view.meta, rid), flags: isFlagsEnum(view.meta, rid) };
  }

  private read(type: NativeType): TypeView | undefined {
    const meta = type.path ? this.modules.metadata(type.path) : this.modules.metadata(type.module!);
    if (!meta) return undefined;
    const rid = tokenRid(type.token!);
    const info = meta.type(rid);
    const outer = info.enclosing ? `${meta.typeNameOf(0x02, info.enclosing)}+` : info.namespace ? `${info.namespace}.` : '';
    return {
      module: type.module!,
      token: type.token!,
      fullName: outer + info.name,
      meta,
      fields: fieldsOf(meta, rid),
      properties: propertiesOf(meta, rid),
      attributes: debuggerAttributes(meta, type.token!),
    };
  }
}
