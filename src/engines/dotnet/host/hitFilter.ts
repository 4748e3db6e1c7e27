/**
 * A breakpoint condition compiled for the debugger thread (native/src/debugger/hit_filter.h): a few
 * stack operations over the frame's locals and arguments, their fields (auto-properties too) and
 * string and array lengths, so a hit whose condition is false is continued without waking
 * JavaScript. The C# rules stay here: what each name and member is comes from what the evaluator
 * read at one hit (filterObservation.ts), operators type as C# types them (numeric promotion,
 * constants folded, unchecked wrap-around), and whatever the program does not fit in — property
 * getters, calls, casts, decimals, enums, lifted nulls, shifts — is left to the evaluator (undefined).
 */
import type { BinaryOperator, Expr } from '../expressions/ast.js';
import { evaluateBinary, evaluateUnary, type CsType, type CsValue } from '../expressions/numeric.js';
import type { NativeType } from './nativeEvents.js';
import type { FieldRef, FilterOp, FilterType } from './nativeSession.js';
import { ElementType, NUMERIC_KEYWORDS, type NativeValue } from './values/nativeValue.js';

/** What an expression node read at the hit a condition is compiled at. */
export type Observation =
  | { kind: 'variable'; place: { kind: 'local' | 'argument'; index: number }; value: NativeValue }
  /** A field of an object whose exact type was `guard` (a later hit on another type is the host's). */
  | { kind: 'field'; field: FieldRef; guard: NativeType; value: NativeValue }
  | { kind: 'length' };

export type Observations = ReadonlyMap<Expr, Observation>;

/** The element type a filter reads an object as (it only reads its fields or length). */
const OBJECT = ElementType.class;

const FILTER_TYPES: Partial<Record<CsType, FilterType>> = {
  sbyte: 'i8',
  byte: 'u8',
  short: 'i16',
  ushort: 'u16',
  char: 'u16',
  int: 'i32',
  uint: 'u32',
  long: 'i64',
  ulong: 'u64',
  float: 'f32',
  double: 'f64',
  bool: 'bool',
  string: 'string',
  null: 'null',
};
const ARITHMETIC = new Set<BinaryOperator>(['+', '-', '*', '/', '%', '&', '|', '^']);
const COMPARISONS = new Set<BinaryOperator>(['==', '!=', '<', '<=', '>', '>=']);

/** Whether an expression is made only of what a filter can compute (the rest is the evaluator's). */
export function fitsFilter(expr: Expr): boolean {
  switch (expr.kind) {
    case 'literal':
    case 'this':
      return true;
    case 'name':
      return expr.typeArguments.length === 0;
    case 'memberAccess':
      return expr.typeArguments.length === 0 && fitsFilter(expr.target);
    case 'unary':
      return fitsFilter(expr.operand);
    case 'binary':
      return expr.operator !== '??' && fitsFilter(expr.left) && fitsFilter(expr.right);
    default:
      return false;
  }
}

/** How a filter reads a value: its C# type (or `object`, to read members from) and element type. */
function leafOf(value: NativeValue): { type: CsType | 'object'; et: number } | undefined {
  if (value.null || value.boxed || value.et === undefined) return undefined;
  if (value.et === ElementType.string) return { type: 'string', et: value.et };
  const keyword = (NUMERIC_KEYWORDS as Record<number, CsType>)[value.et];
  if (keyword) return { type: keyword, et: value.et };
  const objects: number[] = [ElementType.class, ElementType.valuetype, ElementType.szarray, ElementType.array, ElementType.object];
  return objects.includes(value.et) ? { type: 'object', et: OBJECT } : undefined;
}

interface Compiled {
  ops: FilterOp[];
  type: CsType | 'object';
  /** A compile-time constant: folded, emitted as one op. */
  constant?: CsValue;
}

/** Compiles a condition from what its nodes read at one hit; undefined when it does not fit. */
export function compileHitFilter(expr: Expr, observed: Observations): FilterOp[] | undefined {
  try {
    const compiled = compile(expr, observed);
    return compiled?.type === 'bool' ? emit(compiled) : undefined;
  } catch {
    return undefined; // C# itself rejects it: the evaluator says why, at the hit
  }
}

