/**
 * C#'s overload resolution (ECMA-334 §12.6.4) over metadata types, independent of the debugger:
 * applicable candidates in their normal and `params`-expanded forms, type inference for generic
 * methods (lower-bound inference through base types and interfaces, §12.6.3), the better function
 * member by better conversions (exact match, better conversion target, signed over unsigned), and the
 * tie-breaks (non-generic over generic, normal over expanded form). A generic candidate whose type
 * arguments break a constraint is not applicable (§12.6.4.2, as C# 7.3 and later); when the only
 * candidate fails that way or by inference, the compiler's own error says why. What the types are comes from a
 * TypeFacts (the program's metadata in the debugger, a table in the tests).
 */
import { type ClrType, displayType, KEYWORD_TYPES, mentionsMethodParam, NULLABLE, OBJECT, PRIMITIVE_KEYWORDS, sameType, substitute } from './clrType.js';
import { isImplicitlyConvertible } from './csConversions.js';
import type { CsType, CsValue } from './csValue.js';

export interface TypeFacts {
  /** The direct base type and interfaces of `t`, type arguments substituted. */
  supertypes(t: ClrType): ClrType[];
  isValueType(t: ClrType): boolean;
  isInterface(t: ClrType): boolean;
  isEnum(t: ClrType): boolean;
  /** A generic interface's or delegate's type parameter variance. */
  variance(name: string, index: number): 'in' | 'out' | undefined;
  /** A non-abstract type with a public parameterless constructor (`new()`); unknown when absent. */
  isConstructible?(t: ClrType): boolean;
}

/** A method's type parameter as its constraint clause declares it. */
export interface TypeParameter {
  name: string;
  /** Constraint types; the method's type parameters remain in them (`IComparable<T>`). */
  constraints: ClrType[];
  /** `class`, `struct`, `new()`. */
  referenceType?: boolean;
  valueType?: boolean;
  constructible?: boolean;
}

/** An argument: its type (the runtime's for values read from the program), and its value when it is a constant. */
export interface Argument {
  type: ClrType;
  constant?: CsValue;
  /** A value typed by a type parameter with several constraints: `type` is the first, these the others it converts to too. */
  alsoConvertsTo?: ClrType[];
  /**
   * A value typed by a type parameter: the frame's type argument. A generic method's type parameter
   * is inferred from it (C# infers the type parameter itself), and a parameter typed by that method
   * type parameter takes it as it is.
   */
  typeArgument?: ClrType;
}

export interface Candidate<T> {
  method: T;
  /** Parameter types, the declaring type's arguments substituted; method type parameters remain. */
  params: ClrType[];
  genericArity: number;
  /** The last parameter is `params T[]`. */
  paramArray: boolean;
  /** The method's type parameters (names and constraints), and its name as errors show it (`Ns.Type.Method`). */
  typeParams?: TypeParameter[];
  name?: string;
  /** How many of its last parameters are optional (`CancellationToken cancellation = default`). */
  optional?: number;
}

/**
 * Whether C# may bind a call that no candidate takes here: one whose optional parameters are left out,
 * or one with a parameter no debugger passes (a span a string converts to, a ref). The compiled
 * evaluation, running in the program, decides those.
 */
export function compiledMayBind<T>(candidates: Candidate<T>[], argCount: number): boolean {
  return candidates.some((c) => (!!c.optional && c.params.length > argCount && c.params.length - c.optional <= argCount) || c.params.some((p) => p.kind === 'unusable'));
}

export interface Chosen<T> {
  method: T;
  /** The method's type arguments (inferred or given). */
  typeArgs: ClrType[];
  /** The parameter type each argument goes to (the element type for those gathered into a params array). */
  argumentTypes: ClrType[];
  /** How many arguments go to the params array, when the expanded form was chosen. */
  expanded?: { from: number; elem: ClrType };
}

/** `why`: the compiler's error when the only candidate failed by inference or a constraint (CS0411, CS0311, …). */
export type Resolution<T> = { chosen: Chosen<T> } | { error: 'none' | 'ambiguous'; candidates: T[]; why?: string };

type Form<T> = Chosen<T> & { generic: boolean; normalParams: ClrType[] };

