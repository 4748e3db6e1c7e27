/**
 * A Portable PDB (dotnet/runtime docs/design/specs/PortablePdb-Metadata.md): source documents,
 * sequence points per method, local scopes with slot names, state machines (async and iterator
 * MoveNext ↔ their kickoff method) and the async stepping information.
 */
import { BlobReader } from './blobReader.js';
import { decodeCoded, MetadataTables } from './metadataTables.js';
import { SymbolEdits } from './symbolEdits.js';
import { Coded, Table, token } from './tableSchema.js';

/** Line of a hidden sequence point (code that maps to no source line). */
export const HIDDEN_LINE = 0xfeefee;

export interface SequencePoint {
  ilOffset: number;
  /** Document row id. */
  document: number;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  hidden: boolean;
}

export interface LocalScope {
  startOffset: number;
  endOffset: number;
  /** `tupleNames`: a tuple-typed local's element names (`(int count, string label)`), when it has some. */
  variables: { slot: number; name: string; hidden: boolean; tupleNames?: (string | undefined)[] }[];
  constants: { name: string; signature: Buffer }[];
}

export interface AsyncAwait {
  yieldOffset: number;
  resumeOffset: number;
  /** MethodDef token of the method that resumes (the same MoveNext in C#). */
  resumeMethod: number;
}

export interface AsyncSteppingInfo {
  /** IL offset of the catch handler that forwards exceptions to the task, if any. */
  catchHandlerOffset?: number;
  awaits: AsyncAwait[];
}

const ASYNC_METHOD_STEPPING_INFORMATION = '54fd2ac5-e925-401a-9c2a-f94f171072f8';
const STATE_MACHINE_HOISTED_LOCAL_SCOPES = '6da9a61e-f8c7-4874-be62-68bc5630df71';
const TUPLE_ELEMENT_NAMES = 'ed9fdf71-8879-4747-8ed3-fe5ede3ce710';
const HASH_ALGORITHMS: Record<string, 'sha1' | 'sha256'> = {
  'ff1816ec-aa5e-4d10-87f7-6f4963833460': 'sha1',
  '8829d00f-11b8-4213-878b-770e8597ac16': 'sha256',
};

export class PortablePdb {
  readonly tables: MetadataTables;
  /** Edit and Continue's changes, laid over the PDB's own rows. */
  readonly edits = new SymbolEdits();
  private readonly pointsCache = new Map<number, SequencePoint[]>();
  private scopesByMethod?: Map<number, number[]>;
  private documentNames?: string[];
  private kickoffByMoveNext?: Map<number, number>;
  private moveNextByKickoff?: Map<number, number>;

  constructor(bytes: Buffer) {
    this.tables = new MetadataTables(bytes);
    if (!this.tables.pdbId) throw new Error('not a Portable PDB (no #Pdb stream)');
  }

  /** The 16-byte GUID part of the PDB id, which the image's CodeView entry must match. */
  get guid(): Buffer {
    return this.tables.pdbId!.subarray(0, 16);
  }

  get entryPointToken(): number {
    return this.tables.pdbEntryPoint;
  }

  get methodCount(): number {
    return Math.max(this.tables.rowCount(Table.MethodDebugInformation), this.edits.maxMethodRid);
  }

  /** Document paths by row id (index 0 unused). */
  documents(): string[] {
    if (!this.documentNames) {
      this.documentNames = [''];
      for (let rid = 1; rid <= this.tables.rowCount(Table.Document); rid++) {
        this.documentNames.push(this.documentName(this.tables.row(Table.Document, rid).name!));
      }
    }
    if (this.edits.addedDocuments.length) return [...this.documentNames, ...this.edits.addedDocuments];
    return this.documentNames;
  }

  /** `version`: the module's EnC version a frame runs (undefined: the newest). */
  /** The checksum the compiler recorded for a document of the PDB's own (row id). */
  documentChecksum(rid: number): { algorithm: 'sha1' | 'sha256'; hash: Buffer } | undefined {
    if (rid < 1 || rid > this.tables.rowCount(Table.Document)) return undefined;
    const row = this.tables.row(Table.Document, rid);
    const algorithm = HASH_ALGORITHMS[this.tables.guid(row.hashAlgorithm!)];
    return algorithm && { algorithm, hash: this.tables.blob(row.hash!) };
  }

