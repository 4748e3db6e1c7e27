/**
 * Set value as Visual Studio does it: the new value is a C# expression evaluated in the stopped frame
 * (a literal, another variable, `list[2]`, a call), converted as C# converts on assignment, and written
 * where the variable lives: primitives and references through the runtime's own setters, structs
 * (decimal, DateTime, TimeSpan, Guid, enums, Nullable<T>, records and user structs) by their bytes,
 * each reference inside a struct on the heap written again through the runtime so the GC sees it.
 * What C# would not assign is refused with both types named.
 */
import { DebugError } from '../../../../core/errors.js';
import { CSharpOperationError, convertImplicit, type CsDecimal, type CsType, type CsValue } from '../../expressions/numeric.js';
import type { EvalValue } from '../evaluation/evalValue.js';
import type { NativeType } from '../nativeEvents.js';
import type { CallArg, Native, SetTarget } from '../nativeSession.js';
import type { FrameHandle } from '../stackReader.js';
import type { DeclaredTypes, Shape } from './declaredTypes.js';
import type { FuncEval } from './funcEval.js';
import { ElementType, isPrimitive, NUMERIC_KEYWORDS, type NativeValue } from './nativeValue.js';
import type { TypeCatalog } from './typeCatalog.js';

/** Where the new value goes and what is there now. */
export interface AssignTarget {
  home: SetTarget;
  current: NativeValue;
  frame: FrameHandle;
  /** The object whose field it is (a generic type's arguments come from it). */
  owner?: NativeValue;
  /** The element type of the array it is an element of. */
  element?: NativeType;
}

const PRIMITIVE_BYTES: Partial<Record<CsType, number>> = { bool: 1, sbyte: 1, byte: 1, short: 2, ushort: 2, char: 2, int: 4, uint: 4, long: 8, ulong: 8, float: 4, double: 8 };
const HINT = 'Write a C# expression of the variable\'s type: a literal, another variable, a member or a call.';
/** How deep a struct's own structs are followed to write their references again. */
const STRUCT_DEPTH = 3;