export function resolveOverload<T>(candidates: Candidate<T>[], args: Argument[], facts: TypeFacts, explicitTypeArgs?: ClrType[]): Resolution<T> {
  const applicable: Form<T>[] = [];
  const failures: string[] = [];
  for (const candidate of candidates) {
    if (explicitTypeArgs && explicitTypeArgs.length !== candidate.genericArity) continue;
    for (const form of forms(candidate, args.length)) {
      const typeArgs = explicitTypeArgs ?? (candidate.genericArity ? infer(form.types, args, candidate.genericArity, facts) : []);
      if (!typeArgs) {
        failures.push(`CS0411 The type arguments for method '${methodDisplay(candidate)}' cannot be inferred from the usage. Try specifying the type arguments explicitly.`);
        continue;
      }
      const broken = candidate.genericArity ? brokenConstraint(candidate, typeArgs, facts) : undefined;
      if (broken) {
        failures.push(broken);
        continue;
      }
      const types = form.types.map((p) => substitute(p, [], typeArgs));
      if (types.some((p) => p.kind === 'unusable' || mentionsMethodParam(p))) continue;
      if (!args.every((a, i) => conversion(a.typeArgument && mentionsMethodParam(form.types[i]!) ? { type: a.typeArgument } : a, types[i]!, facts) !== undefined)) continue;
      const normalParams = candidate.params.map((p) => substitute(p, [], typeArgs));
      applicable.push({ method: candidate.method, typeArgs, argumentTypes: types, expanded: form.expanded === undefined ? undefined : { from: form.expanded, elem: types[form.expanded] ?? elemOf(normalParams.at(-1)) }, generic: candidate.genericArity > 0, normalParams });
    }
  }
  if (applicable.length === 0) {
    const why = candidates.length === 1 && failures.length === 1 ? failures[0] : undefined;
    return { error: 'none', candidates: candidates.map((c) => c.method), ...(why && { why }) };
  }
  const best = applicable.filter((m) => applicable.every((other) => other === m || better(m, other, args, facts)));
  if (best.length !== 1) return { error: 'ambiguous', candidates: (best.length ? best : applicable).map((m) => m.method) };
  const { generic: _generic, normalParams: _normal, ...chosen } = best[0]!;
  return { chosen };
}

/**
 * The first constraint the type arguments break, as the compiler words it (§15.2.5), or undefined.
 * A generic type's (`params` absent): its constraints name the type's own parameters.
 */
export function brokenConstraint(candidate: Pick<Candidate<unknown>, 'typeParams' | 'name'> & { params?: ClrType[] }, typeArgs: ClrType[], facts: TypeFacts): string | undefined {
  const isType = !candidate.params;
  const method = isType ? `${candidate.name}<${(candidate.typeParams ?? []).map((p) => p.name).join(', ')}>` : methodDisplay({ ...candidate, params: candidate.params! });
  const substituted = (t: ClrType) => (isType ? substitute(t, typeArgs) : substitute(t, [], typeArgs));
  for (const [i, param] of (candidate.typeParams ?? []).entries()) {
    const arg = typeArgs[i];
    if (!param || !arg) continue;
    const shown = displayType(arg);
    const where = `in the generic type or method '${method}'`;
    const valueType = facts.isValueType(arg);
    if (param.referenceType && valueType) return `CS0452 The type '${shown}' must be a reference type in order to use it as parameter '${param.name}' ${where}`;
    if (param.valueType && (!valueType || (arg.kind === 'named' && arg.name === NULLABLE))) {
      return `CS0453 The type '${shown}' must be a non-nullable value type in order to use it as parameter '${param.name}' ${where}`;
    }
    for (const constraint of param.constraints) {
      const target = substituted(constraint);
      const kind = conversion({ type: arg }, target, facts);
      if (kind === 'identity' || kind === 'reference' || kind === 'boxing') continue;
      if (arg.kind === 'named' && arg.name === NULLABLE && facts.isInterface(target)) {
        return `CS0313 The type '${shown}' cannot be used as type parameter '${param.name}' ${where}. The nullable type '${shown}' does not satisfy the constraint of '${displayType(target)}'. Nullable types can not satisfy any interface constraints.`;
      }
      const via = valueType ? 'boxing conversion' : 'implicit reference conversion';
      return `${valueType ? 'CS0315' : 'CS0311'} The type '${shown}' cannot be used as type parameter '${param.name}' ${where}. There is no ${via} from '${shown}' to '${displayType(target)}'.`;
    }
    if (param.constructible && !valueType && facts.isConstructible?.(arg) === false) {
      return `CS0310 '${shown}' must be a non-abstract type with a public parameterless constructor in order to use it as parameter '${param.name}' ${where}`;
    }
  }
  return undefined;
}

/** A generic method as the compiler's errors name it: `Ns.Type.Method<T>(System.Collections.Generic.IEnumerable<T>)`. */
export function methodDisplay(candidate: Pick<Candidate<unknown>, 'params' | 'typeParams' | 'name'>): string {
  const names = (candidate.typeParams ?? []).map((p) => p.name);
  const generic = names.length ? `<${names.join(', ')}>` : '';
  return `${candidate.name ?? 'method'}${generic}(${candidate.params.map((p) => displayType(p, names)).join(', ')})`;
}

