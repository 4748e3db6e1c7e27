/**
 * Casts and `as` as C# checks them (ECMA-334 §10.3 explicit conversions, §12.12.12 the as operator):
 * a conversion the compiler refuses is refused with its error (CS0030, CS0039, CS0077, CS0037), one
 * checked at run time (a downcast, an unboxing) throws InvalidCastException as .NET words it (`as`
 * answers null), numeric conversions compute, and a user-defined operator runs in the program.
 */
import { type ClrType, displayType, KEYWORD_TYPES, NULLABLE, OBJECT, sameType } from '../../expressions/clrType.js';
import { compileError, convertExplicit, CSharpOperationError, type CsType, type CsValue, formatValue, isIntegralType, isNumericType } from '../../expressions/numeric.js';
import { resolveOverload } from '../../expressions/overloadResolution.js';
import { fieldsOf } from '../../symbols/typeMembers.js';
import { Table, token } from '../../symbols/tableSchema.js';
import { ElementType, isPrimitive } from '../values/nativeValue.js';
import type { Calls } from './calls.js';
import type { ClrTypes } from './clrTypes.js';
import { type EvalValue, isNullValue, knownDeclared, nullEval, type Place } from './evalValue.js';
import type { Operands } from './operands.js';

/** How a conversion from one static type to another is made: as it is, checked at run time, or not at all. */
type Conversion = 'implicit' | 'checked' | undefined;

const SEALED = 0x100;

export class Casts {
  constructor(
    private readonly types: ClrTypes,
    private readonly calls: Calls,
  ) {}

  /** `(to)value` when `throwing`, else `value as to`. */
  async cast(value: EvalValue, to: ClrType, throwing: boolean, place: Place, operands: Operands): Promise<EvalValue> {
    if (!throwing && this.types.isValueType(to) && !isNullable(to)) {
      throw compileError('CS0077', `The as operator must be used with a reference type or nullable type ('${displayType(to)}' is a non-nullable value type)`);
    }
    const declared = knownDeclared(value);
    if (isNullValue(value) && !(declared && isNullable(declared))) {
      if (throwing && this.types.isValueType(to) && !isNullable(to)) throw compileError('CS0037', `Cannot convert null to '${displayType(to)}' because it is a non-nullable value type`);
      return isNullable(to) ? retyped(nullEval(), to) : nullEval();
    }
    const from = this.staticType(value);
    if (isNullable(from) || (isNullable(to) && this.types.isValueType(from))) return this.nullableCast(value, from, to, throwing, place, operands);
    const keyword = numericKeyword(to);
    if (throwing && keyword && (numericKeyword(from) || this.types.isEnum(from))) {
      const cs = await operands.csValue(value);
      const converted = convertExplicit(cs, keyword);
      if (cs.constant && !sameNumber(cs, converted)) {
        throw compileError('CS0221', `Constant value '${formatValue(cs)}' cannot be converted to a '${keyword}' (use 'unchecked' syntax to override)`);
      }
      return { kind: 'value', value: converted };
    }
    if (throwing && this.types.isEnum(to) && (numericKeyword(from) || this.types.isEnum(from))) return this.toEnum(await operands.csValue(value), to);
    const conversion = this.conversion(from, to);
    if (conversion === 'implicit') return retyped(value, to);
    if (conversion === 'checked') return this.checked(value, to, throwing);
    const operator = throwing ? await this.calls.convertByOperator(value, from, to, place) : undefined;
    if (operator) return operator;
    if (throwing) throw compileError('CS0030', `Cannot convert type '${displayType(from)}' to '${displayType(to)}'`);
    throw compileError(
      'CS0039',
      `Cannot convert type '${displayType(from)}' to '${displayType(to)}' via a reference conversion, boxing conversion, unboxing conversion, wrapping conversion, or null type conversion`,
    );
  }

  /**
   * A cast from or to a nullable value type (§10.6.1): the value's own conversion, lifted — null
   * stays null where the target can hold it, and `.Value` of a null throws as the program would.
   */
  private async nullableCast(held: EvalValue, from: ClrType, to: ClrType, throwing: boolean, place: Place, operands: Operands): Promise<EvalValue> {
    const toInner = underlying(to);
    const value = await operands.unwrapNullable(held, underlying(from));
    if (!isNullValue(value)) {
      const inner = await this.cast(retyped(value, underlying(from)), toInner, throwing, place, operands).catch((e: unknown) => {
        // The compiler names the types as written: 'int?', not the 'int' it lifted the conversion from.
        if (e instanceof CSharpOperationError && (e.code === 'CS0030' || e.code === 'CS0039')) throw compileError(e.code, e.message.replace(/'[^']*' to '[^']*'/, `'${displayType(from)}' to '${displayType(to)}'`));
        throw e;
      });
      return isNullable(to) && !isNullValue(inner) ? retyped(inner, to) : inner;
    }
    const numberOrEnum = (t: ClrType) => numericKeyword(t) !== undefined || this.types.isEnum(t);
    const converts = (numberOrEnum(underlying(from)) && numberOrEnum(toInner)) || this.conversion(underlying(from), toInner) !== undefined;
    if (!converts) throw compileError(throwing ? 'CS0030' : 'CS0039', `Cannot convert type '${displayType(from)}' to '${displayType(to)}'`);
    if (throwing && !isNullable(to) && this.types.isValueType(to)) {
      throw new CSharpOperationError('runtime', 'System.InvalidOperationException', 'Nullable object must have a value.');
    }
    return isNullable(to) ? retyped(nullEval(), to) : nullEval();
  }

