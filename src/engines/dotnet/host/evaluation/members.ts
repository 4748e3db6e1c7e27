/**
 * Members of the program's objects and types as C# expressions reach them: fields (auto-properties
 * by name), property getters and methods (func-eval), static fields and properties, enum constants,
 * nested types, array elements and indexers. Arguments are converted to the parameter types.
 */
import { DebugError } from '../../../../core/errors.js';
import { convertImplicit, isImplicitlyConvertible, type CsType, type CsValue } from '../../expressions/numeric.js';
import type { MethodSig, TypeSig } from '../../symbols/signatures.js';
import { literalOf } from '../../symbols/typeMembers.js';
import type { NativeType } from '../nativeEvents.js';
import type { CallArg, Native } from '../nativeSession.js';
import type { FuncEval } from '../values/funcEval.js';
import { ElementType, NUMERIC_KEYWORDS, type NativeValue } from '../values/nativeValue.js';
import type { MethodRef, TypeCatalog } from '../values/typeCatalog.js';
import type { ValueReader } from '../values/valueReader.js';
import { elementTypeOf, fromNative, type EvalValue, type TypeRef } from './evalValue.js';
import type { TypeIndex } from './typeIndex.js';

/** Where member reads and calls run: the stopped thread and frame. */
export interface Place {
  threadId: number;
  frameIndex: number;
}

const PRIMITIVE_SIG: Record<number, CsType | undefined> = NUMERIC_KEYWORDS;

