/**
 * Tuple element names where a declaration gave them ([TupleElementNames], the PDB): the compiler lists
 * them for every tuple in the declared type, each tuple's own names before those of the tuples inside
 * it, in the order the type is written — `List<(string text, int length)>`: text, length;
 * `((int a, int b) x, int y)`: x, y, a, b. The runtime type holds none: `System.ValueTuple<string, int>`.
 */
import type { TupleNames } from '../../symbols/typeMembers.js';
import type { NativeType } from '../nativeEvents.js';

/** A type's C# name; `arg` writes its type arguments and array element. */
export type TypeNamer = (type: NativeType | undefined, arg?: (t: NativeType | undefined) => string) => string;

const TUPLE = /^System\.ValueTuple</;

/** Whether a runtime type is a tuple C# writes with parentheses (ValueTuple of 1 to 7 elements). */
export function isTuple(type: NativeType | undefined, nameOf: TypeNamer): boolean {
  const arity = type?.args?.length ?? 0;
  return arity > 0 && arity <= 7 && TUPLE.test(nameOf(type, () => ''));
}

/**
 * The type as C# writes it with the element names its declaration gave, at any depth:
 * `(int count, string label)`, `List<(string text, int length)>`. Undefined when it names none.
 */
export function withElementNames(type: NativeType | undefined, names: TupleNames | undefined, nameOf: TypeNamer): string | undefined {
  if (!type || !names?.some((n) => n)) return undefined;
  let at = 0;
  const write = (t: NativeType | undefined): string => {
    if (!t || !isTuple(t, nameOf)) return nameOf(t, write);
    const own = names.slice(at, (at += t.args!.length));
    return `(${t.args!.map((a, i) => (own[i] ? `${write(a)} ${own[i]}` : write(a))).join(', ')})`;
  };
  return write(type);
}

/** The names of the tuples in a collection's items: an array's element type, else its last type argument (a dictionary's values). */
export function itemElementNames(type: NativeType | undefined, names: TupleNames | undefined, nameOf: TypeNamer): TupleNames | undefined {
  if (!type || !names?.length || isTuple(type, nameOf)) return undefined;
  if (type.elem) return names;
  const args = type.args ?? [];
  const before = args.slice(0, -1).reduce((n, a) => n + nameCount(a, nameOf), 0);
  const own = names.slice(before);
  return own.some((n) => n) ? own : undefined;
}

/** How many element names the tuples in a type take. */
function nameCount(type: NativeType | undefined, nameOf: TypeNamer): number {
  if (!type) return 0;
  const inner = [...(type.args ?? []), ...(type.elem ? [type.elem] : [])].reduce((n, a) => n + nameCount(a, nameOf), 0);
  return inner + (isTuple(type, nameOf) ? type.args!.length : 0);
}