function elemOf(t: ClrType | undefined): ClrType {
  return t?.kind === 'array' ? t.elem : { kind: 'unusable', why: 'params' };
}

/** The normal form, and the expanded form of a `params T[]` method (§12.6.4.2). */
function forms<T>(c: Candidate<T>, count: number): { types: ClrType[]; expanded?: number }[] {
  const out: { types: ClrType[]; expanded?: number }[] = [];
  if (c.params.length === count) out.push({ types: c.params });
  const last = c.params.at(-1);
  if (c.paramArray && last?.kind === 'array' && last.rank === 1 && count >= c.params.length - 1) {
    const fixed = c.params.slice(0, -1);
    out.push({ types: [...fixed, ...Array<ClrType>(count - fixed.length).fill(last.elem)], expanded: fixed.length });
  }
  return out;
}

/** Whether `m1` is better than `m2` for these arguments (§12.6.4.3). */
function better<T>(m1: Form<T>, m2: Form<T>, args: Argument[], facts: TypeFacts): boolean {
  let someBetter = false;
  for (const [i, arg] of args.entries()) {
    const p1 = m1.argumentTypes[i]!;
    const p2 = m2.argumentTypes[i]!;
    if (sameType(p1, p2)) continue;
    if (betterConversion(arg, p2, p1, facts)) return false;
    if (betterConversion(arg, p1, p2, facts)) someBetter = true;
  }
  if (someBetter) return true;
  // Same parameter types: the tie-breaks.
  if (!m1.argumentTypes.every((p, i) => sameType(p, m2.argumentTypes[i]!))) return false;
  if (m1.generic !== m2.generic) return !m1.generic;
  if (!!m1.expanded !== !!m2.expanded) return !m1.expanded;
  if (m1.expanded && m2.expanded) return m1.normalParams.length > m2.normalParams.length;
  return false;
}

/** The better conversion from an expression (§12.6.4.5): an exact match, else the better target. */
function betterConversion(arg: Argument, t1: ClrType, t2: ClrType, facts: TypeFacts): boolean {
  const exact1 = sameType(arg.type, t1);
  const exact2 = sameType(arg.type, t2);
  if (exact1 !== exact2) return exact1;
  return betterTarget(t1, t2, facts);
}

const SIGNED: Record<string, string[]> = {
  'System.SByte': ['System.Byte', 'System.UInt16', 'System.UInt32', 'System.UInt64'],
  'System.Int16': ['System.UInt16', 'System.UInt32', 'System.UInt64'],
  'System.Int32': ['System.UInt32', 'System.UInt64'],
  'System.Int64': ['System.UInt64'],
};

/** §12.6.4.7: T1 converts to T2 and not back, or T1 is signed where T2 is unsigned. */
function betterTarget(t1: ClrType, t2: ClrType, facts: TypeFacts): boolean {
  const to2 = conversion({ type: t1 }, t2, facts) !== undefined;
  const to1 = conversion({ type: t2 }, t1, facts) !== undefined;
  if (to2 && !to1) return true;
  if (t1.kind === 'named' && t2.kind === 'named' && SIGNED[t1.name]?.includes(t2.name)) return true;
  return false;
}

export type ConversionKind = 'identity' | 'numeric' | 'constant' | 'null' | 'reference' | 'boxing' | 'nullable';

/** The implicit conversion from an argument to a parameter type, if there is one (§10.2). */
export function conversion(arg: Argument, to: ClrType, facts: TypeFacts): ConversionKind | undefined {
  const from = arg.type;
  if (sameType(from, to)) return 'identity';
  if (to.kind === 'unusable' || to.kind === 'param') return undefined;
  if (from.kind === 'null') return (to.kind === 'named' && to.name === NULLABLE) || !facts.isValueType(to) ? 'null' : undefined;
  const fromKeyword = keywordOf(from);
  const toKeyword = keywordOf(to);
  if (fromKeyword && toKeyword && fromKeyword !== 'string' && toKeyword !== 'string' && fromKeyword !== 'object' && toKeyword !== 'object') {
    const value: CsValue = arg.constant && arg.constant.type === fromKeyword ? arg.constant : ({ type: fromKeyword, value: 0n, constant: false } as CsValue);
    if (isImplicitlyConvertible({ ...value, constant: false } as CsValue, toKeyword as CsType)) return 'numeric';
    if (arg.constant && isImplicitlyConvertible(value, toKeyword as CsType)) return 'constant';
    return undefined;
  }
  if (arg.constant && arg.constant.type === 'int' && arg.constant.value === 0n && facts.isEnum(to)) return 'constant';
  if (to.kind === 'named' && to.name === NULLABLE && to.args[0]) {
    const inner = conversion(arg, to.args[0], facts);
    return inner && inner !== 'boxing' && inner !== 'reference' ? 'nullable' : undefined;
  }
  if (facts.isValueType(to)) return undefined;
  if (inherits(from, to, facts, new Set())) return facts.isValueType(from) ? 'boxing' : 'reference';
  if (arg.alsoConvertsTo?.some((c) => inherits(c, to, facts, new Set()))) return 'reference';
  return undefined;
}