export class Members {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly catalog: TypeCatalog,
    private readonly reader: ValueReader,
    private readonly funcEval: FuncEval,
    private readonly types: TypeIndex,
  ) {}

  /** `object.name`: a field, else a property getter. */
  async instance(object: NativeValue, name: string, place: Place): Promise<EvalValue> {
    if (object.null) throw nullReference(name);
    if ((object.et === ElementType.szarray || object.et === ElementType.array) && (name === 'Length' || name === 'LongLength')) {
      return { kind: 'value', value: { type: name === 'Length' ? 'int' : 'long', value: BigInt(object.len ?? 0) } };
    }
    if (object.et === ElementType.szarray || object.et === ElementType.array ? name === 'Rank' : false) {
      return { kind: 'value', value: { type: 'int', value: BigInt(object.dims?.length ?? 1) } };
    }
    if (object.et === ElementType.string && name === 'Length') return { kind: 'value', value: { type: 'int', value: BigInt(object.len ?? 0) } };
    const [field] = await this.reader.fieldsByName(object, [name]);
    if (field) return fromNative(field);
    const getter = this.property(object.chain ?? [], name, false);
    if (getter) return this.result(await this.funcEval.call(place.threadId, getter, object, [], `${this.catalog.name(object.chain?.[0])}.${name}`));
    throw new DebugError('EVALUATION_FAILED', `'${this.catalog.name(object.chain?.[0] ?? object.type)}' has no member named '${name}'`);
  }

  /** `Type.name`: a static field or property, an enum constant, or a nested type. */
  async static(type: TypeRef, name: string, place: Place): Promise<EvalValue> {
    const native = this.asNativeType(type);
    const view = this.catalog.view(native);
    const field = view?.fields.find((f) => f.isStatic && f.name === name);
    if (view && field?.isLiteral) {
      const literal = literalOf(view.meta, field.token);
      const value = literal && literalValue(literal.et, literal.bytes);
      if (value) return { kind: 'value', value, enumType: this.catalog.isEnum(native) ? native : undefined };
    }
    if (view && field) {
      const { value } = await this.requireNative().call('staticField', { module: view.module, type: view.token, field: field.token, threadId: place.threadId, frameIndex: place.frameIndex });
      return fromNative(value);
    }
    const getter = this.property([native], name, true);
    if (getter) return this.result(await this.funcEval.call(place.threadId, getter, undefined, [], `${type.name}.${name}`));
    const nested = this.types.find(`${type.name}.${name}`, 0, '');
    if (nested) return { kind: 'type', type: nested };
    throw new DebugError('EVALUATION_FAILED', `'${type.name}' has no static member named '${name}'`);
  }

  /** `target.Method(args)` (or `Type.Method(args)` when `target` is a type). */
  async call(target: NativeValue | TypeRef, name: string, args: EvalValue[], place: Place): Promise<EvalValue> {
    const isType = !('h' in target);
    const chain = isType ? [this.asNativeType(target)] : this.chainOf(target);
    if (!isType && target.null) throw nullReference(name);
    const method = this.overload(chain, name, args, isType);
    if (!method && !isType) {
      const extension = await this.extension(target, name, args, place);
      if (extension) return extension;
    }
    if (!method) {
      const owner = isType ? target.name : this.catalog.name(chain[0] ?? target.type);
      throw new DebugError('EVALUATION_FAILED', `'${owner}' has no ${isType ? 'static ' : ''}method ${name} taking ${args.length} argument(s)`);
    }
    const converted: CallArg[] = [];
    for (const [i, arg] of args.entries()) converted.push(await this.argument(arg, method.sig.params[i]!, place));
    const label = `${isType ? target.name : this.catalog.name(chain[0])}.${name}()`;
    return this.result(await this.funcEval.call(place.threadId, method, isType ? undefined : target, converted, label));
  }

  /**
   * An extension method (`list.Sum()`, `order.Lines.Any()`): a static method marked [Extension]
   * whose first parameter takes the object, in System.Linq.Enumerable and the user's static classes. A
   * generic one gets the type arguments of the object's type (List<int> → Sum<int>).
   */
  private async extension(target: NativeValue, name: string, args: EvalValue[], place: Place): Promise<EvalValue | undefined> {
    const withTarget: EvalValue[] = [{ kind: 'object', value: target }, ...args];
    for (const owner of this.types.extensionOwners()) {
      const native = this.asNativeType(owner);
      const view = this.catalog.view(native);
      if (!view) continue;
      const method = this.catalog
        .findMethods([native], name, withTarget.length, true)
        .find((m) => view.meta.attributeNames(m.token).includes('System.Runtime.CompilerServices.ExtensionAttribute') && fitness(m.sig, withTarget) >= 0);
      if (!method) continue;
      const converted: CallArg[] = [];
      for (const [i, arg] of withTarget.entries()) converted.push(await this.argument(arg, method.sig.params[i]!, place));
      const generic = method.sig.genericParams > 0 ? target.h : undefined;
      return this.result(await this.funcEval.call(place.threadId, method, undefined, converted, `${owner.name}.${name}()`, generic));
    }
    return undefined;
  }

  /** `target[index, …]`: array elements, else the `this[…]` indexer (get_Item). */
  async element(target: NativeValue, indices: EvalValue[], place: Place): Promise<EvalValue> {
    if (target.null) throw nullReference('[]');
    if (target.et === ElementType.szarray || target.et === ElementType.array) {
      const dims = target.dims?.length ? target.dims : [target.len ?? 0];
      if (indices.length !== dims.length) throw new DebugError('EVALUATION_FAILED', `the array has ${dims.length} dimension(s), ${indices.length} index(es) given`);
      let flat = 0;
      for (const [d, index] of indices.entries()) {
        const i = integerOf(index);
        if (i < 0 || i >= dims[d]!) throw new DebugError('EVALUATION_FAILED', `index ${i} is outside the array's bounds (0..${dims[d]! - 1})`);
        flat = flat * dims[d]! + i;
      }
      const { values } = await this.requireNative().call('items', { h: target.h, start: flat, count: 1 });
      if (!values[0]) throw new DebugError('EVALUATION_FAILED', `element ${flat} cannot be read`);
      return fromNative(values[0]);
    }
    return this.call(target, 'get_Item', indices, place);
  }

  /** A string of the expression, created in the program (to call its methods). */
  async materialize(text: string, place: Place): Promise<NativeValue> {
    return this.funcEval.newString(place.threadId, text);
  }

  /** A value passed to a parameter: constants converted to its type, strings created in the program. */
  async argument(arg: EvalValue, param: TypeSig, place: Place): Promise<CallArg> {
    if (arg.kind === 'object') return arg.value.null ? { null: true } : { h: arg.value.h };
    if (arg.kind !== 'value') throw new DebugError('EVALUATION_FAILED', 'a type or namespace is not a value');
    const value = arg.value;
    if (value.type === 'null') return { null: true };
    if (value.type === 'string') return { h: (await this.funcEval.newString(place.threadId, value.value)).h };
    if (arg.origin && !(param.kind === 'primitive' && PRIMITIVE_SIG[param.et])) return { h: arg.origin.h };
    const target = param.kind === 'primitive' ? PRIMITIVE_SIG[param.et] : undefined;
    const converted: CsValue = target ? convertImplicit(value, target) : value;
    const et = elementTypeOf(converted);
    if (et === undefined) throw new DebugError('EVALUATION_FAILED', `a ${value.type} cannot be passed here`);
    return { et, v: converted.type === 'bool' ? String(converted.value) : String(converted.value) };
  }

  /** C#'s choice among overloads, simplified: every argument must convert; exact types win. */
  private overload(chain: NativeType[], name: string, args: EvalValue[], isStatic: boolean): MethodRef | undefined {
    let best: { method: MethodRef; score: number } | undefined;
    for (const method of this.catalog.findMethods(chain, name, args.length, isStatic)) {
      const score = fitness(method.sig, args);
      if (score >= 0 && (!best || score > best.score)) best = { method, score };
    }
    return best?.method;
  }

  /** Strings and arrays are objects of System.String / System.Array, whose chain the runtime does not send. */
  private chainOf(value: NativeValue): NativeType[] {
    if (value.chain) return value.chain;
    const name = value.et === ElementType.string ? 'System.String' : value.et === ElementType.szarray || value.et === ElementType.array ? 'System.Array' : undefined;
    const type = name ? this.types.find(name, 0, '') : undefined;
    return type ? [this.asNativeType(type)] : [];
  }

  private property(chain: NativeType[], name: string, isStatic: boolean): MethodRef | undefined {
    for (const type of chain) {
      const view = this.catalog.view(type);
      const property = view?.properties.find((p) => p.name === name && p.isStatic === isStatic && p.getter);
      if (view && property) return { module: view.module, token: property.getter!, sig: { hasThis: !isStatic, genericParams: 0, returnType: { kind: 'other', et: 0 }, params: [] }, isStatic, declaringModule: view.module, declaringType: view.token };
    }
    return undefined;
  }

  private asNativeType(type: TypeRef): NativeType {
    return { et: ElementType.class, module: type.module, token: type.token, path: type.path, args: type.args };
  }

  private result(value: NativeValue | undefined): EvalValue {
    return value ? fromNative(value) : { kind: 'void' };
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new DebugError('INVALID_STATE', 'the .NET program is not being debugged any more');
    return native;
  }
}

