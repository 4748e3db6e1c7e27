/**
 * A method body's exception-handling clauses (ECMA-335 II.25.4.5–6): the sections after a fat
 * header's IL code, in small or fat form. The runtime searches them innermost first, in the order
 * they are listed, so the first clause whose try block holds an offset and whose catch matches is the
 * one that takes the exception there.
 */
import type { AssemblyMetadata, MethodInfo } from './assemblyMetadata.js';
import { typeTokenName } from './awaitedCall.js';
import { tokenRid, tokenTable } from './tableSchema.js';

export interface ExceptionClause {
  kind: 'catch' | 'filter' | 'finally' | 'fault';
  tryStart: number;
  tryEnd: number;
  handlerStart: number;
  handlerEnd: number;
  /** A catch clause's type token (TypeDef, TypeRef or TypeSpec). */
  classToken?: number;
}

/** What takes an exception at an offset: a catch of its type, or a filter that may. */
export interface CatchingClause {
  handlerStart: number;
  filter: boolean;
}

const FAT_FORMAT = 0x3;
const MORE_SECTS = 0x8;
const SECTION_EH_TABLE = 0x1;
const SECTION_FAT = 0x40;
const SECTION_MORE = 0x80;
const KINDS: ExceptionClause['kind'][] = ['catch', 'filter', 'finally'];

export function exceptionClauses(meta: AssemblyMetadata, method: MethodInfo): ExceptionClause[] {
  const header = method.rva ? meta.image.at(method.rva, 12) : undefined;
  if (!header || (header[0]! & 0x3) !== FAT_FORMAT || (header[0]! & MORE_SECTS) === 0) return [];
  const headerSize = ((header.readUInt16LE(0) >>> 12) & 0xf) * 4;
  let at = (method.rva + headerSize + header.readUInt32LE(4) + 3) & ~3;
  const clauses: ExceptionClause[] = [];
  for (let more = true; more; ) {
    const section = meta.image.at(at, 4);
    if (!section) break;
    const kind = section[0]!;
    const fat = (kind & SECTION_FAT) !== 0;
    const size = fat ? section.readUIntLE(1, 3) : section[1]!;
    const body = meta.image.at(at + 4, Math.max(0, size - 4));
    if (body && (kind & SECTION_EH_TABLE) !== 0) clauses.push(...(fat ? fatClauses(body) : smallClauses(body)));
    more = (kind & SECTION_MORE) !== 0 && size > 0;
    at = (at + size + 3) & ~3;
  }
  return clauses;
}

function fatClauses(body: Buffer): ExceptionClause[] {
  const out: ExceptionClause[] = [];
  for (let i = 0; i + 24 <= body.length; i += 24) {
    const tryStart = body.readUInt32LE(i + 4);
    const handlerStart = body.readUInt32LE(i + 12);
    out.push(clause(body.readUInt32LE(i), tryStart, tryStart + body.readUInt32LE(i + 8), handlerStart, handlerStart + body.readUInt32LE(i + 16), body.readUInt32LE(i + 20)));
  }
  return out;
}

function smallClauses(body: Buffer): ExceptionClause[] {
  const out: ExceptionClause[] = [];
  for (let i = 0; i + 12 <= body.length; i += 12) {
    const tryStart = body.readUInt16LE(i + 2);
    const handlerStart = body.readUInt16LE(i + 5);
    out.push(clause(body.readUInt16LE(i), tryStart, tryStart + body[i + 4]!, handlerStart, handlerStart + body[i + 7]!, body.readUInt32LE(i + 8)));
  }
  return out;
}

function clause(flags: number, tryStart: number, tryEnd: number, handlerStart: number, handlerEnd: number, classOrFilter: number): ExceptionClause {
  const kind = KINDS[flags] ?? 'fault';
  return { kind, tryStart, tryEnd, handlerStart, handlerEnd, ...(kind === 'catch' ? { classToken: classOrFilter } : {}) };
}

/**
 * The clause that takes an exception thrown at `ilOffset`, whose class and base classes are `types`
 * (metadata names, the class first), `ignored` clauses left out. A filter ends the search as a maybe:
 * its code decides.
 */
export function catchingClause(meta: AssemblyMetadata, clauses: ExceptionClause[], ilOffset: number, types: string[], ignored: (c: ExceptionClause) => boolean): CatchingClause | undefined {
  for (const c of clauses) {
    if (ilOffset < c.tryStart || ilOffset >= c.tryEnd || ignored(c)) continue;
    if (c.kind === 'filter') return { handlerStart: c.handlerStart, filter: true };
    if (c.kind === 'catch' && catches(meta, c.classToken!, types)) return { handlerStart: c.handlerStart, filter: false };
  }
  return undefined;
}

/** Whether a catch clause's type is the exception's class or one of its bases (a generic catch type matches by its definition). */
function catches(meta: AssemblyMetadata, classToken: number, types: string[]): boolean {
  const wanted = typeTokenName(meta, tokenTable(classToken), tokenRid(classToken)).replace(/\+/g, '.');
  return wanted === 'System.Object' || (wanted !== '' && types.some((t) => t.replace(/\+/g, '.') === wanted));
}