function keywordOf(t: ClrType): string | undefined {
  return t.kind === 'named' ? PRIMITIVE_KEYWORDS[t.name] : undefined;
}

/** Whether `from` reaches `to` through base types and interfaces (with variance), arrays covariantly. */
function inherits(from: ClrType, to: ClrType, facts: TypeFacts, seen: Set<string>): boolean {
  if (sameType(from, to) || variantMatch(from, to, facts)) return true;
  if (to.kind === 'named' && to.name === OBJECT) return true;
  if (from.kind === 'array' && to.kind === 'array') {
    return from.rank === to.rank && !facts.isValueType(from.elem) && !facts.isValueType(to.elem) && inherits(from.elem, to.elem, facts, seen);
  }
  const key = JSON.stringify(from);
  if (seen.has(key)) return false;
  seen.add(key);
  return facts.supertypes(from).some((s) => inherits(s, to, facts, seen));
}

/** `IEnumerable<string>` → `IEnumerable<object>`: variant type arguments of the same generic interface. */
function variantMatch(from: ClrType, to: ClrType, facts: TypeFacts): boolean {
  if (from.kind !== 'named' || to.kind !== 'named' || from.name !== to.name || from.args.length !== to.args.length || !from.args.length) return false;
  return from.args.every((a, i) => {
    const b = to.args[i]!;
    if (sameType(a, b)) return true;
    const v = facts.variance(from.name, i);
    if (v === 'out') return !facts.isValueType(a) && inherits(a, b, facts, new Set());
    if (v === 'in') return !facts.isValueType(b) && inherits(b, a, facts, new Set());
    return false;
  });
}

/** The method's type arguments inferred from the arguments (§12.6.3, lower-bound inferences), or undefined. */
export function infer(params: ClrType[], args: Argument[], arity: number, facts: TypeFacts): ClrType[] | undefined {
  const bounds: ClrType[][] = Array.from({ length: arity }, () => []);
  for (const [i, arg] of args.entries()) lowerBound(arg.typeArgument ?? arg.type, params[i]!, bounds, facts);
  const fixed: ClrType[] = [];
  for (const candidates of bounds) {
    // Fixed to the candidate every other candidate converts to.
    const choice = candidates.find((c) => candidates.every((o) => conversion({ type: o }, c, facts) !== undefined));
    if (!choice) return undefined;
    fixed.push(choice);
  }
  return fixed;
}

function lowerBound(from: ClrType, to: ClrType, bounds: ClrType[][], facts: TypeFacts): void {
  if (!mentionsMethodParam(to) || from.kind === 'null') return;
  if (to.kind === 'param') {
    if (!bounds[to.index]!.some((b) => sameType(b, from))) bounds[to.index]!.push(from);
    return;
  }
  if (to.kind === 'array') {
    if (from.kind === 'array' && from.rank === to.rank) lowerBound(from.elem, to.elem, bounds, facts);
    return;
  }
  if (to.kind !== 'named') return;
  const match = findConstructed(from, to.name, facts, new Set());
  if (!match) return;
  for (const [i, arg] of match.args.entries()) {
    // Invariant type arguments infer exactly; here the exact type is the one bound either way.
    lowerBound(arg, to.args[i]!, bounds, facts);
  }
}

/** The base type or interface of `from` that is a construction of the generic type `name`. */
function findConstructed(from: ClrType, name: string, facts: TypeFacts, seen: Set<string>): (ClrType & { kind: 'named' }) | undefined {
  if (from.kind === 'named' && from.name === name) return from;
  const key = JSON.stringify(from);
  if (seen.has(key)) return undefined;
  seen.add(key);
  for (const s of facts.supertypes(from)) {
    const found = findConstructed(s, name, facts, seen);
    if (found) return found;
  }
  return undefined;
}

/** The metadata name of a C# keyword type (`int` → System.Int32). */
export function keywordType(keyword: string): string | undefined {
  return KEYWORD_TYPES[keyword];
}
