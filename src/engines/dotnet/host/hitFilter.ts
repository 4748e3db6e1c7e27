/**
 * A breakpoint condition compiled for the debugger thread (native/src/debugger/hit_filter.h): a few
 * stack operations over the frame's primitive and string locals and arguments, so a hit whose
 * condition is false is continued without waking JavaScript (about 0.2 ms of a hit's 0.6 ms). The
 * C# rules stay here: names resolve as the evaluator resolves them, operators type as C# types them
 * (numeric promotion, constants folded), and whatever the program does not fit in — members, calls,
 * casts, decimals, enums, lifted nulls, shifts — is left to the evaluator (undefined).
 */
import type { BinaryOperator, Expr } from '../expressions/ast.js';
import { evaluateBinary, evaluateUnary, type CsType, type CsValue } from '../expressions/numeric.js';
import { ElementType, NUMERIC_KEYWORDS } from './values/nativeValue.js';

/** A C# type as the native side names it. */
export type FilterType = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64' | 'bool' | 'string' | 'null';

type ArithmeticOperator = '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^';
type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type FilterOp =
  | { op: 'var'; kind: 'local' | 'argument'; index: number; et: number }
  | { op: 'const'; type: FilterType; v?: string | boolean }
  | { op: 'convert' | 'negate' | 'complement'; type: FilterType }
  | { op: 'binary'; type: FilterType; operator: ArithmeticOperator }
  | { op: 'compare'; operator: ComparisonOperator }
  | { op: 'not' | 'and' | 'or' };

/** A plain local or argument of the frame, with the CorElementType of its value. */
export interface FilterVariable {
  kind: 'local' | 'argument';
  index: number;
  et: number;
}

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

/** The names an expression reads, or undefined when it uses anything a filter cannot compute. */
export function filterNames(expr: Expr): Set<string> | undefined {
  const names = new Set<string>();
  const visit = (e: Expr): boolean => {
    switch (e.kind) {
      case 'literal':
        return true;
      case 'name':
        names.add(e.name);
        return e.typeArguments.length === 0;
      case 'unary':
        return visit(e.operand);
      case 'binary':
        return e.operator !== '??' && visit(e.left) && visit(e.right);
      default:
        return false;
    }
  };
  return visit(expr) ? names : undefined;
}

/** The C# type of a variable's value, when a filter can read it. */
export function variableType(et: number): CsType | undefined {
  if (et === ElementType.string) return 'string';
  return (NUMERIC_KEYWORDS as Record<number, CsType>)[et];
}

interface Compiled {
  ops: FilterOp[];
  type: CsType;
  /** A compile-time constant: folded, emitted as one op. */
  constant?: CsValue;
}

/** Compiles a condition whose names are all in `variables`; undefined when it does not fit. */
export function compileHitFilter(expr: Expr, variables: ReadonlyMap<string, FilterVariable>): FilterOp[] | undefined {
  try {
    const compiled = compile(expr, variables);
    return compiled?.type === 'bool' ? emit(compiled) : undefined;
  } catch {
    return undefined; // C# itself rejects it: the evaluator says why, at the hit
  }
}

function compile(e: Expr, variables: ReadonlyMap<string, FilterVariable>): Compiled | undefined {
  switch (e.kind) {
    case 'literal':
      return e.value.type === 'decimal' ? undefined : { ops: [], type: e.value.type, constant: e.value };
    case 'name': {
      const variable = variables.get(e.name);
      const type = variable && variableType(variable.et);
      return variable && type ? { ops: [{ op: 'var', ...variable }], type } : undefined;
    }
    case 'unary': {
      const operand = compile(e.operand, variables);
      if (!operand) return undefined;
      if (operand.constant) return constant(evaluateUnary(e.operator, operand.constant));
      if (e.operator === '!') return operand.type === 'bool' ? { ops: [...operand.ops, { op: 'not' }], type: 'bool' } : undefined;
      const type = evaluateUnary(e.operator, standIn(operand)).type;
      const ops = converted(operand, type);
      if (!ops) return undefined;
      if (e.operator === '-') ops.push({ op: 'negate', type: FILTER_TYPES[type]! });
      if (e.operator === '~') ops.push({ op: 'complement', type: FILTER_TYPES[type]! });
      return { ops, type };
    }
    case 'binary':
      return binary(e.operator, compile(e.left, variables), compile(e.right, variables));
    default:
      return undefined;
  }
}

function binary(op: BinaryOperator, left: Compiled | undefined, right: Compiled | undefined): Compiled | undefined {
  if (!left || !right) return undefined;
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
  if (COMPARISONS.has(op)) return { ops: [...a, ...b, { op: 'compare', operator: op as ComparisonOperator }], type: 'bool' };
  return { ops: [...a, ...b, { op: 'binary', type: FILTER_TYPES[type]!, operator: op as ArithmeticOperator }], type };
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