function compile(e: Expr, observed: Observations): Compiled | undefined {
  switch (e.kind) {
    case 'literal':
      return e.value.type === 'decimal' ? undefined : { ops: [], type: e.value.type, constant: e.value };
    case 'name':
    case 'this': {
      const seen = observed.get(e);
      const leaf = seen?.kind === 'variable' ? leafOf(seen.value) : undefined;
      return seen?.kind === 'variable' && leaf ? { ops: [{ op: 'var', ...seen.place, et: leaf.et }], type: leaf.type } : undefined;
    }
    case 'memberAccess': {
      const seen = observed.get(e);
      const target = compile(e.target, observed);
      if (!seen || !target) return undefined;
      if (seen.kind === 'length') return target.type === 'string' || target.type === 'object' ? { ops: [...target.ops, { op: 'length' }], type: 'int' } : undefined;
      const leaf = seen.kind === 'field' ? leafOf(seen.value) : undefined;
      if (seen.kind !== 'field' || !leaf || target.type !== 'object' || seen.guard.module === undefined || seen.guard.token === undefined) return undefined;
      const field: FilterOp = { op: 'field', ...seen.field, guardModule: seen.guard.module, guardType: seen.guard.token, et: leaf.et };
      return { ops: [...target.ops, field], type: leaf.type };
    }
    case 'unary': {
      const operand = compile(e.operand, observed);
      if (!operand) return undefined;
      if (operand.constant) return constant(evaluateUnary(e.operator, operand.constant));
      if (e.operator === '!') return operand.type === 'bool' ? { ops: [...operand.ops, { op: 'not' }], type: 'bool' } : undefined;
      if (operand.type === 'object') return undefined;
      const type = evaluateUnary(e.operator, standIn(operand)).type;
      const ops = converted(operand, type);
      if (!ops) return undefined;
      if (e.operator === '-') ops.push({ op: 'negate', type: FILTER_TYPES[type]! });
      if (e.operator === '~') ops.push({ op: 'complement', type: FILTER_TYPES[type]! });
      return { ops, type };
    }
    case 'binary':
      return binary(e.operator, compile(e.left, observed), compile(e.right, observed));
    default:
      return undefined;
  }
}

function binary(op: BinaryOperator, left: Compiled | undefined, right: Compiled | undefined): Compiled | undefined {
  if (!left || !right || left.type === 'object' || right.type === 'object') return undefined;
  if (left.constant && right.constant) return constant(evaluateBinary(op as never, left.constant, right.constant));
  const [l, r] = [emit(left), emit(right)];
  if (op === '&&' || op === '||') {
    return left.type === 'bool' && right.type === 'bool' ? { ops: [...l, ...r, { op: op === '&&' ? 'and' : 'or' }], type: 'bool' } : undefined;
  }
  const textual = (t: CsType) => t === 'string' || t === 'null';
  if (textual(left.type) || textual(right.type) || left.type === 'bool' || right.type === 'bool') {
    // Strings and null by value (==, !=), bools by == != and ^; lifted operators are the evaluator's.
    const same = (textual(left.type) && textual(right.type)) || (left.type === 'bool' && right.type === 'bool');
    if (!same) return undefined;
    if (op === '==' || op === '!=') return { ops: [...l, ...r, { op: 'compare', operator: op }], type: 'bool' };
    if (op === '^' && left.type === 'bool') return { ops: [...l, ...r, { op: 'compare', operator: '!=' }], type: 'bool' };
    return undefined;
  }
  if (!ARITHMETIC.has(op) && !COMPARISONS.has(op)) return undefined;
  // The type C# computes in: comparisons promote their operands as `-` does.
  const type = evaluateBinary((COMPARISONS.has(op) ? '-' : op) as never, standIn(left), standIn(right)).type;
  const a = converted(left, type);
  const b = converted(right, type);
  if (!a || !b) return undefined;
  if (COMPARISONS.has(op)) return { ops: [...a, ...b, { op: 'compare', operator: op as Extract<FilterOp, { op: 'compare' }>['operator'] }], type: 'bool' };
  return { ops: [...a, ...b, { op: 'binary', type: FILTER_TYPES[type]!, operator: op as Extract<FilterOp, { op: 'binary' }>['operator'] }], type };
}

/** A value of the operand's type standing in for it when asking C#'s rules for a result type. */
function standIn(c: Compiled): CsValue {
  if (c.constant) return c.constant;
  switch (c.type) {
    case 'float':
    case 'double':
      return { type: c.type, value: 1 };
    case 'bool':
      return { type: 'bool', value: true };
    case 'string':
      return { type: 'string', value: '' };
    case 'decimal':
    case 'null':
    case 'object':
      throw new Error('no stand-in');
    default:
      return { type: c.type, value: 1n };
  }
}

function constant(value: CsValue): Compiled | undefined {
  return FILTER_TYPES[value.type] ? { ops: [], type: value.type, constant: value } : undefined;
}

/** The operand's ops, then its conversion to `type` (implicit: C# already allowed it). */
function converted(c: Compiled, type: CsType): FilterOp[] | undefined {
  const target = FILTER_TYPES[type];
  if (!target || target === 'bool' || target === 'string' || target === 'null') return undefined;
  return [...emit(c), { op: 'convert', type: target }];
}

function emit(c: Compiled): FilterOp[] {
  if (!c.constant) return c.ops;
  const v = c.constant;
  const type = FILTER_TYPES[v.type]!;
  switch (v.type) {
    case 'bool':
      return [{ op: 'const', type, v: v.value }];
    case 'null':
      return [{ op: 'const', type }];
    case 'string':
      return [{ op: 'const', type, v: v.value }];
    case 'float':
    case 'double':
      return [{ op: 'const', type, v: Object.is(v.value, -0) ? '-0' : String(v.value) }];
    default:
      return [{ op: 'const', type, v: String(v.value) }];
  }
}
