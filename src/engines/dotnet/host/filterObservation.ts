/**
 * What a condition reads at one hit, node by node, for compiling it into a hit filter (hitFilter.ts):
 * each name as the evaluator resolves it — a plain local or argument, else a field of `this` — and
 * each member as a field (an auto-property by its backing field) or a string's or array's Length,
 * with the values read there, whose types the filter is then compiled for. A variable the compiler
 * moved into a class (an async method's or iterator's hoisted local, a lambda's captured variable,
 * `this` of a state machine) is read as the fields that hold it, from the frame's slot that holds
 * the compiler's object. Undefined when a node is something else (a property getter, a null on the way).
 */
import type { Expr, MemberAccess, This } from '../expressions/ast.js';
import type { FieldRef } from './nativeSession.js';
import type { Observation } from './hitFilter.js';
import { ElementType, type NativeValue } from './values/nativeValue.js';

type Place = { kind: 'local' | 'argument'; index: number };

/** The frame's reads a condition's observation needs. */
export interface ConditionReads {
  locate(name: string): Place | 'captured' | undefined;
  /** A hoisted or captured variable: the frame's slot, then the fields down to it. */
  captured(name: string): Promise<{ place: Place; fields: string[] } | undefined>;
  variable(place: Place): Promise<NativeValue>;
  field(object: NativeValue, name: string): Promise<{ field: FieldRef; value: NativeValue } | undefined>;
}

/**
 * The condition (one that fitsFilter accepts) with every name that means a member of `this` spelled
 * `this.name`, and what each of its nodes read.
 */
export async function observeCondition(expr: Expr, reads: ConditionReads): Promise<{ expr: Expr; observed: Map<Expr, Observation> } | undefined> {
  const observed = new Map<Expr, Observation>();
  const valueOf = (e: Expr) => {
    const seen = observed.get(e);
    return seen && seen.kind !== 'length' ? seen.value : undefined;
  };

  const visit = async (e: Expr): Promise<Expr | undefined> => {
    switch (e.kind) {
      case 'literal':
        return e;
      case 'this':
      case 'name': {
        const name = e.kind === 'this' ? 'this' : e.name;
        const place = reads.locate(name);
        if (place === 'captured') {
          const path = await reads.captured(name);
          if (path) return through(path, e);
        } else if (place) {
          observed.set(e, { kind: 'variable', place, value: await reads.variable(place) });
          return e;
        }
        if (e.kind === 'this') return undefined;
        // Not a local or argument: C# looks among the members of `this` next.
        const self: This = { kind: 'this', start: e.start, end: e.start };
        return visit({ kind: 'memberAccess', target: self, name: e.name, typeArguments: [], start: e.start, end: e.end });
      }
      case 'memberAccess':
        return member(e);
      case 'unary': {
        const operand = await visit(e.operand);
        return operand && { ...e, operand };
      }
      case 'binary': {
        const left = await visit(e.left);
        const right = left && (await visit(e.right));
        return right && { ...e, left: left!, right };
      }
      default:
        return undefined;
    }
  };

  const member = async (e: MemberAccess): Promise<Expr | undefined> => {
    const target = await visit(e.target);
    return target && field(target, e);
  };

  /** The slot holding the compiler's object, then a member access for each field down to the variable. */
  const through = async (path: { place: Place; fields: string[] }, e: Expr): Promise<Expr | undefined> => {
    let node: Expr | undefined = { kind: 'name', name: `<${path.place.kind} ${path.place.index}>`, typeArguments: [], start: e.start, end: e.end };
    observed.set(node, { kind: 'variable', place: path.place, value: await reads.variable(path.place) });
    for (const name of path.fields) {
      if (!node) return undefined;
      node = await field(node, { kind: 'memberAccess', target: node, name, typeArguments: [], start: e.start, end: e.end });
    }
    return node;
  };

  const field = async (target: Expr, e: MemberAccess): Promise<Expr | undefined> => {
    const object = valueOf(target);
    if (!object || object.null) return undefined;
    const node: MemberAccess = { ...e, target };
    const sized = object.et === ElementType.string || object.et === ElementType.szarray || object.et === ElementType.array;
    if (sized && e.name === 'Length') {
      observed.set(node, { kind: 'length' });
      return node;
    }
    const guard = object.chain?.[0];
    const read = guard && (await reads.field(object, e.name));
    if (!read) return undefined;
    observed.set(node, { kind: 'field', field: read.field, guard, value: read.value });
    return node;
  };

  const rewritten = await visit(expr);
  return rewritten && { expr: rewritten, observed };
}
