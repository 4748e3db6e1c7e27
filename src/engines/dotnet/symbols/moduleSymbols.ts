/**
 * One module's symbols: its metadata and Portable PDB together answer what a debugger asks at a
 * breakpoint or a step — where a source line binds, which line an IL offset is on, the IL range of
 * the current statement, what to call a method, and which methods are not the user's code.
 */
import { basename, resolve } from 'node:path';
import { pathKey } from '../../../core/platformPaths.js';
import { type AssemblyMetadata, type MethodInfo, typeFullName } from './assemblyMetadata.js';
import { calledMethods } from './awaitedCall.js';
import { catchingClause, exceptionClauses, type ExceptionClause } from './exceptionClauses.js';
import { memberDisplayName, parseGeneratedName, withTypeArguments } from './csharpNames.js';
import { type Imports, ImportScopes } from './importScopes.js';
import { resolveLine, type CodeTarget, type LineResolution, type MethodPoints } from './lineResolver.js';
import { HIDDEN_LINE, type AsyncSteppingInfo, type LocalScope, type PortablePdb, type SequencePoint } from './portablePdb.js';
import type { ModuleDelta } from '../worker/encProtocol.js';
import { Table, token, tokenRid } from './tableSchema.js';

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The IL offset is the first instruction of its statement. */
  atStatementStart: boolean;
}

const NON_USER_ATTRIBUTES = new Set([
  'System.Diagnostics.DebuggerHiddenAttribute',
  'System.Diagnostics.DebuggerStepThroughAttribute',
  'System.Diagnostics.DebuggerNonUserCodeAttribute',
]);

export class ModuleSymbols {
  private byDocument?: Map<number, MethodPoints[]>;
  private nonUser?: number[];
  private importScopes?: ImportScopes;

  constructor(
    readonly metadata: AssemblyMetadata,
    readonly pdb: PortablePdb,
  ) {}

  /** The namespaces, static types and aliases the method's source file imports. */
  importsOf(methodToken: number): Imports {
    this.importScopes ??= new ImportScopes(this.pdb, this.metadata, (table, rid) => typeFullName(this.metadata, table, rid));
    return this.importScopes.of(tokenRid(methodToken));
  }

  /**
   * This module's documents that are `file`: the same absolute path, else (sources built at another
   * path, e.g. in a container) the same file name in a folder of the same name.
   */
  documentsFor(file: string): number[] {
    const wanted = pathKey(resolve(file));
    const documents = this.pdb.documents();
    const exact = documents.flatMap((d, rid) => (rid > 0 && pathKey(d) === wanted ? [rid] : []));
    if (exact.length > 0) return exact;
    const tail = (path: string) => pathKey(path.split(/[\\/]/).slice(-2).join('/'));
    const wantedTail = tail(wanted);
    return documents.flatMap((d, rid) => (rid > 0 && d.split(/[\\/]/).length > 1 && tail(d) === wantedTail ? [rid] : []));
  }

  resolveLine(file: string, line: number, column?: number): LineResolution & { file?: string } {
    const documents = this.documentsFor(file);
    if (documents.length === 0) return { ok: false, message: `${basename(file)} is not a source file of ${basename(this.metadata.path ?? 'this module')}` };
    const methods = documents.flatMap((d) => this.methodsOf(d));
    const result = resolveLine(methods, line, column);
    return result.ok ? { ...result, file: this.pdb.documents()[documents[0]!] } : result;
  }

  /** The first IL offset of the statement at `line` inside one method (where the next statement can move). */
  statementIn(methodToken: number, file: string, line: number): { ok: true; line: number; ilOffset: number } | { ok: false; message: string } {
    const method = this.documentsFor(file)
      .flatMap((d) => this.methodsOf(d))
      .find((m) => m.methodToken === methodToken);
    if (!method) return { ok: false, message: `the current method has no code in ${basename(file)}` };
    const first = Math.min(...method.points.map((p) => p.startLine));
    const last = Math.max(...method.points.map((p) => p.endLine));
    if (line < first || line > last) return { ok: false, message: `line ${line} is outside the current method (lines ${first}–${last})` };
    const result = resolveLine([method], line);
    if (!result.ok || !result.targets[0]) return { ok: false, message: result.ok ? `no statement at line ${line}` : result.message };
    return { ok: true, line: result.line, ilOffset: result.targets[0].ilOffset };
  }

