/**
 * The operands of C#'s operators as the evaluator computes with them: numbers, strings, decimals,
 * enums and nullables read from the program's objects; truth for conditions; text for concatenation
 * and interpolation (ToString() by func-eval); `==` by a type's own operator, else by reference.
 */
import { DebugError } from '../../../../core/errors.js';
import { type CsType, formatValue, stringValue, type CsValue } from '../../expressions/numeric.js';
import { tokenRid } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import { ElementType, type NativeValue } from '../values/nativeValue.js';
import type { NativeType } from '../nativeEvents.js';
import type { ValueReader } from '../values/valueReader.js';
import { type ClrType, NULLABLE, PRIMITIVE_KEYWORDS } from '../../expressions/clrType.js';
import { fromNative, isNullValue, nullEval, type EvalValue, type Place, type TypeRef } from './evalValue.js';
import type { Members } from './members.js';
import { unsupported } from './unsupported.js';

export class Operands {
  constructor(
    private readonly reader: ValueReader,
    private readonly members: Members,
    private readonly modules: ModuleRegistry,
    private readonly place: Place,
  ) {}

  /** `a == b` by an `operator ==` (`op_Equality`) the operands' types or their bases declare. */
  async userEquality(op: '==' | '!=', left: EvalValue, right: EvalValue): Promise<EvalValue | undefined> {
    const { reader, members, modules } = this;
    for (const side of [left, right]) {
      if (side.kind !== 'object' || side.value.null || !side.value.chain) continue;
      for (const type of side.value.chain) {
        if (!reader.catalog.findMethods([type], 'op_Equality', 2, true).length) continue;
        const meta = modules.metadata(type.path ?? type.module!);
        const ref: TypeRef = { module: type.module!, token: type.token!, path: type.path, name: meta?.csharpTypeName(tokenRid(type.token!)) ?? '?', args: type.args ?? [] };
        return members.call(ref, op === '==' ? 'op_Equality' : 'op_Inequality', [left, right], this.place);
      }
    }
    return undefined;
  }

  /** Null, or a Nullable<T> without a value. */
  async isNull(v: EvalValue): Promise<boolean> {
    if (isNullValue(v)) return true;
    if (v.kind !== 'object' || this.reader.catalog.view(v.value.chain?.[0])?.fullName !== 'System.Nullable`1') return false;
    const [hasValue] = await this.reader.fieldsByName(v.value, ['hasValue']);
    return hasValue?.v !== 'true';
  }

  /**
   * The underlying type of a nullable operand (an `int?` variable, a cast to one, a Nullable<T> the
   * program holds): what an operator is lifted over. Undefined for any other operand.
   */
  nullableUnderlying(v: EvalValue, held: CsValue): CsType | undefined {
    const declared = v.kind === 'object' || v.kind === 'value' ? v.declared : undefined;
    if (declared?.kind === 'named' && declared.name === NULLABLE) {
      const inner = declared.args[0];
      return inner?.kind === 'named' ? (PRIMITIVE_KEYWORDS[inner.name] as CsType | undefined) : undefined;
    }
    const heldNullable = v.kind === 'object' && this.reader.catalog.view(v.value.chain?.[0])?.fullName === 'System.Nullable`1';
    return heldNullable && held.type !== 'null' ? held.type : undefined;
  }

  /** The value a Nullable<T> holds (null when it holds none); any other value as it is. */
  async unwrapNullable(v: EvalValue, inner?: ClrType): Promise<EvalValue> {
    if (v.kind !== 'object' || this.reader.catalog.view(v.value.chain?.[0])?.fullName !== 'System.Nullable`1') return v;
    if (await this.isNull(v)) return nullEval();
    const [held] = await this.reader.fieldsByName(v.value, ['value']);
    return held ? fromNative(held, inner) : v;
  }

  /** Reference equality of objects; undefined when the operands are values to compare by value. */
  async referenceEquals(left: EvalValue, right: EvalValue): Promise<boolean | undefined> {
    const asObject = (v: EvalValue) => (v.kind === 'object' ? v.value : undefined);
    const a = asObject(left);
    const b = asObject(right);
    if (isNullValue(left) || isNullValue(right)) return isNullValue(left) && isNullValue(right);
    if (a && b && a.et !== ElementType.string && b.et !== ElementType.string && a.addr && b.addr && !isValueLike(a) && !isValueLike(b)) return a.addr === b.addr;
    return undefined;
  }

