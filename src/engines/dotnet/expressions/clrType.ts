/**
 * Types as overload resolution sees them: named by their metadata name (`System.Collections.Generic.List`1`,
 * nested types with `+`), so a type is the same whichever assembly refers to it; arrays; the type
 * parameters of a generic type or method still to be substituted; the type of `null`.
 */
import { KEYWORDS } from '../symbols/csharpNames.js';

export type ClrType =
  | { kind: 'named'; name: string; args: ClrType[] }
  | { kind: 'array'; elem: ClrType; rank: number }
  | { kind: 'param'; method: boolean; index: number }
  | { kind: 'null' }
  /** Pointers, by-ref and span-like types: a parameter of such a type cannot be passed from a debugger. */
  | { kind: 'unusable'; why: string };

export const named = (name: string, args: ClrType[] = []): ClrType => ({ kind: 'named', name, args });

export const OBJECT = 'System.Object';
export const STRING = 'System.String';
export const NULLABLE = 'System.Nullable`1';

/** C#'s keyword for each predefined type's metadata name (`void` is no argument or parameter type). */
export const PRIMITIVE_KEYWORDS: Record<string, string> = Object.fromEntries(Object.entries(KEYWORDS).filter(([, keyword]) => keyword !== 'void'));

export const KEYWORD_TYPES: Record<string, string> = Object.fromEntries(Object.entries(PRIMITIVE_KEYWORDS).map(([name, keyword]) => [keyword, name]));

export function sameType(a: ClrType, b: ClrType): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'named': {
      const o = b as typeof a;
      return a.name === o.name && a.args.length === o.args.length && a.args.every((x, i) => sameType(x, o.args[i]!));
    }
    case 'array': {
      const o = b as typeof a;
      return a.rank === o.rank && sameType(a.elem, o.elem);
    }
    case 'param': {
      const o = b as typeof a;
      return a.method === o.method && a.index === o.index;
    }
    case 'null':
      return true;
    case 'unusable':
      return false;
  }
}

/** `t` with type parameters replaced: the declaring type's arguments, and the method's. */
export function substitute(t: ClrType, typeArgs: readonly ClrType[], methodArgs: readonly ClrType[] = []): ClrType {
  switch (t.kind) {
    case 'named':
      return t.args.length ? { kind: 'named', name: t.name, args: t.args.map((a) => substitute(a, typeArgs, methodArgs)) } : t;
    case 'array':
      return { kind: 'array', elem: substitute(t.elem, typeArgs, methodArgs), rank: t.rank };
    case 'param':
      return (t.method ? methodArgs[t.index] : typeArgs[t.index]) ?? t;
    default:
      return t;
  }
}

/** Whether a method type parameter is still in `t`. */
export function mentionsMethodParam(t: ClrType): boolean {
  if (t.kind === 'param') return t.method;
  if (t.kind === 'named') return t.args.some(mentionsMethodParam);
  if (t.kind === 'array') return mentionsMethodParam(t.elem);
  return false;
}

/** The C# name of a type, for messages; a method's type parameters by `methodParams` names (`T`). */
export function displayType(t: ClrType, methodParams: readonly string[] = []): string {
  const show = (inner: ClrType) => displayType(inner, methodParams);
  switch (t.kind) {
    case 'named': {
      const keyword = PRIMITIVE_KEYWORDS[t.name];
      if (keyword) return keyword;
      if (t.name === NULLABLE && t.args.length === 1) return `${show(t.args[0]!)}?`;
      const base = t.name.replace(/`\d+/g, '').replace(/\+/g, '.');
      return t.args.length ? `${base}<${t.args.map(show).join(', ')}>` : base;
    }
    case 'array':
      return `${show(t.elem)}[${','.repeat(Math.max(0, t.rank - 1))}]`;
    case 'param':
      return (t.method && methodParams[t.index]) || `${t.method ? 'M' : 'T'}${t.index}`;
    case 'null':
      return 'null';
    case 'unusable':
      return t.why;
  }
}
