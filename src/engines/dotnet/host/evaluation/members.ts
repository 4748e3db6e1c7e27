/**
 * Members of the program's objects and types as C# expressions reach them: fields (auto-properties
 * by name), property getters and methods (func-eval), static fields and properties, enum constants,
 * nested types, array elements and indexers. Arguments are converted to the parameter types.
 */
import { DebugError } from '../../../../core/errors.js';
import type { ClrType } from '../../expressions/clrType.js';
import type { CsType, CsValue } from '../../expressions/numeric.js';
import { literalOf, localFunctionNames, type TupleNames } from '../../symbols/typeMembers.js';
import { tokenRid } from '../../symbols/tableSchema.js';
import type { NativeType } from '../nativeEvents.js';
import type { Native } from '../nativeSession.js';
import type { FuncEval } from '../values/funcEval.js';
import { ElementType, NUMERIC_KEYWORDS, type NativeValue } from '../values/nativeValue.js';
import type { MethodRef, TypeCatalog } from '../values/typeCatalog.js';
import type { ValueReader } from '../values/valueReader.js';
import type { Calls, Level } from './calls.js';
import { type Declared, fromNative, knownDeclared, type EvalValue, type Place, type TypeRef } from './evalValue.js';
import type { StaticTypes } from './staticTypes.js';
import type { TypeIndex } from './typeIndex.js';
import { unsupported } from './unsupported.js';


const PRIMITIVE_SIG: Record<number, CsType | undefined> = NUMERIC_KEYWORDS;