  /** An explicit enumeration conversion: the number as the enum's underlying type. */
  private toEnum(value: CsValue, to: ClrType): EvalValue {
    const def = to.kind === 'named' ? this.types.definition(to.name) : undefined;
    const underlying = def && fieldsOf(def.meta, def.rid).find((f) => f.name === 'value__');
    const keyword = underlying && numericKeyword(this.types.fromSig(underlying.type, def.meta));
    if (!def || !keyword) throw compileError('CS0030', `Cannot convert type '${value.type}' to '${displayType(to)}'`);
    const enumType = { et: ElementType.valuetype, module: def.module, token: token(Table.TypeDef, def.rid) };
    return { kind: 'value', value: convertExplicit(value, keyword), enumType, declared: to };
  }

  /** The type C# sees: the declared one; `object` for an object whose declared type is not known (any cast compiles). */
  private staticType(value: EvalValue): ClrType {
    const declared = knownDeclared(value);
    if (declared) return declared;
    if (value.kind === 'value' && !value.origin) return this.calls.argument(value).type;
    if (value.kind === 'value' && value.origin && !value.origin.boxed && isPrimitive(value.origin.et)) return this.calls.argument(value).type;
    return { kind: 'named', name: OBJECT, args: [] };
  }

  /** The standard explicit conversion from `from` to `to`, if there is one (user-defined operators aside). */
  private conversion(from: ClrType, to: ClrType): Conversion {
    if (sameType(from, to)) return 'implicit';
    if (from.kind === 'param' || to.kind === 'param' || isNullable(from) || isNullable(to)) return 'checked';
    if (this.converts(from, to)) return 'implicit';
    if (from.kind === 'named' && from.name === OBJECT) return 'checked';
    if (this.types.isValueType(from)) return undefined;
    // Unboxing: from a type the value type converts to (ValueType, Enum, an interface it implements).
    if (this.types.isValueType(to)) return this.converts(to, from) ? 'checked' : undefined;
    if (this.converts(to, from)) return 'checked';
    if (from.kind === 'array' && to.kind === 'array') {
      return from.rank === to.rank && !this.types.isValueType(from.elem) && this.conversion(from.elem, to.elem) ? 'checked' : undefined;
    }
    const fromInterface = this.types.isInterface(from);
    const toInterface = this.types.isInterface(to);
    if (fromInterface && toInterface) return 'checked';
    if (toInterface) return this.isSealed(from) ? undefined : 'checked';
    if (fromInterface) return this.isSealed(to) ? undefined : 'checked';
    return undefined;
  }

  /** A conversion the runtime checks: the object's own type decides (an unboxing needs exactly the type). */
  private checked(value: EvalValue, to: ClrType, throwing: boolean): EvalValue {
    const object = value.kind === 'object' ? value.value : value.kind === 'value' ? value.origin : undefined;
    // A number the evaluator computed is boxed as its own type: `(long)(object)3` fails as in C#.
    const own = object ? this.types.fromValue(object) : this.calls.argument({ ...value, declared: undefined } as EvalValue).type;
    const inner = isNullable(to) ? (to as { args: ClrType[] }).args[0]! : to;
    const fits = this.types.isValueType(inner) ? sameType(own, inner) : object ? this.calls.isInstance(object, to) : this.converts(own, to);
    if (fits) return retyped(value, to);
    if (!throwing) return nullEval();
    throw new CSharpOperationError('runtime', 'System.InvalidCastException', `Unable to cast object of type '${clrName(own)}' to type '${clrName(to)}'.`);
  }

  private converts(from: ClrType, to: ClrType): boolean {
    return 'chosen' in resolveOverload([{ method: 0, params: [to], genericArity: 0, paramArray: false }], [{ type: from }], this.types);
  }

  private isSealed(t: ClrType): boolean {
    if (t.kind === 'array') return true;
    const def = t.kind === 'named' ? this.types.definition(t.name) : undefined;
    return !!def && (def.meta.type(def.rid).flags & SEALED) !== 0;
  }
}

/** The value as the type cast to: its members and overloads are that type's. */
function retyped(value: EvalValue, to: ClrType): EvalValue {
  if (value.kind !== 'object' && value.kind !== 'value') return value;
  const { bound: _bound, ...rest } = value;
  return { ...rest, declared: to };
}

/** A constant's conversion to an integral type keeps its value (else C# refuses it at compile time). */
function sameNumber(from: CsValue, to: CsValue): boolean {
  if (!isIntegralType(to.type as CsType) || from.type === 'decimal') return true;
  if (typeof from.value === 'bigint') return from.value === to.value;
  return typeof from.value === 'number' && Number.isFinite(from.value) && BigInt(Math.trunc(from.value)) === to.value;
}

const isNullable = (t: ClrType) => t.kind === 'named' && t.name === NULLABLE;
/** T of T?, else the type itself. */
const underlying = (t: ClrType): ClrType => (isNullable(t) ? (t as { args: ClrType[] }).args[0]! : t);

function numericKeyword(t: ClrType): CsType | undefined {
  if (t.kind !== 'named') return undefined;
  const keyword = Object.entries(KEYWORD_TYPES).find(([, name]) => name === t.name)?.[0];
  return keyword && isNumericType(keyword as CsType) ? (keyword as CsType) : undefined;
}

/** A type as .NET's messages name it: `System.String`, `Pricing.Item`, ``System.Collections.Generic.List`1[System.Int32]``. */
function clrName(t: ClrType): string {
  if (t.kind === 'array') return `${clrName(t.elem)}[${','.repeat(t.rank - 1)}]`;
  if (t.kind !== 'named') return displayType(t);
  return t.args.length ? `${t.name}[${t.args.map(clrName).join(',')}]` : t.name;
}

