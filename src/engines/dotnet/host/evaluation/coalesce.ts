/**
 * `a ?? b` typed as C# types it (§12.15), not by `a` alone: with A0 the type `a` holds (an `int?`'s
 * int), the result is A0 when `b` converts to it (`some ?? 0` is an int), A0? when `b` is a nullable
 * whose type converts to it, else `b`'s type when A0 converts to that (`some ?? 0L` is a long,
 * `some ?? 2.5` a double). Only numbers differ in what is shown: a reference keeps its runtime type.
 */
import type { Expr } from '../../expressions/ast.js';
import { type ClrType, KEYWORD_TYPES, named, NULLABLE, PRIMITIVE_KEYWORDS } from '../../expressions/clrType.js';
import { hasImplicitNumericConversion, isImplicitlyConvertible } from '../../expressions/csConversions.js';
import { convertExplicit, isNumericType, type CsType, type CsValue } from '../../expressions/numeric.js';
import type { EvalValue } from './evalValue.js';
import type { Operands } from './operands.js';
import { unsupported } from './unsupported.js';

/** `a ?? b`: b runs only when a holds null, as in C# (`readsOnly`: reading b changes nothing, so its type may be read). */
export async function coalesce(operands: Operands, left: EvalValue, nullableOf: ClrType | undefined, right: () => Promise<EvalValue>, readsOnly: boolean): Promise<EvalValue> {
  const held = (await operands.isNull(left)) ? undefined : await operands.unwrapNullable(left, nullableOf);
  const a = await numberOf(operands, left);
  if (held && !a) return held;
  if (held && !readsOnly) throw unsupported('coalescing', 'the type of ?? is its right operand\'s when that is a wider number');
  const value = await right();
  const b = await numberOf(operands, value);
  const typed = a && b && coalesceNumbers(a, b);
  if (!typed) return held ?? value;
  return { kind: 'value', value: typed.value, ...(typed.nullable && { declared: named(NULLABLE, [named(KEYWORD_TYPES[typed.type]!)]) }) };
}

/** A number operand (an `int?` too, holding none or one); undefined for anything else. */
async function numberOf(operands: Operands, v: EvalValue): Promise<CoalescedNumber | undefined> {
  if (operands.enumTypeOf(v) || (v.kind !== 'value' && v.kind !== 'object')) return undefined;
  // An object (or an interface) holding a number is none to C#: `boxed ?? 0L` is an object.
  if (v.declared?.kind === 'named' && v.declared.name !== NULLABLE && !PRIMITIVE_KEYWORDS[v.declared.name]) return undefined;
  const held = await operands.csValue(v).catch(() => undefined);
  const underlying = held && operands.nullableUnderlying(v, held);
  const type = underlying ?? held?.type;
  return held && type && isNumericType(type) ? { value: held, type, nullable: !!underlying } : undefined;
}

/** A number operand of `??`: what it holds (`null` when a nullable holds none), and whether its type is a nullable one. */
interface CoalescedNumber {
  value: CsValue;
  /** The number type, the underlying one of a nullable. */
  type: CsType;
  nullable: boolean;
}

/**
 * Whether evaluating `b` only reads (a literal, a variable, a cast or sign of one): C# does not run `b`
 * when `a` holds a value, so its type may be learned by reading it only when that changes nothing.
 */
export function readsOnly(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
    case 'name':
    case 'this':
    case 'pseudoVariable':
    case 'default':
    case 'sizeof':
      return true;
    case 'cast':
      return readsOnly(e.operand);
    case 'unary':
      return ['-', '+', '~', '!'].includes(e.operator) && readsOnly(e.operand);
    case 'binary':
      return e.operator === '??' && readsOnly(e.left) && readsOnly(e.right);
    default:
      return false;
  }
}

/**
 * The value of `a ?? b` in C#'s result type, from `a`'s value when it holds one, else `b`'s; undefined
 * when C# gives neither operand's type (no conversion: a compile error) or an operand is no number.
 */
function coalesceNumbers(a: CoalescedNumber, b: CoalescedNumber): CoalescedNumber | undefined {
  if (!isNumericType(a.type) || !isNumericType(b.type)) return undefined;
  const chosen = a.value.type === 'null' ? b.value : a.value;
  const typed = (type: CsType, nullable: boolean) => ({ value: chosen.type === 'null' ? chosen : convertExplicit(chosen, type), type, nullable });
  // b's own value decides a constant's conversion: a byte? ?? 1 is a byte.
  const bConverts = b.value.type === 'null' ? hasImplicitNumericConversion(b.type, a.type) : isImplicitlyConvertible(b.value, a.type);
  if (bConverts) return typed(a.type, b.nullable);
  if (hasImplicitNumericConversion(a.type, b.type)) return typed(b.type, b.nullable);
  return undefined;
}