export class Members {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly catalog: TypeCatalog,
    private readonly reader: ValueReader,
    private readonly funcEval: FuncEval,
    private readonly types: TypeIndex,
    private readonly calls: Calls,
    private readonly staticTypes: StaticTypes,
  ) {}

  /** `object.name`: a field, else a property getter, of the type the object is declared as (`declared`). */
  async instance(object: NativeValue, name: string, place: Place, declared?: Declared): Promise<EvalValue> {
    if (object.null) throw nullReference(name);
    const known = knownDeclared({ kind: 'object', value: object, ...(declared && { declared }) });
    const levels = this.calls.lookupChain(object, known);
    // An array's or string's own Length, unless it is declared as object or an interface.
    const own = !known || known.kind === 'array' || (known.kind === 'named' && known.name === 'System.String');
    if (own && (object.et === ElementType.szarray || object.et === ElementType.array) && (name === 'Length' || name === 'LongLength')) {
      return { kind: 'value', value: { type: name === 'Length' ? 'int' : 'long', value: BigInt(object.len ?? 0) } };
    }
    if (own && (object.et === ElementType.szarray || object.et === ElementType.array ? name === 'Rank' : false)) {
      return { kind: 'value', value: { type: 'int', value: BigInt(object.dims?.length ?? 1) } };
    }
    if (own && object.et === ElementType.string && name === 'Length') return { kind: 'value', value: { type: 'int', value: BigInt(object.len ?? 0) } };
    const fieldRef = this.reader.fieldRef({ ...object, chain: levels.map((l) => l.type) }, name);
    const [field] = fieldRef ? await this.reader.fieldsByName(object, [name]) : [];
    if (field && fieldRef) return fromNative(field, this.staticTypes.ofField(fieldRef.module, fieldRef.type, fieldRef.field, object), this.staticTypes.fieldTupleNames(fieldRef.module, fieldRef.type, fieldRef.field));
    const getter = this.property(levels, name, false);
    // As C# names the type searched: the declared one, with its type arguments.
    const owner = this.calls.searchedName(object, levels);
    if (getter) {
      const what = `${owner}.${name}`;
      // An interface's getter takes the interface's type arguments: the object's class does not name them (an array as IReadOnlyList<T>).
      const typeArgs = getter.args?.length ? this.calls.specs(getter.args, what) : undefined;
      return this.result(await this.funcEval.call(place.threadId, getter.method, object, [], what, undefined, typeArgs), getter.returns, getter.tupleNames);
    }
    // A tuple's element names live in the PDB of the code that declared it, not in the value: the compiled path reads them.
    if (this.catalog.name(object.chain?.[0] ?? object.type).startsWith('System.ValueTuple<')) throw unsupported('tuple element names', `'${name}' may name an element of a tuple`);
    throw new DebugError('EVALUATION_FAILED', `'${owner}' has no member named '${name}'`);
  }

  /** `Type.name`: a static field or property, an enum constant, or a nested type. */
  async static(type: TypeRef, name: string, place: Place): Promise<EvalValue> {
    const native = this.asNativeType(type);
    const view = this.catalog.view(native);
    const field = view?.fields.find((f) => f.isStatic && f.name === name);
    if (view && field?.isLiteral) {
      const literal = literalOf(view.meta, field.token);
      const value = literal && literalValue(literal.et, literal.bytes);
      // A `const` is a constant, as C# folds it: `(int)long.MaxValue` does not compile.
      if (value) return { kind: 'value', value: { ...value, constant: true }, enumType: this.catalog.isEnum(native) ? native : undefined };
    }
    if (view && field) {
      const { value } = await this.requireNative().call('staticField', { module: view.module, type: view.token, field: field.token, threadId: place.threadId, frameIndex: place.frameIndex });
      return fromNative(value, this.staticTypes.ofField(view.module, view.token, field.token), field.tupleNames);
    }
    const getter = this.property([{ type: native }], name, true);
    if (getter) return this.result(await this.funcEval.call(place.threadId, getter.method, undefined, [], `${type.name}.${name}`), getter.returns, getter.tupleNames);
    const nested = this.types.find(`${type.name}.${name}`, 0, '');
    if (nested) return { kind: 'type', type: nested };
    throw new DebugError('EVALUATION_FAILED', `'${type.name}' has no static member named '${name}'`);
  }

  /** `target.Method(args)` (or `Type.Method(args)` when `target` is a type), extension methods in scope included. */
  async call(target: NativeValue | TypeRef, name: string, args: EvalValue[], place: Place, typeArgs?: ClrType[], declared?: Declared): Promise<EvalValue> {
    if ('h' in target && target.null) throw nullReference(name);
    return this.calls.invoke(target, name, args, place, typeArgs, () => this.types.extensionOwners(place.names ?? { namespace: '' }), declared);
  }

  /**
   * `Describe(o)` of a local function of the frame's method: the method the compiler made of it
   * (`<ExecuteAsync>g__Describe|4_2`), static or of `this`, when it takes just these arguments (one that
   * uses the method's variables takes their closure too: undefined, as for no such function).
   */
  async localFunction(owner: TypeRef, self: NativeValue | undefined, name: string, args: EvalValue[], place: Place): Promise<EvalValue | undefined> {
    const view = this.catalog.view(this.asNativeType(owner));
    for (const compiled of view ? localFunctionNames(view.meta, tokenRid(view.token), name) : []) {
      for (const target of self ? [owner, self] : [owner]) {
        try {
          return await this.call(target, compiled, args, place);
        } catch (e) {
          if (!(e instanceof DebugError) || !/has no (static )?method|no overload/.test(e.message)) throw e;
        }
      }
    }
    return undefined;
  }

  /** `target[index, …]`: array elements, else the `this[…]` indexer (get_Item). */
  async element(target: NativeValue, indices: EvalValue[], place: Place, declared?: Declared): Promise<EvalValue> {
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
      const arrayType = knownDeclared({ kind: 'object', value: target, ...(declared && { declared }) }) ?? (target.type && this.staticTypes.fromNative(target.type));
      return fromNative(values[0], arrayType?.kind === 'array' ? arrayType.elem : undefined);
    }
    return this.call(target, 'get_Item', indices, place, undefined, declared);
  }

  /** A string of the expression, created in the program (to call its methods). */
  async materialize(text: string, place: Place): Promise<NativeValue> {
    return this.funcEval.newString(place.threadId, text);
  }

  /** The getter of a property the first of `levels` declares, and the type it returns. */
  private property(levels: Level[], name: string, isStatic: boolean): { method: MethodRef; returns: ClrType | undefined; args?: ClrType[]; tupleNames?: TupleNames } | undefined {
    for (const { type, args } of levels) {
      const view = this.catalog.view(type);
      const property = view?.properties.find((p) => p.name === name && p.isStatic === isStatic && p.getter);
      if (!view || !property) continue;
      const method: MethodRef = { module: view.module, token: property.getter!, sig: { hasThis: !isStatic, genericParams: 0, returnType: { kind: 'other', et: 0 }, params: [] }, isStatic, declaringModule: view.module, declaringType: view.token };
      return { method, returns: this.staticTypes.returnType(method, args ?? this.staticTypes.typeArgsOf(type)), args, tupleNames: property.tupleNames };
    }
    return undefined;
  }

  private asNativeType(type: TypeRef): NativeType {
    return { et: ElementType.class, module: type.module, token: type.token, path: type.path, args: type.args };
  }

  private result(value: NativeValue | undefined, declared: ClrType | undefined, tupleNames?: TupleNames): EvalValue {
    return value ? fromNative(this.staticTypes.exact(value, declared), declared, tupleNames) : { kind: 'void' };
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new DebugError('INVALID_STATE', 'the .NET program is not being debugged any more');
    return native;
  }
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
