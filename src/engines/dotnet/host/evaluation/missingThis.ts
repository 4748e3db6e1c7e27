/**
 * Why a frame has no `this`: a static method has none (nor its iterator or async state machine); an
 * iterator, an async method or a lambda of an instance method runs in a class the compiler
 * generated, which keeps the object it was called on only when the code uses `this` (a Release build
 * keeps nothing more). Both evaluators answer the same words.
 */
import { Table } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { FrameHandle } from '../stackReader.js';

const METHOD_STATIC = 0x10;
const STATE_MACHINE = /^<([^>]+)>d__\d+$/;
const IN_STATIC = "'this' is not available in a static method";

export function missingThis(modules: ModuleRegistry, frame: FrameHandle): string {
  const meta = modules.get(frame.module)?.symbols?.metadata;
  const method = meta?.methodByToken(frame.methodToken);
  if (!meta || !method) return IN_STATIC;
  const type = meta.type(method.declaringType);
  if (!type.name.startsWith('<')) return IN_STATIC;
  const kickoff = STATE_MACHINE.exec(type.name)?.[1];
  if (kickoff && type.enclosing) {
    const { first, last } = meta.tables.listRange(Table.TypeDef, type.enclosing, 'methodList', Table.MethodDef);
    const named = [];
    for (let rid = first; rid <= last; rid++) if (meta.method(rid).name === kickoff) named.push(meta.method(rid));
    if (named.length && named.every((m) => (m.flags & METHOD_STATIC) !== 0)) return IN_STATIC;
  }
  return "'this' is not available here: this code runs in a class the compiler generated (an iterator, an async method or a lambda), which keeps 'this' only when the code uses it";
}
