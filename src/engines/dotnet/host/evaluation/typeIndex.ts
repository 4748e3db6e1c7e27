/**
 * Type names in expressions (`Order`, `Lab.Color`, `Math`, `Shapes.Outer.Inner`) resolved to the
 * loaded types that carry them: the user's modules first, then the framework's, looked up in the
 * namespaces C# would search from the current method (its namespace and enclosing ones, `System`).
 */
import type { AssemblyMetadata } from '../../symbols/assemblyMetadata.js';
import { Table, token } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { TypeRef } from './evalValue.js';

export class TypeIndex {
  private readonly byModule = new Map<number, Map<string, number>>();
  private readonly namespaces = new Set<string>();

  constructor(private readonly modules: ModuleRegistry) {}

  /** The type `name` (dotted; `arity` type arguments) as seen from `namespace`. */
  find(name: string, arity: number, namespace: string): TypeRef | undefined {
    const candidates = [...enclosingNamespaces(namespace), 'System', ''].map((ns) => (ns ? `${ns}.${name}` : name));
    const ordered = [...this.modules.withSymbols(), ...this.modules.all().filter((m) => !m.symbols)];
    for (const key of candidates) {
      for (const module of ordered) {
        const rid = this.index(module.handle, module.path)?.get(`${key}\`${arity}`);
        if (rid === undefined) continue;
        const meta = this.modules.metadata(module.handle)!;
        return { module: module.handle, token: token(Table.TypeDef, rid), path: module.path, name: meta.csharpTypeName(rid), args: [] };
      }
    }
    return undefined;
  }

  /** Static classes that hold extension methods: LINQ's Enumerable, and those of the user's modules. */
  extensionOwners(): TypeRef[] {
    const owners: TypeRef[] = [];
    const linq = this.find('System.Linq.Enumerable', 0, '');
    if (linq) owners.push(linq);
    for (const module of this.modules.withSymbols()) {
      const meta = module.symbols!.metadata;
      for (let rid = 1; rid <= meta.typeCount; rid++) {
        if (meta.attributeNames(token(Table.TypeDef, rid)).includes('System.Runtime.CompilerServices.ExtensionAttribute')) {
          owners.push({ module: module.handle, token: token(Table.TypeDef, rid), path: module.path, name: meta.csharpTypeName(rid), args: [] });
        }
      }
    }
    return owners;
  }

  /** Whether `name` is a namespace of a loaded module (so `System.Collections` can continue to a type). */
  isNamespace(name: string): boolean {
    for (const module of this.modules.all()) this.index(module.handle, module.path);
    return this.namespaces.has(name);
  }

  private index(handle: number, path: string): Map<string, number> | undefined {
    let map = this.byModule.get(handle);
    if (map) return map;
    const meta = this.modules.metadata(handle) ?? this.modules.metadata(path);
    if (!meta) return undefined;
    map = new Map();
    for (let rid = 1; rid <= meta.typeCount; rid++) {
      const type = meta.type(rid);
      if (type.name.startsWith('<')) continue;
      map.set(`${displayPath(meta, rid)}\`${type.genericParams.length - inheritedArity(meta, rid)}`, rid);
      if (type.namespace) {
        const parts = type.namespace.split('.');
        for (let i = 1; i <= parts.length; i++) this.namespaces.add(parts.slice(0, i).join('.'));
      }
    }
    this.byModule.set(handle, map);
    return map;
  }
}

/** `Lab.Shapes.Outer.Inner`: namespace and enclosing types, generic arity suffixes dropped. */
function displayPath(meta: AssemblyMetadata, rid: number): string {
  const type = meta.type(rid);
  const own = type.name.replace(/`\d+$/, '');
  if (type.enclosing) return `${displayPath(meta, type.enclosing)}.${own}`;
  return type.namespace ? `${type.namespace}.${own}` : own;
}

/** Type parameters a nested type repeats from its enclosing type (metadata lists them all). */
function inheritedArity(meta: AssemblyMetadata, rid: number): number {
  const type = meta.type(rid);
  return type.enclosing ? meta.type(type.enclosing).genericParams.length : 0;
}

function enclosingNamespaces(namespace: string): string[] {
  const parts = namespace ? namespace.split('.') : [];
  const out: string[] = [];
  for (let i = parts.length; i > 0; i--) out.push(parts.slice(0, i).join('.'));
  return out;
}
