/**
 * The names a method's source file imports, as the Portable PDB records them per method (the
 * ImportScope table and its imports blobs, PortablePdb-Metadata.md "Imports Blob"): `using N;`
 * (the SDK's implicit usings and `global using` land in every file's scope), `using static T;`,
 * aliases of namespaces and types (`using J = Newtonsoft.Json.JsonConvert;`) and extern aliases. A
 * method without a scope of its own (compiler-generated: lambdas, state machines) takes the scope of
 * another method of its type.
 */
import type { AssemblyMetadata } from './assemblyMetadata.js';
import { BlobReader } from './blobReader.js';
import { decodeCoded } from './metadataTables.js';
import type { PortablePdb } from './portablePdb.js';
import { Coded, Table } from './tableSchema.js';

export interface Imports {
  /** `using N;`, innermost scope first. */
  namespaces: string[];
  /** `using static T;`: metadata names (`System.Math`). */
  staticTypes: string[];
  /** `using A = N;` / `using A = T;`: the namespace or the type's metadata name. */
  aliases: Map<string, { namespace: string } | { type: string }>;
}

const EMPTY: Imports = { namespaces: [], staticTypes: [], aliases: new Map() };

/** Kinds of imports (the spec's numbering). */
const IMPORT = { namespace: 1, assemblyNamespace: 2, type: 3, xmlNamespace: 4, assemblyAlias: 5, aliasAssembly: 6, aliasNamespace: 7, aliasAssemblyNamespace: 8, aliasType: 9 };

export class ImportScopes {
  private scopeByMethod?: Map<number, number>;
  private readonly cache = new Map<number, Imports>();
  private readonly resolved = new Map<number, number | undefined>();

  constructor(
    private readonly pdb: PortablePdb,
    private readonly metadata: AssemblyMetadata,
    private readonly typeName: (table: number, rid: number) => string,
  ) {}

  /** What the method (by row id) sees imported. */
  of(methodRid: number): Imports {
    const scope = this.scopeOf(methodRid);
    if (!scope) return EMPTY;
    let imports = this.cache.get(scope);
    if (!imports) {
      imports = { namespaces: [], staticTypes: [], aliases: new Map() };
      for (let rid = scope; rid; rid = this.pdb.tables.row(Table.ImportScope, rid).parent!) this.read(rid, imports);
      this.cache.set(scope, imports);
    }
    return imports;
  }

  private scopeOf(methodRid: number): number | undefined {
    if (this.resolved.has(methodRid)) return this.resolved.get(methodRid);
    const scope = this.findScope(methodRid);
    this.resolved.set(methodRid, scope);
    return scope;
  }

  private findScope(methodRid: number): number | undefined {
    if (!this.scopeByMethod) {
      this.scopeByMethod = new Map();
      const t = this.pdb.tables;
      for (let rid = 1; rid <= t.rowCount(Table.LocalScope); rid++) {
        const row = t.row(Table.LocalScope, rid);
        if (row.importScope && !this.scopeByMethod.has(row.method!)) this.scopeByMethod.set(row.method!, row.importScope);
      }
    }
    const own = this.scopeByMethod.get(methodRid);
    if (own) return own;
    const kickoff = this.pdb.kickoffOf(methodRid);
    if (kickoff && this.scopeByMethod.get(kickoff)) return this.scopeByMethod.get(kickoff);
    // A lambda or a closure's method: a method of the same outermost type has the file's scope.
    const method = this.metadata.method(methodRid);
    let type = method.declaringType;
    while (this.metadata.type(type).enclosing) type = this.metadata.type(type).enclosing!;
    for (let rid = 1; rid <= this.metadata.methodCount; rid++) {
      let owner = this.metadata.method(rid).declaringType;
      while (this.metadata.type(owner).enclosing) owner = this.metadata.type(owner).enclosing!;
      if (owner === type && this.scopeByMethod.get(rid)) return this.scopeByMethod.get(rid);
    }
    return undefined;
  }

  private read(scope: number, into: Imports): void {
    const t = this.pdb.tables;
    const blob = t.blob(t.row(Table.ImportScope, scope).imports!);
    const r = new BlobReader(blob);
    const text = () => t.blob(r.compressedUnsigned()).toString('utf8');
    const type = () => {
      const coded = decodeCoded(r.compressedUnsigned(), Coded.TypeDefOrRef);
      return this.typeName(coded.table, coded.rid);
    };
    while (r.pos < blob.length) {
      switch (r.compressedUnsigned()) {
        case IMPORT.namespace:
          into.namespaces.push(text());
          break;
        case IMPORT.assemblyNamespace:
          r.compressedUnsigned();
          into.namespaces.push(text());
          break;
        case IMPORT.type:
          into.staticTypes.push(type());
          break;
        case IMPORT.xmlNamespace:
          text();
          text();
          break;
        case IMPORT.assemblyAlias:
          text();
          break;
        case IMPORT.aliasAssembly:
          text();
          r.compressedUnsigned();
          break;
        case IMPORT.aliasNamespace: {
          const alias = text();
          if (!into.aliases.has(alias)) into.aliases.set(alias, { namespace: text() });
          else text();
          break;
        }
        case IMPORT.aliasAssemblyNamespace: {
          const alias = text();
          r.compressedUnsigned();
          const namespace = text();
          if (!into.aliases.has(alias)) into.aliases.set(alias, { namespace });
          break;
        }
        case IMPORT.aliasType: {
          const alias = text();
          const target = type();
          if (!into.aliases.has(alias)) into.aliases.set(alias, { type: target });
          break;
        }
        default:
          return; // a kind this reader does not know: the rest cannot be read
      }
    }
  }
}