  sequencePoints(methodRid: number, version?: number): SequencePoint[] {
    const edited = this.edits.at(methodRid, version);
    if (edited) return edited.points;
    let points = this.pointsCache.get(methodRid);
    if (!points) {
      points = methodRid >= 1 && methodRid <= this.tables.rowCount(Table.MethodDebugInformation) ? this.decodeSequencePoints(methodRid) : [];
      this.pointsCache.set(methodRid, points);
    }
    return points;
  }

  /** Scopes of a method, outermost first, each with its variables' slots and names. */
  localScopes(methodRid: number, version?: number): LocalScope[] {
    const edited = this.edits.at(methodRid, version);
    if (edited) return edited.scopes;
    const t = this.tables;
    if (!this.scopesByMethod) {
      this.scopesByMethod = new Map();
      for (let rid = 1; rid <= t.rowCount(Table.LocalScope); rid++) {
        const method = t.row(Table.LocalScope, rid).method!;
        this.scopesByMethod.set(method, [...(this.scopesByMethod.get(method) ?? []), rid]);
      }
    }
    const scopes: LocalScope[] = [];
    for (const rid of this.scopesByMethod.get(methodRid) ?? []) {
      const row = t.row(Table.LocalScope, rid);
      const vars = t.listRange(Table.LocalScope, rid, 'variableList', Table.LocalVariable);
      const consts = t.listRange(Table.LocalScope, rid, 'constantList', Table.LocalConstant);
      const variables: LocalScope['variables'] = [];
      for (let v = vars.first; v <= vars.last; v++) {
        const variable = t.row(Table.LocalVariable, v);
        const names = this.tupleElementNames(token(Table.LocalVariable, v));
        variables.push({ slot: variable.index!, name: t.string(variable.name!), hidden: (variable.attributes! & 1) !== 0, ...(names ? { tupleNames: names } : {}) });
      }
      const constants: LocalScope['constants'] = [];
      for (let c = consts.first; c <= consts.last; c++) {
        const constant = t.row(Table.LocalConstant, c);
        constants.push({ name: t.string(constant.name!), signature: t.blob(constant.signature!) });
      }
      scopes.push({ startOffset: row.startOffset!, endOffset: row.startOffset! + row.length!, variables, constants });
    }
    return scopes;
  }

  /** The kickoff method (the one the user wrote) of an async or iterator MoveNext, by row id. */
  kickoffOf(moveNextRid: number): number | undefined {
    this.readStateMachines();
    return this.kickoffByMoveNext!.get(moveNextRid);
  }

  moveNextOf(kickoffRid: number): number | undefined {
    this.readStateMachines();
    return this.moveNextByKickoff!.get(kickoffRid);
  }

  asyncSteppingInfo(moveNextRid: number): AsyncSteppingInfo | undefined {
    const blob = this.customDebugInformation(token(Table.MethodDef, moveNextRid), ASYNC_METHOD_STEPPING_INFORMATION);
    if (!blob) return undefined;
    const r = new BlobReader(blob);
    const catchHandler = r.u32();
    const awaits: AsyncAwait[] = [];
    while (!r.done) {
      const yieldOffset = r.u32();
      const resumeOffset = r.u32();
      awaits.push({ yieldOffset, resumeOffset, resumeMethod: token(Table.MethodDef, r.compressedUnsigned()) });
    }
    return { catchHandlerOffset: catchHandler === 0 ? undefined : catchHandler - 1, awaits };
  }

  /** IL ranges in which each hoisted local of a state machine is in scope, by hoisted slot order. */
  hoistedLocalScopes(moveNextRid: number): { startOffset: number; endOffset: number }[] {
    const blob = this.customDebugInformation(token(Table.MethodDef, moveNextRid), STATE_MACHINE_HOISTED_LOCAL_SCOPES);
    if (!blob) return [];
    const r = new BlobReader(blob);
    const scopes: { startOffset: number; endOffset: number }[] = [];
    while (!r.done) {
      const start = r.u32();
      scopes.push({ startOffset: start, endOffset: start + r.u32() });
    }
    return scopes;
  }

  /** Tuple element names of a local: null-terminated UTF-8 names, empty for an unnamed element. */
  private tupleElementNames(local: number): (string | undefined)[] | undefined {
    const blob = this.customDebugInformation(local, TUPLE_ELEMENT_NAMES);
    if (!blob) return undefined;
    return blob
      .toString('utf8')
      .split('\0')
      .slice(0, -1)
      .map((n) => n || undefined);
  }