  /**
   * The source position of an IL offset: the statement it belongs to (hidden code maps to the one
   * before). `version`: the module's EnC version the frame runs (undefined: the newest).
   */
  location(methodToken: number, ilOffset: number, version?: number): SourceLocation | undefined {
    const points = this.pdb.sequencePoints(tokenRid(methodToken), version);
    let at: SequencePoint | undefined;
    for (const p of points) {
      if (p.ilOffset > ilOffset) break;
      if (!p.hidden) at = p;
    }
    const current = points[lastAtOrBefore(points, ilOffset)];
    at ??= points.find((p) => !p.hidden);
    if (!at) return undefined;
    return {
      file: this.pdb.documents()[at.document] ?? '',
      line: at.startLine,
      column: at.startColumn,
      endLine: at.endLine,
      endColumn: at.endColumn,
      atStatementStart: current !== undefined && !current.hidden && current.ilOffset === ilOffset,
    };
  }

  /** The IL range [start, end) of the statement holding `ilOffset`, hidden code after it included. */
  statementRange(methodToken: number, ilOffset: number, version?: number): { start: number; end: number } | undefined {
    const points = this.pdb.sequencePoints(tokenRid(methodToken), version);
    const index = lastAtOrBefore(points, ilOffset);
    if (index < 0) return undefined;
    const start = points[index]!.ilOffset;
    const next = points.slice(index + 1).find((p) => !p.hidden && p.ilOffset > start);
    const method = this.metadata.methodByToken(methodToken);
    const end = next?.ilOffset ?? (method ? this.metadata.ilSize(method) : start + 1);
    return { start, end: Math.max(end, start + 1) };
  }

  /** Whether an IL offset maps to no source line (compiler-generated plumbing). */
  isHidden(methodToken: number, ilOffset: number, version?: number): boolean {
    const points = this.pdb.sequencePoints(tokenRid(methodToken), version);
    const current = points[lastAtOrBefore(points, ilOffset)];
    return !current || current.hidden;
  }

  /** Whether no statement follows the one holding `ilOffset` (it is the method's last). */
  isLastStatement(methodToken: number, ilOffset: number, version?: number): boolean {
    return !this.pdb.sequencePoints(tokenRid(methodToken), version).some((p) => !p.hidden && p.ilOffset > ilOffset);
  }

  hasSource(methodToken: number): boolean {
    return this.pdb.sequencePoints(tokenRid(methodToken)).some((p) => !p.hidden);
  }

  /** `Namespace.Type<args>.Method<args>` as C# shows it. */
  methodName(methodToken: number, typeArgs: string[] = []): string {
    const method = this.metadata.methodByToken(methodToken);
    if (!method) {
      const added = this.pdb.edits.addedMethods.get(tokenRid(methodToken));
      if (!added) return `<method 0x${methodToken.toString(16)}>`;
      const owner = this.addedTypeName(added.declaringType);
      const generated = generatedMethodName(owner, added.name);
      if (generated) return generated;
      return `${owner}.${added.name}`;
    }
    const type = this.metadata.type(method.declaringType);
    const typeGenerated = parseGeneratedName(type.name);
    if (typeGenerated?.kind === 'stateMachine' && method.name === 'MoveNext') {
      const kickoff = this.pdb.kickoffOf(method.rid);
      if (kickoff) return this.methodName(token(Table.MethodDef, kickoff), typeArgs);
      return `${this.typeName(type.enclosing ?? type.rid, typeArgs)}.${typeGenerated.owner}`;
    }
    const classArgs = typeArgs.slice(0, type.genericParams.length);
    const methodArgs = typeArgs.slice(type.genericParams.length);
    const owner = this.typeName(method.declaringType, classArgs);
    const generated = generatedMethodName(owner, method.name);
    if (generated) return generated;
    const own = memberDisplayName(method.name, owner.split('.').pop() ?? '', this.metadata.isSpecialName(method));
    const args = methodArgs.length === method.genericParams.length ? methodArgs : method.genericParams;
    return `${owner}.${withTypeArguments(own, args)}`;
  }

  /** A type's C# name; closure and state-machine classes show as the type that holds them. */
  typeName(typeRid: number, typeArgs: string[] = []): string {
    return this.metadata.csharpTypeName(typeRid, typeArgs);
  }