  /** A C# value to compute with: strings, decimals and enums are read from the program's objects. */
  async csValue(v: EvalValue): Promise<CsValue> {
    if (v.kind === 'value') return v.value;
    if (v.kind !== 'object') throw new DebugError('EVALUATION_FAILED', `a ${v.kind} is not a value`);
    const o = v.value;
    if (o.null) return { type: 'null', value: null };
    if (o.et === ElementType.string) return stringValue(o.str ?? '');
    const view = this.reader.catalog.view(o.chain?.[0]);
    const base = this.reader.catalog.view(o.chain?.[1])?.fullName;
    const reader = this.reader;
    if (base === 'System.Enum') {
      const [raw] = await reader.fieldsByName(o, ['value__']);
      const underlying = raw && fromNative(raw);
      return underlying?.kind === 'value' ? underlying.value : { type: 'long', value: BigInt(raw?.v ?? '0') };
    }
    if (view?.fullName === 'System.Decimal') {
      const [flags, hi, lo] = await reader.fieldsByName(o, ['_flags', '_hi32', '_lo64']);
      const f = Number(flags?.v ?? 0);
      const mantissa = (BigInt(hi?.v ?? 0) << 64n) | BigInt(lo?.v ?? 0);
      return { type: 'decimal', value: { mantissa: f & 0x80000000 ? -mantissa : mantissa, scale: (f >>> 16) & 0xff } };
    }
    if (view?.fullName === 'System.Nullable`1') {
      const [hasValue, inner] = await reader.fieldsByName(o, ['hasValue', 'value']);
      return hasValue?.v === 'true' && inner ? this.csValue(fromNative(inner)) : { type: 'null', value: null };
    }
    // A struct or class with its own operators (DateTime - DateTime, TimeSpan * 2, a > b): the compiled evaluation applies them.
    throw unsupported('user-defined operator', `${this.reader.catalog.name(o.chain?.[0])} is computed with its own operators`);
  }

  /** The enum type of an enum value: a constant or cast (`Perm.Read`, `(Perm)3`), or the program's boxed or local enum. */
  enumTypeOf(v: EvalValue): NativeType | undefined {
    if (v.kind === 'value') return v.enumType;
    if (v.kind !== 'object' || v.value.null) return undefined;
    const chain = v.value.chain;
    return this.reader.catalog.view(chain?.[1])?.fullName === 'System.Enum' ? chain?.[0] : undefined;
  }

  async truth(v: EvalValue): Promise<boolean> {
    const value = await this.csValue(v);
    if (value.type !== 'bool') throw new DebugError('EVALUATION_FAILED', `Cannot implicitly convert type '${value.type}' to 'bool'`);
    return value.value;
  }

  /** Text for string concatenation and interpolation: ToString() of objects (func-eval). */
  async toText(v: EvalValue): Promise<string> {
    if (isNullValue(v)) return '';
    if (v.kind === 'value') return formatValue(v.value);
    if (v.kind === 'object') {
      if (v.value.et === ElementType.string) return v.value.str ?? '';
      try {
        return formatValue(await this.csValue(v));
      } catch {
        const described = await this.reader.describe(v.value, { threadId: this.place.threadId, frameIndex: this.place.frameIndex });
        return described.value.replace(/^"(.*)"$/s, '$1');
      }
    }
    throw new DebugError('EVALUATION_FAILED', 'a type name is not a value');
  }
}

const isValueLike = (v: NativeValue) => v.et === ElementType.valuetype || !!v.boxed;

/**
 * The type C# gives `a op b` where an operand is an enum (C# spec 12.11.5, 12.13.4): `E | E`, `E & E`,
 * `E ^ E`, `E + U`, `U + E` and `E - U` are E; `E - E`, comparisons and the rest are not an enum.
 */
export function enumOperationType(op: string, left: NativeType | undefined, right: NativeType | undefined): NativeType | undefined {
  if (op === '|' || op === '&' || op === '^' || op === '+') return left ?? right;
  if (op === '-') return right ? undefined : left;
  return undefined;
}