  /** Moves the statements of methods the last delta did not recompile: `lines` are [old, new] pairs, each shift holding until the next. */
  shiftLines(document: number, lines: [number, number][], recompiled: Set<number>): void {
    const sorted = [...lines].sort((a, b) => a[0] - b[0]);
    const moved = (line: number) => {
      const shift = sorted.filter(([old]) => old <= line).at(-1);
      return shift ? line + shift[1] - shift[0] : line;
    };
    for (let rid = 1; rid <= this.methodCount; rid++) {
      if (recompiled.has(rid)) continue;
      const points = this.sequencePoints(rid);
      if (!points.some((p) => p.document === document && !p.hidden)) continue;
      const shifted = points.map((p) => (p.document !== document || p.hidden ? p : { ...p, startLine: moved(p.startLine), endLine: moved(p.endLine) }));
      const current = this.edits.at(rid);
      if (current) current.points = shifted;
      else this.pointsCache.set(rid, shifted);
    }
  }

  private customDebugInformation(parent: number, kind: string): Buffer | undefined {
    if ((parent >>> 24) === Table.MethodDef) {
      const edited = this.edits.at(parent & 0xffffff);
      if (edited) return edited.customDebugInformation.get(kind);
    }
    const t = this.tables;
    for (let rid = 1; rid <= t.rowCount(Table.CustomDebugInformation); rid++) {
      const row = t.row(Table.CustomDebugInformation, rid);
      const owner = decodeCoded(row.parent!, Coded.HasCustomDebugInformation);
      if (token(owner.table, owner.rid) === parent && t.guid(row.kind!) === kind) return t.blob(row.value!);
    }
    return undefined;
  }

  private readStateMachines(): void {
    if (this.kickoffByMoveNext) return;
    this.kickoffByMoveNext = new Map();
    this.moveNextByKickoff = new Map();
    for (let rid = 1; rid <= this.tables.rowCount(Table.StateMachineMethod); rid++) {
      const row = this.tables.row(Table.StateMachineMethod, rid);
      this.kickoffByMoveNext.set(row.moveNext!, row.kickoff!);
      this.moveNextByKickoff.set(row.kickoff!, row.moveNext!);
    }
  }

  /** Document name blob: a separator, then blob indexes of UTF-8 parts joined by it. */
  private documentName(offset: number): string {
    const blob = this.tables.blob(offset);
    if (blob.length === 0) return '';
    const r = new BlobReader(blob);
    const separator = r.u8();
    const parts: string[] = [];
    while (!r.done) {
      const part = r.compressedUnsigned();
      parts.push(part === 0 ? '' : this.tables.blob(part).toString('utf8'));
    }
    return parts.join(separator === 0 ? '' : String.fromCharCode(separator));
  }

  private decodeSequencePoints(methodRid: number): SequencePoint[] {
    const row = this.tables.row(Table.MethodDebugInformation, methodRid);
    if (row.sequencePoints === 0) return [];
    const r = new BlobReader(this.tables.blob(row.sequencePoints!));
    r.compressedUnsigned(); // local signature
    let document = row.document || r.compressedUnsigned();
    const points: SequencePoint[] = [];
    let ilOffset = 0;
    let startLine = 0;
    let startColumn = 0;
    let sawVisible = false;
    while (!r.done) {
      const deltaIl = r.compressedUnsigned();
      if (deltaIl === 0 && points.length > 0) {
        document = r.compressedUnsigned();
        continue;
      }
      ilOffset += deltaIl;
      const deltaLines = r.compressedUnsigned();
      const deltaColumns = deltaLines === 0 ? r.compressedUnsigned() : r.compressedSigned();
      if (deltaLines === 0 && deltaColumns === 0) {
        points.push({ ilOffset, document, startLine: HIDDEN_LINE, startColumn: 0, endLine: HIDDEN_LINE, endColumn: 0, hidden: true });
        continue;
      }
      if (sawVisible) {
        startLine += r.compressedSigned();
        startColumn += r.compressedSigned();
      } else {
        startLine = r.compressedUnsigned();
        startColumn = r.compressedUnsigned();
        sawVisible = true;
      }
      points.push({
        ilOffset,
        document,
        startLine,
        startColumn,
        endLine: startLine + deltaLines,
        endColumn: startColumn + deltaColumns,
        hidden: false,
      });
    }
    return points;
  }
}