  /** Methods a function breakpoint names: `Method`, `Type.Method` or `Namespace.Type.Method`. */
  findMethods(query: string): MethodInfo[] {
    const parts = query.replace(/<[^<>]*>/g, '').replace(/\(.*\)$/, '').split('.').filter(Boolean);
    const name = parts.pop();
    if (!name) return [];
    const found: MethodInfo[] = [];
    for (let rid = 1; rid <= this.metadata.methodCount; rid++) {
      const method = this.metadata.method(rid);
      if (method.name !== name || method.name.startsWith('<')) continue;
      const path = this.typeName(method.declaringType).replace(/<[^<>]*>/g, '').split('.');
      if (parts.every((part, i) => path[path.length - parts.length + i] === part)) found.push(method);
    }
    return found;
  }

  /** Where a method's own code starts: its first statement (in MoveNext for async methods and iterators). */
  firstStatement(method: MethodInfo): CodeTarget | undefined {
    const body = this.pdb.moveNextOf(method.rid) ?? method.rid;
    const first = this.pdb.sequencePoints(body).find((p) => !p.hidden);
    return first ? { methodToken: token(Table.MethodDef, body), ilOffset: first.ilOffset } : undefined;
  }

  /** The user's entry point: `Main` (not the compiler's `<Main>` stub of an async Main). */
  entryStatement(): CodeTarget | undefined {
    for (const candidate of [this.pdb.entryPointToken, this.metadata.entryPointToken]) {
      const method = candidate ? this.metadata.methodByToken(candidate) : undefined;
      const target = method && this.firstStatement(method);
      if (target) return target;
      // `<Main>` calls the user's Main: look for it beside the stub.
      if (method?.name === '<Main>') {
        const user = this.findMethods(`${this.metadata.type(method.declaringType).name}.Main`)[0];
        const userTarget = user && this.firstStatement(user);
        if (userTarget) return userTarget;
      }
    }
    return undefined;
  }

  /** Methods that stepping must treat as not the user's: marked hidden / step-through / non-user code, or with no source. */
  nonUserMethodTokens(): number[] {
    this.nonUser ??= this.findNonUserMethods();
    return this.nonUser;
  }

  private findNonUserMethods(): number[] {
    const tokens: number[] = [];
    const nonUserTypes = new Map<number, boolean>();
    const typeIsNonUser = (rid: number): boolean => {
      let known = nonUserTypes.get(rid);
      if (known === undefined) {
        const type = this.metadata.type(rid);
        known = this.hasNonUserAttribute(token(Table.TypeDef, rid)) || (type.enclosing !== undefined && typeIsNonUser(type.enclosing));
        nonUserTypes.set(rid, known);
      }
      return known;
    };
    for (let rid = 1; rid <= this.metadata.methodCount; rid++) {
      const method = this.metadata.method(rid);
      const nonUser =
        !this.hasSource(method.token) || this.hasNonUserAttribute(method.token) || (method.declaringType > 0 && typeIsNonUser(method.declaringType));
      if (nonUser) tokens.push(method.token);
    }
    return tokens;
  }

  asyncInfo(methodToken: number): AsyncSteppingInfo | undefined {
    return this.pdb.asyncSteppingInfo(tokenRid(methodToken));
  }

  /**
   * Where an async method catches an exception of `types` (its class, then its bases) that its await
   * at `ilOffset` takes from the awaited task: the first statement of the catch, `filter` when a
   * `when` filter decides. The compiler's own handler catches nothing: it hands the exception to the
   * method's task (it calls the builder's SetException; the PDB names it only for async void methods).
   */
  asyncCatch(moveNext: number, ilOffset: number, types: string[]): { location: SourceLocation; filter: boolean } | undefined {
    const method = this.metadata.methodByToken(moveNext);
    if (!method) return undefined;
    const il = this.metadata.ilCode(method);
    const named = this.asyncInfo(moveNext)?.catchHandlerOffset;
    const compilers = (c: ExceptionClause) =>
      c.handlerStart === named || (c.kind === 'catch' && calledMethods(this.metadata, il, c.handlerStart, c.handlerEnd).some((m) => m.name === 'SetException'));
    const caught = catchingClause(this.metadata, exceptionClauses(this.metadata, method), ilOffset, types, compilers);
    const point = caught && this.pdb.sequencePoints(tokenRid(moveNext)).find((p) => p.ilOffset >= caught.handlerStart && !p.hidden);
    const location = point && this.location(moveNext, point.ilOffset);
    return location && { location, filter: caught.filter };
  }

  localScopes(methodToken: number, version?: number): LocalScope[] {
    return this.pdb.localScopes(tokenRid(methodToken), version);
  }

  /** A state machine's MoveNext: the IL range in which each hoisted local is in scope, by its slot (`<name>5__N`: slot N - 1). */
  hoistedLocalScopes(moveNextToken: number): { startOffset: number; endOffset: number }[] {
    return this.pdb.hoistedLocalScopes(tokenRid(moveNextToken));
  }