export class Assignment {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly catalog: TypeCatalog,
    private readonly funcEval: FuncEval,
    private readonly declared: DeclaredTypes,
    private readonly evaluate: (expression: string, frame: FrameHandle) => Promise<EvalValue>,
  ) {}

  async assign(target: AssignTarget, text: string): Promise<void> {
    const { current } = target;
    const struct = !current.null && !current.boxed && current.et === ElementType.valuetype ? current.chain?.[0] : undefined;
    if (struct && this.catalog.isEnum(struct)) {
      const constant = this.enumConstant(struct, text);
      if (constant !== undefined) return this.write(target, { bytes: (await this.sized(target, struct, { kind: 'value', value: { type: 'long', value: constant } })).toString('hex') });
    }
    const value = await this.evaluate(text, target.frame);
    if (!current.null && !current.boxed && isPrimitive(current.et)) return this.write(target, this.primitive(current.et!, value));
    if (struct) {
      const bytes = await this.sized(target, struct, value);
      await this.write(target, { bytes: bytes.toString('hex') });
      if (value.kind === 'object' && target.home.kind !== 'local' && target.home.kind !== 'argument') await this.rewriteReferences(target.home, value.value, target.frame);
      return;
    }
    return this.write(target, await this.reference(target, value));
  }

  private async write(target: AssignTarget, source: CallArg | { bytes: string }): Promise<void> {
    await this.requireNative()
      .call('setValue', { target: target.home, source })
      .catch((e: unknown) => {
        throw new DebugError('INVALID_ARGUMENT', `the runtime refused the new value: ${(e as Error).message}`, HINT);
      });
  }

  /** A bool, char or number: C#'s implicit conversions (a constant that fits narrows). */
  private primitive(et: number, value: EvalValue): CallArg {
    const type = NUMERIC_KEYWORDS[et as keyof typeof NUMERIC_KEYWORDS] as CsType | undefined;
    if (!type) throw new DebugError('UNSUPPORTED', 'a native-sized integer (nint) cannot be assigned here');
    const converted = this.converted(value, type);
    return { et, v: String(converted.value) };
  }

  /** The value converted to a predefined type, or C#'s own error naming both types. */
  private converted(value: EvalValue, type: CsType): CsValue {
    if (value.kind !== 'value' || value.enumType) throw cannotConvert(this.typeText(value), type);
    try {
      return convertImplicit(value.value, type);
    } catch (e) {
      if (e instanceof CSharpOperationError) throw new DebugError('INVALID_ARGUMENT', e.message, HINT);
      throw e;
    }
  }

  /** A struct's new bytes, exactly the size of the variable's storage. */
  private async sized(target: AssignTarget, type: NativeType, value: EvalValue): Promise<Buffer> {
    const size = (await this.bytesOf({ target: target.home })).length;
    return this.structBytes(type, value, size);
  }

  private async structBytes(type: NativeType, value: EvalValue, size: number): Promise<Buffer> {
    const name = this.catalog.view(type)?.fullName;
    if (value.kind === 'object' && !value.value.null && this.sameType(type, value.value)) return this.bytesOf({ h: value.value.h });
    if (name === 'System.Nullable`1' && type.args?.[0]) {
      const out = Buffer.alloc(size);
      if (isNull(value)) return out;
      const inner = await this.innerBytes(type.args[0], value);
      out[0] = 1; // hasValue; the value sits at the end, aligned as its own type
      inner.copy(out, size - inner.length);
      return out;
    }
    if (name === 'System.Decimal') return decimalBytes(this.converted(value, 'decimal').value as CsDecimal);
    if (this.catalog.isEnum(type)) {
      const sameEnum = value.kind === 'value' && value.enumType && this.sameType(type, { h: 0, chain: [value.enumType] });
      if (value.kind === 'value' && typeof value.value.value === 'bigint' && (!value.enumType || sameEnum)) return integerBytes(value.value.value, size);
    }
    throw cannotConvert(this.typeText(value), this.catalog.name(type));
  }

  /** The bytes of a Nullable's value: a primitive converted to it, or a struct of its type. */
  private async innerBytes(type: NativeType, value: EvalValue): Promise<Buffer> {
    if (isPrimitive(type.et)) {
      const keyword = NUMERIC_KEYWORDS[type.et as keyof typeof NUMERIC_KEYWORDS] as CsType;
      return primitiveBytes(keyword, this.converted(value, keyword));
    }
    if (value.kind === 'object' && !value.value.null && this.sameType(type, value.value)) return this.bytesOf({ h: value.value.h });
    const name = this.catalog.view(type)?.fullName;
    if (name === 'System.Decimal') return decimalBytes(this.converted(value, 'decimal').value as CsDecimal);
    if (this.catalog.isEnum(type) && value.kind === 'value' && typeof value.value.value === 'bigint') {
      const underlying = this.catalog.view(type)?.fields.find((f) => f.name === 'value__')?.type;
      const keyword = underlying?.kind === 'primitive' ? (NUMERIC_KEYWORDS[underlying.et as keyof typeof NUMERIC_KEYWORDS] as CsType) : 'int';
      return integerBytes(value.value.value, PRIMITIVE_BYTES[keyword] ?? 4);
    }
    throw cannotConvert(this.typeText(value), this.catalog.name(type));
  }

  /** A reference: null, a string, or an object whose class fits the variable's declared type. */
  private async reference(target: AssignTarget, value: EvalValue): Promise<CallArg> {
    if (isNull(value)) return { null: true };
    const declared = this.declaredOf(target);
    const accepts = (v: NativeValue) => (declared ? this.declared.accepts(declared, v) : true);
    const declaredText = declared ? this.declared.text(declared) : this.catalog.name(target.current.type ?? target.current.chain?.[0]);
    if (value.kind === 'value' && value.value.type === 'string') {
      if (!accepts({ h: 0, et: ElementType.string })) throw cannotConvert('string', declaredText);
      return { h: (await this.funcEval.newString(target.frame.threadId, value.value.value)).h };
    }
    if (value.kind !== 'object') throw cannotConvert(this.typeText(value), declaredText);
    const source = value.value;
    if (source.et === ElementType.valuetype && !source.boxed) {
      throw new DebugError('INVALID_ARGUMENT', `a ${this.catalog.name(source.chain?.[0])} would have to be boxed to be stored in a ${declaredText}, which set value does not do`, HINT);
    }
    if (!accepts(source)) throw cannotConvert(this.catalog.name(source.et === ElementType.string ? { et: ElementType.string } : (source.type ?? source.chain?.[0])), declaredText);
    return { h: source.h };
  }

  /** The variable's declared type; else (a generic's T) the class of what it holds now. */
  private declaredOf(target: AssignTarget): Shape | undefined {
    const declared = this.declared.of(target.home, target.frame, target.owner, target.element);
    if (declared && declared !== '*') return declared;
    const now = target.current.type ?? target.current.chain?.[0];
    return now ? this.declared.shapeOf(now) : undefined;
  }

  /**
   * A struct on the heap took the source's bytes without the GC's write barrier: each reference in it
   * (nested structs followed) is written again through the runtime, which records it for the GC.
   */
  private async rewriteReferences(home: SetTarget, source: NativeValue, frame: FrameHandle, depth = 0): Promise<void> {
    const native = this.requireNative();
    const written = await this.fresh(home, frame);
    const fields = (source.chain ?? []).flatMap((type) => {
      const view = this.catalog.view(type);
      return (view?.fields ?? []).filter((f) => !f.isStatic).map((f) => ({ module: view!.module, type: view!.token, field: f.token }));
    });
    if (!written || fields.length === 0) return;
    const { values } = await native.call('fields', { h: source.h, fields });
    for (const [i, field] of fields.entries()) {
      const value = values[i];
      if (!value || !('h' in value) || value.null) continue;
      const fieldHome: SetTarget = { kind: 'field', h: written.h, ...field };
      if (value.addr) await native.call('setValue', { target: fieldHome, source: { h: value.h } });
      else if (value.et === ElementType.valuetype && depth < STRUCT_DEPTH) await this.rewriteReferences(fieldHome, value, frame, depth + 1);
    }
  }

  /** The value where it lives, read again (handles read before a func-eval are gone). */
  private async fresh(home: SetTarget, frame: FrameHandle): Promise<NativeValue | undefined> {
    const native = this.requireNative();
    switch (home.kind) {
      case 'field': {
        const { values } = await native.call('fields', { h: home.h, fields: [{ module: home.module, type: home.type, field: home.field }] });
        const value = values[0];
        return value && 'h' in value ? value : undefined;
      }
      case 'element':
        return (await native.call('items', { h: home.h, start: home.index, count: 1 })).values[0] ?? undefined;
      case 'static':
        return (await native.call('staticField', { module: home.module, type: home.type, field: home.field, threadId: frame.threadId, frameIndex: frame.nativeIndex })).value;
      default:
        return undefined;
    }
  }

  private async bytesOf(of: { h: number } | { target: SetTarget }): Promise<Buffer> {
    return Buffer.from((await this.requireNative().call('valueBytes', of)).bytes, 'hex');
  }

  /** `Paid`, `Status.Paid` or `Billing.Status.Paid`: a constant of the variable's own enum. */
  private enumConstant(type: NativeType, text: string): bigint | undefined {
    const m = /^\s*(?:([\w.]+)\.)?(\w+)\s*$/.exec(text);
    const fullName = this.catalog.view(type)?.fullName.replace(/\+/g, '.');
    if (!m || !fullName || (m[1] && !`.${fullName}`.endsWith(`.${m[1]}`))) return undefined;
    return this.catalog.enumInfo(type)?.constants.find((c) => c.name === m[2])?.value;
  }

  private sameType(type: NativeType, value: NativeValue): boolean {
    const chainType = value.chain?.[0];
    if (!chainType) return false;
    const a = this.declared.shapeOf(type);
    const b = this.declared.shapeOf(chainType);
    return JSON.stringify(a) === JSON.stringify(b);
  }

  private typeText(value: EvalValue): string {
    switch (value.kind) {
      case 'value':
        return value.enumType ? this.catalog.name(value.enumType) : value.value.type;
      case 'object':
        return value.value.et === ElementType.string ? 'string' : this.catalog.name(value.value.type ?? value.value.chain?.[0]);
      default:
        return value.kind;
    }
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new DebugError('INVALID_STATE', 'the .NET program is not being debugged any more');
    return native;
  }
}

