/**
 * C#'s predefined operators on constant values, independent of the debugger. Operator overload
 * resolution follows ECMA-334 §12.4 over the predefined candidates (int, uint, long, ulong, float,
 * double, decimal; bool; string), which yields the numeric promotions of §12.4.7: byte + byte → int,
 * int + uint → long, ulong + int → ambiguous, decimal + double → no operator, and with a constant
 * operand `uintValue + 1` → uint. Arithmetic is unchecked (integers wrap) as a debugger evaluates;
 * integer division by zero, and int.MinValue / -1, throw as .NET does. Constant operands are
 * checked as the compiler checks them: `int.MaxValue + 1` is CS0220, `1 / 0` is CS0020. A null operand lifts the
 * operator (`null + 1` is null, `null == 1` is false, `null & false` is false).
 */
import type { BinaryOperator, UnaryOperator } from './ast.js';
import { convertExplicit, hasImplicitNumericConversion, isImplicitlyConvertible } from './csConversions.js';
import {
  decimalAdd,
  decimalCompare,
  decimalDivide,
  decimalMultiply,
  decimalNegate,
  decimalRemainder,
  decimalSubtract,
  type CsDecimal,
} from './csDecimal.js';
import { formatValue } from './csFormat.js';
import {
  arithmeticOverflow,
  compileError,
  type CsType,
  type CsValue,
  divideByZero,
  integralBits,
  integralRange,
  type IntegralType,
  isIntegralType,
  isNumericType,
  isSignedIntegral,
  type NumericType,
  typeDisplayName,
  wrapIntegral,
} from './csValue.js';

export * from './csValue.js';
export { bigintToSingle, convertExplicit, convertImplicit, hasImplicitNumericConversion, isImplicitlyConvertible } from './csConversions.js';
export { type CsDecimal, decimalToString, parseDecimalDigits } from './csDecimal.js';
export { formatDouble, formatSingle, formatValue } from './csFormat.js';

/** The operators evaluated on values; `??` and `?:` belong to the evaluator (they short-circuit). */
export type ValueBinaryOperator = Exclude<BinaryOperator, '??'>;

const ARITHMETIC: readonly NumericType[] = ['int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal'];
const INTEGER: readonly NumericType[] = ['int', 'uint', 'long', 'ulong'];
const SHIFTS = new Set<string>(['<<', '>>', '>>>']);
const COMPARISONS = new Set<string>(['<', '>', '<=', '>=', '==', '!=']);
const BITWISE = new Set<string>(['&', '|', '^']);

const binaryCandidates = (op: ValueBinaryOperator) =>
  SHIFTS.has(op) || BITWISE.has(op) ? INTEGER : op === '&&' || op === '||' ? [] : ARITHMETIC;

const UNARY_CANDIDATES: Record<'+' | '-' | '~', readonly NumericType[]> = {
  '+': ARITHMETIC,
  '-': ['int', 'long', 'float', 'double', 'decimal'],
  '~': INTEGER,
};

/** Signed types that beat unsigned ones as conversion targets (ECMA-334 §12.6.4.7). */
const SIGNED_BETTER: Partial<Record<NumericType, readonly NumericType[]>> = {
  sbyte: ['byte', 'ushort', 'uint', 'ulong'],
  short: ['ushort', 'uint', 'ulong'],
  int: ['uint', 'ulong'],
  long: ['ulong'],
};

/** 1 when t1 is the better conversion target, -1 when t2 is, 0 when neither. */
function betterTarget(t1: NumericType, t2: NumericType): number {
  const oneToTwo = hasImplicitNumericConversion(t1, t2);
  const twoToOne = hasImplicitNumericConversion(t2, t1);
  if (oneToTwo !== twoToOne) return oneToTwo ? 1 : -1;
  if (SIGNED_BETTER[t1]?.includes(t2)) return 1;
  if (SIGNED_BETTER[t2]?.includes(t1)) return -1;
  return 0;
}

/** Better conversion from an operand of type `source` (§12.6.4.5): an exact match wins first. */
function betterConversion(source: CsType, t1: NumericType, t2: NumericType): number {
  if (t1 === t2) return 0;
  if (source === t1) return 1;
  if (source === t2) return -1;
  return betterTarget(t1, t2);
}