  /**
   * Lays an applied Edit and Continue delta over these symbols: new bodies' sequence points, scopes
   * and state-machine information (as the module's next EnC version), added methods and types, and
   * the lines of methods that moved without new code.
   */
  applyEdit(delta: ModuleDelta): void {
    const edits = this.pdb.edits;
    const version = edits.moduleVersion + 1;
    const documentRid = (path: string) => {
      const known = this.pdb.documents().indexOf(path);
      if (known > 0) return known;
      edits.addedDocuments.push(path);
      return this.pdb.documents().length - 1;
    };
    for (const method of delta.methods) {
      const rid = tokenRid(method.token);
      const points: SequencePoint[] = method.points.map((p) =>
        p.hidden
          ? { ilOffset: p.ilOffset, document: documentRid(p.document), startLine: HIDDEN_LINE, startColumn: 0, endLine: HIDDEN_LINE, endColumn: 0, hidden: true }
          : { ...p, document: documentRid(p.document) },
      );
      const scopes: LocalScope[] = method.scopes.map((s) => ({ ...s, constants: [] }));
      const info = new Map(Object.entries(method.customDebugInformation).map(([kind, value]) => [kind.toLowerCase(), Buffer.from(value, 'base64')]));
      edits.addVersion(rid, { version, points, scopes, customDebugInformation: info });
      if (method.added) edits.addedMethods.set(rid, { name: method.name, declaringType: tokenRid(method.declaringType) });
    }
    for (const type of delta.addedTypes) {
      edits.addedTypes.set(tokenRid(type.token), { name: type.name, namespace: type.namespace, enclosing: type.enclosing ? tokenRid(type.enclosing) : undefined });
    }
    const recompiled = new Set(delta.methods.map((m) => tokenRid(m.token)));
    for (const { file, lines } of delta.lineUpdates) {
      for (const document of this.documentsFor(file)) this.pdb.shiftLines(document, lines, recompiled);
    }
    edits.moduleVersion = version;
    this.byDocument = undefined;
  }

  /** A type's C# name, added ones too; a compiler-generated one (closures) shows as the type that holds it. */
  private addedTypeName(typeRid: number): string {
    if (typeRid <= this.metadata.typeCount) return this.typeName(typeRid);
    const added = this.pdb.edits.addedTypes.get(typeRid);
    if (!added) return `<type 0x${typeRid.toString(16)}>`;
    if (added.name.startsWith('<') && added.enclosing) return this.addedTypeName(added.enclosing);
    const outer = added.enclosing ? `${this.addedTypeName(added.enclosing)}.` : added.namespace ? `${added.namespace}.` : '';
    return `${outer}${added.name}`;
  }

  private hasNonUserAttribute(target: number): boolean {
    return this.metadata.attributeNames(target).some((name) => NON_USER_ATTRIBUTES.has(name));
  }

  private methodsOf(document: number): MethodPoints[] {
    if (!this.byDocument) {
      this.byDocument = new Map();
      for (let rid = 1; rid <= this.pdb.methodCount; rid++) {
        const byDoc = new Map<number, SequencePoint[]>();
        for (const p of this.pdb.sequencePoints(rid)) {
          if (p.hidden) continue;
          const list = byDoc.get(p.document) ?? [];
          list.push(p);
          byDoc.set(p.document, list);
        }
        for (const [doc, points] of byDoc) {
          const list = this.byDocument.get(doc) ?? [];
          list.push({ methodToken: token(Table.MethodDef, rid), points });
          this.byDocument.set(doc, list);
        }
      }
    }
    return this.byDocument.get(document) ?? [];
  }
}

/** Index of the last point at or before an IL offset (points are in IL order), or -1. */
function lastAtOrBefore(points: SequencePoint[], ilOffset: number): number {
  let index = -1;
  while (index + 1 < points.length && points[index + 1]!.ilOffset <= ilOffset) index++;
  return index;
}

/** A lambda or local function under its method as C# names it (`Order.Total.get.<lambda>`, a constructor's by its type). */
function generatedMethodName(owner: string, name: string): string | undefined {
  const generated = parseGeneratedName(name);
  if (generated?.kind !== 'lambda' && generated?.kind !== 'localFunction') return undefined;
  const method = memberDisplayName(generated.owner, owner.split('.').pop() ?? '', true);
  return `${owner}.${method}.${generated.kind === 'lambda' ? '<lambda>' : generated.name}`;
}