function isNull(value: EvalValue): boolean {
  return (value.kind === 'object' && !!value.value.null) || (value.kind === 'value' && value.value.type === 'null');
}

function cannotConvert(from: string, to: string): DebugError {
  return new DebugError('INVALID_ARGUMENT', `Cannot implicitly convert type '${from}' to '${to}'`, HINT);
}

/** System.Decimal's layout since .NET Core 3.0: _flags (scale, sign), _hi32, _lo64. */
function decimalBytes(value: CsDecimal): Buffer {
  const out = Buffer.alloc(16);
  const magnitude = value.mantissa < 0n ? -value.mantissa : value.mantissa;
  out.writeUInt32LE(((value.scale << 16) | (value.mantissa < 0n ? 0x80000000 : 0)) >>> 0, 0);
  out.writeUInt32LE(Number((magnitude >> 64n) & 0xffffffffn), 4);
  out.writeBigUInt64LE(magnitude & 0xffffffffffffffffn, 8);
  return out;
}

function integerBytes(value: bigint, size: number): Buffer {
  const out = Buffer.alloc(size);
  let v = BigInt.asUintN(size * 8, value);
  for (let i = 0; i < size; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

function primitiveBytes(type: CsType, value: CsValue): Buffer {
  const size = PRIMITIVE_BYTES[type] ?? 0;
  if (type === 'bool') return Buffer.from([value.value ? 1 : 0]);
  if (type === 'float' || type === 'double') {
    const out = Buffer.alloc(size);
    if (type === 'float') out.writeFloatLE(value.value as number);
    else out.writeDoubleLE(value.value as number);
    return out;
  }
  return integerBytes(value.value as bigint, size);
}
