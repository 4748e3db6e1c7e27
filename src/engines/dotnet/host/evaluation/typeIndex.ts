/**
 * Type names in expressions (`Order`, `Lab.Color`, `JsonConvert`, `J`, `Shapes.Outer.Inner`)
 * resolved as C# resolves them from the current method (§7.6.2): the namespace of its type and the
 * enclosing ones, the global namespace, then the file's aliases and `using` directives (the Portable
 * PDB's import scopes: implicit and global usings included) — in the types of every loaded module,
 * the user's first, a package's or one loaded later alike.
 */
import type { AssemblyMetadata } from '../../symbols/assemblyMetadata.js';
import { Table, token } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { NameContext, TypeRef } from './evalValue.js';

const EXTENSION = 'System.Runtime.CompilerServices.ExtensionAttribute';

export class TypeIndex {
  private readonly byModule = new Map<number, Map<string, number>>();
  private readonly namespaces = new Set<string>();
  private readonly extensionsByModule = new Map<number, { rid: number; namespace: string; name: string }[]>();

  constructor(private readonly modules: ModuleRegistry) {}

  /** The type `name` (dotted; `arity` type arguments) as seen from `context` (a namespace, or the method's context). */
  find(name: string, arity: number, context: string | NameContext): TypeRef | undefined {
    const { namespace, imports } = typeof context === 'string' ? { namespace: context, imports: undefined } : context;
    const keys = [...enclosingNamespaces(namespace), ''].map((ns) => (ns ? `${ns}.${name}` : name));
    const found = this.first(keys, arity);
    if (found) return found;
    // Without the file's imports (no symbols), `System` is assumed imported.
    if (!imports) return this.first([`System.${name}`], arity);
    const [head, ...rest] = name.split('.');
    const alias = imports.aliases.get(head!);
    if (alias) {
      const target = 'type' in alias ? alias.type.replace(/`\d+/g, '').replace(/\+/g, '.') : alias.namespace;
      const aliasArity = 'type' in alias && !rest.length ? Number(/`(\d+)$/.exec(alias.type)?.[1] ?? 0) : arity;
      const aliased = this.first([[target, ...rest].join('.')], aliasArity);
      if (aliased) return aliased;
    }
    return this.first(imports.namespaces.map((ns) => `${ns}.${name}`), arity);
  }

  /** Static classes with extension methods in scope: in the enclosing and imported namespaces, and `using static` types. */
  extensionOwners(context: NameContext): TypeRef[] {
    const scope = new Set([...enclosingNamespaces(context.namespace), '', ...(context.imports?.namespaces ?? [])]);
    const statics = new Set((context.imports?.staticTypes ?? []).map((t) => t.replace(/\+/g, '.')));
    if (!context.imports) scope.add('System.Linq');
    const owners: TypeRef[] = [];
    for (const module of this.modules.all()) {
      const meta = this.modules.metadata(module.handle);
      if (!meta) continue;
      for (const owner of this.extensionTypes(module.handle, meta)) {
        if (!scope.has(owner.namespace) && !statics.has(owner.name)) continue;
        owners.push({ module: module.handle, token: token(Table.TypeDef, owner.rid), path: module.path, name: meta.csharpTypeName(owner.rid), args: [] });
      }
    }
    return owners;
  }

  /** Aliases of namespaces (`using N = Newtonsoft.Json;`) name namespaces too. */
  aliasedNamespace(name: string, context: NameContext): string | undefined {
    const alias = context.imports?.aliases.get(name);
    return alias && 'namespace' in alias ? alias.namespace : undefined;
  }

  private first(keys: string[], arity: number): TypeRef | undefined {
    const ordered = [...this.modules.withSymbols(), ...this.modules.all().filter((m) => !m.symbols)];
    for (const key of keys) {
      for (const module of ordered) {
        const rid = this.index(module.handle, module.path)?.get(`${key}\`${arity}`);
        if (rid === undefined) continue;
        const meta = this.modules.metadata(module.handle)!;
        return { module: module.handle, token: token(Table.TypeDef, rid), path: module.path, name: meta.csharpTypeName(rid), args: [] };
      }
    }
    return undefined;
  }

  private extensionTypes(handle: number, meta: AssemblyMetadata): { rid: number; namespace: string; name: string }[] {
    let list = this.extensionsByModule.get(handle);
    if (!list) {
      list = [];
      for (let rid = 1; rid <= meta.typeCount; rid++) {
        const type = meta.type(rid);
        if (type.enclosing || !meta.attributeNames(token(Table.TypeDef, rid)).includes(EXTENSION)) continue;
        list.push({ rid, namespace: type.namespace, name: type.namespace ? `${type.namespace}.${type.name}` : type.name });
      }
      this.extensionsByModule.set(handle, list);
    }
    return list;
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