/** The candidate better than every other one, if exactly one is. */
function bestCandidate(applicable: readonly NumericType[], compare: (a: NumericType, b: NumericType) => number) {
  const best = applicable.filter((c) => applicable.every((o) => o === c || compare(c, o) > 0));
  return best.length === 1 ? best[0] : undefined;
}

const cannotApply = (op: string, l: CsType, r: CsType) =>
  compileError('CS0019', `Operator '${op}' cannot be applied to operands of type '${typeDisplayName(l)}' and '${typeDisplayName(r)}'`);

const ambiguous = (op: string, l: CsType, r: CsType) =>
  compileError('CS0034', `Operator '${op}' is ambiguous on operands of type '${typeDisplayName(l)}' and '${typeDisplayName(r)}'`);

const cannotApplyUnary = (op: string, t: CsType) =>
  compileError('CS0023', `Operator '${op}' cannot be applied to operand of type '${typeDisplayName(t)}'`);

/** The predefined operator's operand type for two numeric operands, or C#'s compile error. */
function resolveBinary(op: ValueBinaryOperator, l: CsValue, r: CsValue): NumericType {
  const shift = SHIFTS.has(op);
  // Fast path: operands of one candidate type match it exactly, and an exact match always wins.
  if (l.type === r.type && !shift && binaryCandidates(op).includes(l.type as NumericType)) return l.type as NumericType;
  const applicable = binaryCandidates(op).filter((t) => isImplicitlyConvertible(l, t) && isImplicitlyConvertible(r, shift ? 'int' : t));
  if (applicable.length === 0) throw cannotApply(op, l.type, r.type);
  const best = bestCandidate(applicable, (c, o) => {
    const left = betterConversion(l.type, c, o);
    const right = shift ? 0 : betterConversion(r.type, c, o);
    return left >= 0 && right >= 0 && left + right > 0 ? 1 : 0;
  });
  if (!best) throw ambiguous(op, l.type, r.type);
  return best;
}

function resolveUnary(op: '+' | '-' | '~', v: CsValue): NumericType {
  if (op === '-' && v.type === 'ulong') throw cannotApplyUnary(op, v.type);
  const applicable = UNARY_CANDIDATES[op].filter((t) => isImplicitlyConvertible(v, t));
  if (applicable.length === 0) throw cannotApplyUnary(op, v.type);
  const best = bestCandidate(applicable, (c, o) => betterConversion(v.type, c, o));
  if (!best) throw compileError('CS0035', `Operator '${op}' is ambiguous on an operand of type '${typeDisplayName(v.type)}'`);
  return best;
}

/** Binary numeric promotion (§12.4.7.3) of two non-constant operands: the type `a + b` computes in. */
export function binaryNumericPromotion(a: NumericType, b: NumericType): NumericType {
  return resolveBinary('+', { type: a, value: 0n } as CsValue, { type: b, value: 0n } as CsValue);
}

/** Unary numeric promotion (§12.4.7.2): the type `+a` computes in. */
export function unaryNumericPromotion(a: NumericType): NumericType {
  return resolveUnary('+', { type: a, value: 0n } as CsValue);
}

/** The value, marked constant or not (the mark is left out rather than false). */
function withConstant(v: CsValue, constant: boolean): CsValue {
  const { constant: _, ...rest } = v;
  return constant ? ({ ...rest, constant } as CsValue) : (rest as CsValue);
}

const bool = (value: boolean, constant: boolean): CsValue => withConstant({ type: 'bool', value }, constant);
const orderResult = (op: string, order: number) =>
  op === '<' ? order < 0 : op === '>' ? order > 0 : op === '<=' ? order <= 0 : op === '>=' ? order >= 0 : op === '==' ? order === 0 : order !== 0;