/** How well arguments suit a signature (-1: they do not): an exact type 3, a widening 2, anything else accepted 1. */
function fitness(sig: MethodSig, args: EvalValue[]): number {
  let score = 0;
  for (const [i, arg] of args.entries()) {
    const param = sig.params[i]!;
    const paramType = param.kind === 'primitive' ? (param.et === ElementType.string ? 'string' : PRIMITIVE_SIG[param.et]) : undefined;
    if (arg.kind !== 'value') {
      score += paramType && paramType !== 'string' ? -100 : 1;
      continue;
    }
    const value = arg.value;
    if (value.type === 'null') score += paramType && paramType !== 'string' ? -100 : 1;
    else if (!paramType) score += value.type === 'string' && param.kind === 'valuetype' ? -100 : 1;
    else if (value.type === paramType) score += 3;
    else if (isImplicitlyConvertible({ ...value, constant: false } as CsValue, paramType)) score += 2;
    else if (isImplicitlyConvertible(value, paramType)) score += 1;
    else return -1;
  }
  return score;
}

/** A literal field's value as C# sees it. */
function literalValue(et: number, bytes: Buffer): CsValue | undefined {
  if (et === ElementType.string) return { type: 'string', value: bytes.toString('utf16le') };
  if (et === ElementType.boolean) return { type: 'bool', value: bytes[0] !== 0 };
  if (et === ElementType.r4) return { type: 'float', value: bytes.readFloatLE(0) };
  if (et === ElementType.r8) return { type: 'double', value: bytes.readDoubleLE(0) };
  const type = PRIMITIVE_SIG[et];
  if (!type || !bytes.length) return undefined;
  const signed = ['sbyte', 'short', 'int', 'long'].includes(type);
  const value = bytes.length === 8 ? (signed ? bytes.readBigInt64LE(0) : bytes.readBigUInt64LE(0)) : BigInt(signed ? bytes.readIntLE(0, bytes.length) : bytes.readUIntLE(0, bytes.length));
  return { type, value } as CsValue;
}

function integerOf(index: EvalValue): number {
  if (index.kind === 'value' && typeof index.value.value === 'bigint') return Number(index.value.value);
  throw new DebugError('EVALUATION_FAILED', 'an array index must be an integer');
}

function nullReference(member: string): DebugError {
  return new DebugError('EVALUATION_FAILED', `NullReferenceException: the value is null (reading ${member})`, 'Use ?. to stop at null.');
}
