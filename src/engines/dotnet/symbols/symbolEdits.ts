/**
 * What Edit and Continue changed in a module's symbols, laid over its Portable PDB: each method the
 * deltas gave a new body keeps the sequence points, local scopes and state-machine information of
 * every version (a frame may still run an old one), methods and types the deltas added are named, and
 * documents first met in a delta get row ids after the PDB's own.
 */
import type { LocalScope, SequencePoint } from './portablePdb.js';

export interface MethodVersion {
  /** The module's EnC version that gave the method this body (2 for the first apply). */
  version: number;
  points: SequencePoint[];
  scopes: LocalScope[];
  /** Custom debug information by kind GUID (async stepping, hoisted local scopes). */
  customDebugInformation: Map<string, Buffer>;
}

export interface AddedMethod {
  name: string;
  /** TypeDef row id. */
  declaringType: number;
}

export interface AddedType {
  name: string;
  namespace: string;
  enclosing?: number;
}

export class SymbolEdits {
  private readonly versions = new Map<number, MethodVersion[]>();
  readonly addedMethods = new Map<number, AddedMethod>();
  readonly addedTypes = new Map<number, AddedType>();
  readonly addedDocuments: string[] = [];
  /** The module's EnC version: 1 as loaded, one more per applied delta. */
  moduleVersion = 1;
  maxMethodRid = 0;
  maxTypeRid = 0;

  get any(): boolean {
    return this.moduleVersion > 1;
  }

  /** The body a frame of `version` runs: the newest at or before it; undefined means the PDB's own. */
  at(methodRid: number, version?: number): MethodVersion | undefined {
    const list = this.versions.get(methodRid);
    if (!list) return undefined;
    if (version === undefined) return list.at(-1);
    return list.filter((v) => v.version <= version).at(-1);
  }

  addVersion(methodRid: number, body: MethodVersion): void {
    this.versions.set(methodRid, [...(this.versions.get(methodRid) ?? []), body]);
    this.maxMethodRid = Math.max(this.maxMethodRid, methodRid);
  }

  editedMethods(): number[] {
    return [...this.versions.keys()];
  }
}