/** `left op right` on values, as C# evaluates it in an unchecked context. */
export function evaluateBinary(op: ValueBinaryOperator, left: CsValue, right: CsValue): CsValue {
  const constant = Boolean(left.constant && right.constant);
  const [l, r] = [left.type, right.type];
  if (op === '&&' || op === '||') {
    if (left.type !== 'bool' || right.type !== 'bool') throw cannotApply(op, l, r);
    return bool(op === '&&' ? left.value && right.value : left.value || right.value, constant);
  }
  if (op === '+' && (l === 'string' || r === 'string')) {
    return withConstant({ type: 'string', value: formatValue(left) + formatValue(right) }, constant);
  }
  if (l === 'null' && r === 'null') {
    if (op === '==' || op === '!=') return bool(op === '==', constant);
    throw ambiguous(op, l, r);
  }
  if ((op === '==' || op === '!=') && (l === 'string' || l === 'null') && (r === 'string' || r === 'null')) {
    return bool((left.value === right.value) === (op === '=='), constant);
  }
  if (left.type === 'bool' && right.type === 'bool') return boolOperator(op, left.value, right.value, constant);
  if (l === 'null' || r === 'null') return liftedNull(op, l === 'null' ? right : left, l, r);
  if (!isNumericType(l) || !isNumericType(r)) throw cannotApply(op, l, r);
  const type = resolveBinary(op, left, right);
  const a = convertExplicit(left, type);
  const b = convertExplicit(right, SHIFTS.has(op) ? 'int' : type);
  return withConstant(numericOperator(op, a, b, constant), constant);
}

function boolOperator(op: ValueBinaryOperator, a: boolean, b: boolean, constant: boolean): CsValue {
  switch (op) {
    case '&':
      return bool(a && b, constant);
    case '|':
      return bool(a || b, constant);
    case '^':
    case '!=':
      return bool(a !== b, constant);
    case '==':
      return bool(a === b, constant);
    default:
      throw cannotApply(op, 'bool', 'bool');
  }
}

/**
 * The type of `left op right` lifted over a nullable operand (ECMA-334 §12.4.8): the operator's
 * type on the underlying types, made nullable by the caller (`ni + 1` is int?, null or not). A
 * comparison is bool; a bool? or enum operand: undefined (shown as computed).
 */
export function liftedResultType(op: ValueBinaryOperator, left: CsValue, right: CsValue, leftUnderlying: CsType, rightUnderlying: CsType): NumericType | undefined {
  if (COMPARISONS.has(op) || !isNumericType(leftUnderlying) || !isNumericType(rightUnderlying)) return undefined;
  // A value held (or a null) stands as a non-constant of its underlying type: only the types choose the operator.
  const standIn = (v: CsValue, type: NumericType) => ({ type, value: v.type === type ? v.value : 0n }) as CsValue;
  return resolveBinary(op, standIn(left, leftUnderlying), standIn(right, rightUnderlying));
}

/** A lifted operator with a null operand (ECMA-334 §12.4.8). */
function liftedNull(op: ValueBinaryOperator, other: CsValue, l: CsType, r: CsType): CsValue {
  const nothing: CsValue = { type: 'null', value: null };
  if (other.type === 'bool') {
    // bool? & and | are three-valued: false & null is false, true | null is true.
    if (op === '&' && other.value === false) return bool(false, false);
    if (op === '|' && other.value === true) return bool(true, false);
    if (BITWISE.has(op)) return nothing;
    if (op === '==' || op === '!=') return bool(op === '!=', false);
    throw cannotApply(op, l, r);
  }
  if (!isNumericType(other.type)) throw cannotApply(op, l, r);
  // The operator must exist for the other operand's type; a null count needs a left operand, a null
  // left operand a count that converts to int.
  if (!SHIFTS.has(op)) resolveBinary(op, other, other);
  else if (l !== 'null') resolveBinary(op, other, { type: 'int', value: 0n });
  else if (!isImplicitlyConvertible(other, 'int')) throw cannotApply(op, l, r);
  return COMPARISONS.has(op) ? bool(op === '!=', false) : nothing;
}

function numericOperator(op: ValueBinaryOperator, a: CsValue, b: CsValue, constant: boolean): CsValue {
  if (a.type === 'decimal' && b.type === 'decimal') return decimalOperator(op, a.value, b.value);
  if ((a.type === 'float' || a.type === 'double') && (b.type === 'float' || b.type === 'double')) {
    return floatingOperator(op, a.type, a.value, b.value);
  }
  if (isIntegralType(a.type) && isIntegralType(b.type)) return integerOperator(op, a.type, a.value as bigint, b.value as bigint, constant);
  throw new Error(`no operator ${op} for ${a.type} and ${b.type}`);
}

/** Integer arithmetic wraps, except on constants, which the compiler checks (shifts never overflow). */
function integerOperator(op: ValueBinaryOperator, type: IntegralType, a: bigint, b: bigint, constant: boolean): CsValue {
  const wrap = (n: bigint): CsValue => {
    const value = wrapIntegral(type, n);
    if (constant && value !== n && !SHIFTS.has(op) && !BITWISE.has(op)) throw constantOverflow();
    return { type, value };
  };
  const count = b & (integralBits(type) === 32 ? 31n : 63n);
  if (COMPARISONS.has(op)) return bool(orderResult(op, a < b ? -1 : a > b ? 1 : 0), false);
  if ((op === '/' || op === '%') && b === 0n) throw constant ? compileError('CS0020', 'Division by constant zero') : divideByZero();
  if ((op === '/' || op === '%') && b === -1n && isSignedIntegral(type) && a === integralRange(type).min) throw constant ? constantOverflow() : arithmeticOverflow();
  switch (op) {
    case '+':
      return wrap(a + b);
    case '-':
      return wrap(a - b);
    case '*':
      return wrap(a * b);
    case '/':
      return wrap(a / b);
    case '%':
      return wrap(a % b);
    case '<<':
      return wrap(a << count);
    case '>>':
      return wrap(a >> count);
    case '>>>':
      return wrap(BigInt.asUintN(integralBits(type), a) >> count);
    case '&':
      return wrap(a & b);
    case '|':
      return wrap(a | b);
    case '^':
      return wrap(a ^ b);
    default:
      throw cannotApply(op, type, type);
  }
}

function floatingOperator(op: ValueBinaryOperator, type: 'float' | 'double', a: number, b: number): CsValue {
  const round = (x: number): CsValue => ({ type, value: type === 'float' ? Math.fround(x) : x });
  if (COMPARISONS.has(op)) {
    if (op === '==' || op === '!=') return bool((a === b) === (op === '=='), false);
    return bool(Number.isNaN(a) || Number.isNaN(b) ? false : orderResult(op, a < b ? -1 : a > b ? 1 : 0), false);
  }
  switch (op) {
    case '+':
      return round(a + b);
    case '-':
      return round(a - b);
    case '*':
      return round(a * b);
    case '/':
      return round(a / b);
    case '%':
      return round(a % b);
    default:
      throw cannotApply(op, type, type);
  }
}

function decimalOperator(op: ValueBinaryOperator, a: CsDecimal, b: CsDecimal): CsValue {
  if (COMPARISONS.has(op)) return bool(orderResult(op, decimalCompare(a, b)), false);
  const compute: Partial<Record<ValueBinaryOperator, (x: CsDecimal, y: CsDecimal) => CsDecimal>> = {
    '+': decimalAdd,
    '-': decimalSubtract,
    '*': decimalMultiply,
    '/': decimalDivide,
    '%': decimalRemainder,
  };
  const f = compute[op];
  if (!f) throw cannotApply(op, 'decimal', 'decimal');
  return { type: 'decimal', value: f(a, b) };
}

const constantOverflow = () => compileError('CS0220', 'The operation overflows at compile time in checked mode');

/** `op operand` on a value (unary + - ! ~), unchecked but for constants. */
export function evaluateUnary(op: UnaryOperator, operand: CsValue): CsValue {
  const constant = Boolean(operand.constant);
  if (op === '!') {
    if (operand.type === 'bool') return bool(!operand.value, constant);
    throw cannotApplyUnary(op, operand.type);
  }
  if (!isNumericType(operand.type)) throw cannotApplyUnary(op, operand.type);
  const v = convertExplicit(operand, resolveUnary(op, operand));
  let result: CsValue = v;
  if (op === '-') {
    if (v.type === 'decimal') result = { type: 'decimal', value: decimalNegate(v.value) };
    else if (v.type === 'float' || v.type === 'double') result = { type: v.type, value: -v.value };
    else if (isIntegralType(v.type)) {
      result = { type: v.type, value: wrapIntegral(v.type, -(v.value as bigint)) };
      if (constant && result.value !== -(v.value as bigint)) throw constantOverflow();
    }
  } else if (op === '~' && isIntegralType(v.type)) {
    result = { type: v.type, value: wrapIntegral(v.type, ~(v.value as bigint)) };
  }
  return withConstant(result, constant);
}
