/**
 * Method calls, constructors and arrays as C# makes them, run in the program by func-eval: the
 * candidates are the metadata's overloads (per type, most derived first; then extension methods of the
 * static classes in scope), C#'s overload resolution picks one or refuses (none applicable, ambiguous),
 * and each argument is passed as the chosen parameter's type wants it: numbers converted, strings and
 * boxes created in the program, structs boxed for reference parameters, `params` gathered into an
 * array, and a generic method given the type arguments inference found. The runtime checks none of
 * this itself: a value of the wrong type reaches the callee as it is.
 */
import { DebugError } from '../../../../core/errors.js';
import { type ClrType, displayType, KEYWORD_TYPES, named, NULLABLE, OBJECT, sameType, STRING, substitute } from '../../expressions/clrType.js';
import { convertImplicit, type CsType, type CsValue } from '../../expressions/numeric.js';
import { type Argument, brokenConstraint, type Candidate, compiledMayBind, resolveOverload, type TypeParameter } from '../../expressions/overloadResolution.js';
import type { AssemblyMetadata } from '../../symbols/assemblyMetadata.js';
import { genericParameters } from '../../symbols/declarations.js';
import { hasParamArray, optionalParameterCount } from '../../symbols/typeMembers.js';
import { Table, token, tokenRid } from '../../symbols/tableSchema.js';
import type { NativeType } from '../nativeEvents.js';
import type { CallArg, Native, SetTarget, TypeSpec } from '../nativeSession.js';
import type { FuncEval } from '../values/funcEval.js';
import { ElementType, isPrimitive, type NativeValue } from '../values/nativeValue.js';
import type { MethodRef, TypeCatalog } from '../values/typeCatalog.js';
import type { ClrTypes } from './clrTypes.js';
import { type BoundParam, type Declared, elementTypeOf, fromNative, isNullValue, knownDeclared, type EvalValue, type Place, type TypeRef } from './evalValue.js';
import { callSideEffect, sideEffectRefusal } from './sideEffects.js';
import { unsupported } from './unsupported.js';
import type { StaticTypes } from './staticTypes.js';

// GenericParamAttributes (ECMA-335 §II.23.1.7): `class`, `struct`, `new()`.
const REFERENCE_TYPE_CONSTRAINT = 0x4;
const VALUE_TYPE_CONSTRAINT = 0x8;
const DEFAULT_CONSTRUCTOR_CONSTRAINT = 0x10;
const EXTENSION = 'System.Runtime.CompilerServices.ExtensionAttribute';
const COMPILER_GENERATED = 'System.Runtime.CompilerServices.CompilerGeneratedAttribute';

interface Method extends MethodRef {
  /** The declaring type's type arguments. */
  typeArgs: ClrType[];
}

/** A type whose members a lookup searches, with its type arguments when they are not the runtime's. */
export interface Level {
  type: NativeType;
  args?: ClrType[];
}

export class Calls {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly catalog: TypeCatalog,
    private readonly funcEval: FuncEval,
    private readonly types: ClrTypes,
    private readonly staticTypes: StaticTypes,
  ) {}

  /**
   * `receiver.name(args)`, or `Type.name(args)`; extension methods of `extensionOwners` when no
   * instance method fits. The receiver's members are those of its declared type (`declared`).
   */
  async invoke(receiver: NativeValue | TypeRef, name: string, args: EvalValue[], place: Place, explicit: ClrType[] | undefined, extensionOwners: () => TypeRef[], declared?: Declared): Promise<EvalValue> {
    const isType = !('h' in receiver);
    const self: EvalValue | undefined = isType ? undefined : { kind: 'object', value: receiver, ...(declared && { declared }) };
    const levels: Level[] = isType ? [{ type: this.asNative(receiver) }] : this.lookupChain(receiver, self && knownDeclared(self));
    const owner = isType ? receiver.name : this.searchedName(receiver, levels);
    const reasons: string[] = [];
    for (const level of levels) {
      const candidates = this.candidates([level.type], name, isType, level.args);
      if (!candidates.length) continue;
      const resolution = this.resolve(candidates, args, explicit, `${owner}.${name}`, reasons);
      if (resolution) return this.run(resolution, isType ? undefined : receiver, args, place, `${owner}.${name}()`);
    }
    if (self) {
      const withTarget = [self, ...args];
      const candidates = extensionOwners().flatMap((o) => this.candidates([this.asNative(o)], name, true).filter((c) => this.isExtension(c.method)));
      const resolution = candidates.length ? this.resolve(candidates, withTarget, explicit, `${owner}.${name}`, reasons) : undefined;
      if (resolution) return this.run(resolution, undefined, withTarget, place, `${owner}.${name}()`);
    }
    const namesakes = levels.flatMap((level) => this.candidates([level.type], name, isType, level.args));
    if (compiledMayBind(namesakes, args.length)) throw unsupported('optional or span parameters', `${owner}.${name} may take these arguments as C# binds them`);
    // The compiler's own error when the one generic method named so failed by inference or a constraint.
    if (reasons[0]) throw new DebugError('EVALUATION_FAILED', reasons[0], 'Give the type arguments explicitly (M<T>(...)) or pass arguments of a type the constraints allow.');
    // A value typed by a bare type parameter converts only as its constraints do (C#'s CS1503 for `Math.Round(t)`): C# names it by its parameter.
    const shown = args.map((a) => ((a.kind === 'object' || a.kind === 'value') && a.bound ? a.bound.name : displayType(this.argument(a).type))).join(', ');
    throw new DebugError(
      'EVALUATION_FAILED',
      namesakes.length
        ? `no overload of ${owner}.${name} takes (${shown})`
        : `'${owner}' has no ${isType ? 'static ' : ''}method ${name}${isType ? '' : ' (nor an extension method of that name in scope)'}`,
      'Check the argument types; a cast picks the overload you mean.',
    );
  }

  /** `new T(args)`: a constructor chosen by overload resolution (a struct without arguments is its default). */
  async construct(type: ClrType & { kind: 'named' }, args: EvalValue[], place: Place): Promise<NativeValue> {
    const spec = this.types.spec(type);
    const def = this.types.definition(type.name);
    if (!spec || !def) throw new DebugError('EVALUATION_FAILED', `the type ${displayType(type)} is not loaded in the program`);
    const what = `new ${displayType(type)}()`;
    const broken = type.args.length ? brokenConstraint({ name: displayType(named(type.name)), typeParams: this.typeParameters(def.meta, Table.TypeDef, def.rid, []) }, type.args, this.types) : undefined;
    if (broken) throw new DebugError('EVALUATION_FAILED', broken, 'Name a type argument the type\'s constraints allow.');
    const native: NativeType = { et: this.types.isValueType(type) ? ElementType.valuetype : ElementType.class, module: def.module, token: token(Table.TypeDef, def.rid), args: [] };
    const candidates = this.candidates([native], '.ctor', false, type.args);
    if (!candidates.length && args.length === 0 && this.types.isValueType(type)) return this.funcEval.newObject(place.threadId, spec, what);
    const reasons: string[] = [];
    const chosen = this.resolve(candidates, args, undefined, `new ${displayType(type)}`, reasons);
    if (!chosen && compiledMayBind(candidates, args.length)) throw unsupported('optional or span parameters', `new ${displayType(type)}(…) may take these arguments as C# binds them`);
    if (!chosen && reasons[0]) throw new DebugError('EVALUATION_FAILED', reasons[0]);
    if (!chosen) throw new DebugError('EVALUATION_FAILED', `no constructor of ${displayType(type)} takes (${args.map((a) => displayType(this.argument(a).type)).join(', ')})`);
    this.refuseSideEffect(chosen, place, true);
    const passed = await this.passAll(chosen.argumentTypes, chosen.expanded, args, place);
    const typeArgs = this.specs(type.args, what);
    return this.funcEval.construct(place.threadId, chosen.method, passed, what, undefined, typeArgs);
  }

  /**
   * `(to)value` by a user-defined conversion operator (op_Explicit, op_Implicit) of the value's type
   * or of `to`, chosen among those returning `to` by the argument; undefined when there is none.
   */
  async convertByOperator(value: EvalValue, from: ClrType, to: ClrType, place: Place): Promise<EvalValue | undefined> {
    const owners = [from, to].flatMap((t) => this.definedType(t)?.type ?? []);
    const fits = this.candidates(owners, 'op_Explicit', true)
      .concat(this.candidates(owners, 'op_Implicit', true))
      .filter((c) => {
        const view = this.catalog.view({ et: ElementType.class, module: c.method.declaringModule, token: c.method.declaringType });
        return view && sameType(this.types.fromSig(c.method.sig.returnType, view.meta), to);
      });
    const chosen = fits.length ? this.resolve(fits, [value], undefined, `(${displayType(to)})`) : undefined;
    return chosen && this.run(chosen, undefined, [value], place, `the conversion (${displayType(to)})`);
  }

  /** A new `elem[]` holding `items` (or `length` default values). */
  async array(elem: ClrType, items: EvalValue[], place: Place, length = items.length): Promise<NativeValue> {
    const spec = this.types.spec(elem);
    if (!spec) throw new DebugError('EVALUATION_FAILED', `the type ${displayType(elem)} is not loaded in the program`);
    const what = `new ${displayType(elem)}[]`;
    for (const item of items) {
      if (!this.convertible(item, elem)) throw new DebugError('EVALUATION_FAILED', `Cannot implicitly convert type '${displayType(this.argument(item).type)}' to '${displayType(elem)}'`);
    }
    const structs = this.types.isValueType(elem) && !primitiveArrayElement(elem);
    const array = structs ? await this.structArray(elem, length, place, what) : await this.funcEval.newArray(place.threadId, spec, length, what);
    for (const [index, item] of items.entries()) {
      const target = { kind: 'element' as const, h: array.h, index };
      // A struct element takes the struct's bytes (a null Nullable is the element's default already).
      if (structs && isNullValue(item)) continue;
      const source = structs ? { bytes: await this.elementBytes(item, target, elem, place) } : await this.pass(item, elem, place);
      await this.requireNative().call('setValue', { target, source }).catch((e: Error) => {
        throw new DebugError('EVALUATION_FAILED', `${what}: element ${index} cannot be set (${e.message})`);
      });
    }
    return array;
  }

  /**
   * An array of structs, enums or decimals: the runtime's func-eval makes arrays of primitives and
   * references only (any other element type throws "Enum value was out of legal range"), so
   * GC.AllocateArray<T>(length) makes it in the program.
   */
  private async structArray(elem: ClrType, length: number, place: Place, what: string): Promise<NativeValue> {
    const gc = this.types.definition('System.GC');
    const allocate = gc && this.catalog.findMethod([{ et: ElementType.class, module: gc.module, token: token(Table.TypeDef, gc.rid) }], 'AllocateArray', 2, true);
    if (!allocate) throw new DebugError('EVALUATION_FAILED', `${what}: System.GC.AllocateArray is not found, so an array of ${displayType(elem)} cannot be made here`);
    const array = await this.funcEval.call(place.threadId, allocate, undefined, [{ et: ElementType.i4, v: String(length) }, { et: ElementType.boolean, v: 'false' }], what, undefined, this.specs([elem], what));
    if (!array) throw new DebugError('EVALUATION_FAILED', `${what} made no array`);
    return array;
  }

  /** A value's bytes as an element of `elem[]` holds them: converted to it, a Nullable's value after its hasValue flag, aligned at the end. */
  private async elementBytes(item: EvalValue, element: SetTarget, elem: ClrType, place: Place): Promise<string> {
    const native = this.requireNative();
    const inner = elem.kind === 'named' && elem.name === NULLABLE ? elem.args[0]! : elem;
    const keyword = inner.kind === 'named' ? primitiveKeyword(inner.name) : undefined;
    let bytes: Buffer | undefined;
    if (item.kind === 'value' && (item.enumType || keyword)) {
      const raw = rawBytes(item.enumType ? item.value : convertImplicit(item.value, keyword as CsType));
      bytes = raw === undefined ? undefined : Buffer.from(raw, 'hex');
    } else {
      const passed = await this.pass(item, inner, place);
      if ('h' in passed) bytes = Buffer.from((await native.call('valueBytes', { h: passed.h })).bytes, 'hex');
    }
    if (!bytes) throw new DebugError('EVALUATION_FAILED', `a ${displayType(this.argument(item).type)} cannot be stored in a ${displayType(elem)}[] here`);
    const size = (await native.call('valueBytes', { target: element })).bytes.length / 2;
    if (inner === elem || bytes.length >= size) return bytes.toString('hex');
    const out = Buffer.alloc(size);
    out[0] = 1;
    bytes.copy(out, size - bytes.length);
    return out.toString('hex');
  }

  /**
   * What overload resolution knows of a value: its declared type (the object's own when not known:
   * see resolve()), and the value of a constant.
   */
  argument(value: EvalValue): Argument {
    const declared = knownDeclared(value);
    if (declared) return { type: declared };
    if (value.kind === 'object') return { type: this.types.fromValue(value.value) };
    if (value.kind !== 'value') throw new DebugError('EVALUATION_FAILED', value.kind === 'void' ? 'the method returns nothing' : `a ${value.kind} is not a value`);
    if (value.enumType) return { type: this.types.fromNative(value.enumType) };
    if (value.origin?.chain?.[0]) return { type: this.types.fromNative(value.origin.chain[0]) };
    if (value.value.type === 'null') return { type: { kind: 'null' } };
    return { type: named(KEYWORD_TYPES[value.value.type] ?? OBJECT), ...(value.value.constant && { constant: value.value }) };
  }

  convertible(value: EvalValue, to: ClrType): boolean {
    return resolveOverload([{ method: 0, params: [to], genericArity: 0, paramArray: false }], [this.argument(value)], this.types).hasOwnProperty('chosen');
  }

  /** Whether the object itself is a `to` (C#'s `is`: its own type, not the declared one). */
  isInstance(value: NativeValue, to: ClrType): boolean {
    if (value.null) return false;
    return resolveOverload([{ method: 0, params: [to], genericArity: 0, paramArray: false }], [{ type: this.types.fromValue(value) }], this.types).hasOwnProperty('chosen');
  }

  /**
   * The types whose members C# finds on an object: from its declared type up (a `new` member of a
   * derived class hidden), an interface's own members (explicit implementations) then object's;
   * the object's own chain when the declared type is not known.
   */
  lookupChain(value: NativeValue, declared: ClrType | undefined): Level[] {
    const chain = this.chainOf(value);
    if (declared?.kind !== 'named') return chain.map((type) => ({ type }));
    const from = chain.findIndex((t) => this.catalog.view(t)?.fullName === declared.name);
    if (from >= 0) return chain.slice(from).map((type) => ({ type }));
    const object = this.definedType(named(OBJECT))!;
    if (declared.name === OBJECT) return [object];
    if (!this.types.isInterface(declared)) return chain.map((type) => ({ type }));
    const interfaces: ClrType[] = [declared];
    for (let i = 0; i < interfaces.length; i++) {
      for (const base of this.types.supertypes(interfaces[i]!)) if (this.types.isInterface(base) && !interfaces.some((seen) => sameType(seen, base))) interfaces.push(base);
    }
    return [...interfaces.map((t) => this.definedType(t)).filter((l): l is Level => !!l), object];
  }

  /** The type a lookup on `value` searches (`levels[0]`), as C# names it: an array by its element type, not as System.Array. */
  searchedName(value: NativeValue, levels: Level[]): string {
    const array = (value.et === ElementType.szarray || value.et === ElementType.array) && this.catalog.view(levels[0]?.type)?.fullName === 'System.Array';
    return levels[0] && !array ? this.levelName(levels[0]) : this.catalog.name(array ? value.type : (value.chain?.[0] ?? value.type));
  }

  /** A level as C# names it: by its type arguments (`IEnumerable<string>`), never its parameters. */
  private levelName(level: Level): string {
    const fullName = level.args?.length ? this.catalog.view(level.type)?.fullName : undefined;
    return fullName ? displayType(named(fullName, level.args)) : this.catalog.name(level.type);
  }

  private definedType(t: ClrType): Level | undefined {
    const def = t.kind === 'named' ? this.types.definition(t.name) : undefined;
    return def && { type: { et: ElementType.class, module: def.module, token: token(Table.TypeDef, def.rid) }, args: (t as { args: ClrType[] }).args };
  }

  /**
   * C#'s choice among `candidates`, or undefined when none applies. An argument whose declared type
   * is not known is taken at its object's type; when `object` would choose another overload, the
   * call is refused rather than answered by a method C# would not call.
   */
  private resolve(candidates: Candidate<Method>[], args: EvalValue[], explicit: ClrType[] | undefined, what: string, reasons: string[] = []) {
    // A value typed by a bare type parameter converts as its constraints do: C# binds the call once for every type argument.
    const argInfo = args.map((a) => ((a.kind === 'object' || a.kind === 'value') && a.bound ? boundArgument(a.bound, knownDeclared(a)) : this.argument(a)));
    const resolution = resolveOverload(candidates, argInfo, this.types, explicit);
    if (!('chosen' in resolution)) {
      if (resolution.error === 'ambiguous') throw ambiguous(what, argInfo);
      if (resolution.why) reasons.push(resolution.why);
      return undefined;
    }
    args.forEach((arg, i) => {
      if (knownDeclared(arg) || argInfo[i]!.constant || (arg.kind === 'object' && arg.value.null) || (arg.kind === 'value' && !arg.origin)) return;
      const weakest = argInfo.map((a, j) => (j === i ? { type: named(OBJECT) } : a));
      const other = resolveOverload(candidates, weakest, this.types, explicit);
      // The compiled evaluation binds by the declared types ("abc".AsSpan() picks AsSpan(string), not AsSpan<T>(T[])).
      if (!('chosen' in other) || other.chosen.method !== resolution.chosen.method) throw unsupported('overload by declared type', `${what}: the overload depends on the declared type of argument ${i + 1}`);
    });
    return resolution.chosen;
  }

  /** A value as a parameter of type `param` takes it. */
  async pass(value: EvalValue, param: ClrType, place: Place): Promise<CallArg> {
    const reference = !this.types.isValueType(param) || (param.kind === 'named' && param.name === NULLABLE);
    if (value.kind === 'object') {
      const v = value.value;
      if (v.null) return { null: true };
      // A struct (not a box) given to a reference parameter is boxed first: the runtime would pass its address.
      if (reference && v.et === ElementType.valuetype && !v.boxed) return { h: (await this.box(v, place)).h };
      return { h: v.h };
    }
    if (value.kind !== 'value') throw new DebugError('EVALUATION_FAILED', 'a type or namespace is not a value');
    const cs = value.value;
    if (cs.type === 'null') return { null: true };
    if (cs.type === 'string') return value.origin ? { h: value.origin.h } : { h: (await this.funcEval.newString(place.threadId, cs.value)).h };
    const keyword = param.kind === 'named' ? primitiveKeyword(param.name) : undefined;
    if (keyword && !value.enumType) {
      const converted = convertImplicit(cs, keyword as CsType);
      if (keyword === 'decimal') return { h: (await this.boxValue(converted, named('System.Decimal'), place)).h };
      return literal(converted);
    }
    if (value.enumType && !reference) return literal(cs);
    if (value.origin && !reference) return { h: value.origin.h };
    // A number (or enum value) given to object, an interface, or a nullable: a box of its own type.
    const own = value.enumType ? this.types.fromNative(value.enumType) : named(KEYWORD_TYPES[cs.type] ?? OBJECT);
    return { h: (await this.boxValue(cs, own, place)).h };
  }

  private async run(chosen: { method: Method; typeArgs: ClrType[]; argumentTypes: ClrType[]; expanded?: { from: number; elem: ClrType } }, self: NativeValue | undefined, args: EvalValue[], place: Place, what: string): Promise<EvalValue> {
    const method = chosen.method;
    this.refuseSideEffect(chosen, place, false);
    const passed = await this.passAll(chosen.argumentTypes, chosen.expanded, args, place);
    const generic = method.typeArgs.length > 0 || chosen.typeArgs.length > 0;
    const typeArgs = generic ? this.specs([...method.typeArgs, ...chosen.typeArgs], what) : undefined;
    // A primitive's own methods (`n.CompareTo(2)`) run on a copy of it in a box, whose value is the `this`.
    let target = self;
    if (self && !method.isStatic && isPrimitive(self.et)) {
      const own = this.types.fromValue(self);
      const box = await this.boxValue(fromNative(self).kind === 'value' ? (fromNative(self) as { value: CsValue }).value : undefined, own, place);
      target = { ...box, et: ElementType.valuetype };
    }
    const value = await this.funcEval.call(place.threadId, method, target, passed, what, undefined, typeArgs);
    const declared = this.staticTypes.returnType(method, method.typeArgs, chosen.typeArgs);
    return value ? fromNative(this.staticTypes.exact(value, declared), declared, this.staticTypes.returnTupleNames(method)) : { kind: 'void' };
  }

  private async passAll(types: ClrType[], expanded: { from: number; elem: ClrType } | undefined, args: EvalValue[], place: Place): Promise<CallArg[]> {
    const passed: CallArg[] = [];
    const fixed = expanded ? expanded.from : args.length;
    for (let i = 0; i < fixed; i++) passed.push(await this.pass(args[i]!, types[i]!, place));
    if (expanded) passed.push({ h: (await this.array(expanded.elem, args.slice(fixed), place)).h });
    return passed;
  }

  /** The native specs of exact type arguments (a generic method's, or an interface's whose member is called). */
  specs(types: ClrType[], what: string): TypeSpec[] {
    return types.map((t) => {
      const spec = this.types.spec(t);
      if (!spec) throw new DebugError('EVALUATION_FAILED', `${what}: the type ${displayType(t)} is not loaded in the program, so the generic method cannot be instantiated`);
      return spec;
    });
  }

  /** Overloads named `name` declared by these types, as overload resolution takes them. */
  private candidates(level: NativeType[], name: string, isStatic: boolean, typeArgs?: ClrType[]): Candidate<Method>[] {
    const out: Candidate<Method>[] = [];
    for (const type of level) {
      const view = this.catalog.view(type);
      if (!view) continue;
      const args = typeArgs ?? (this.types.fromNative(type) as { args?: ClrType[] }).args ?? [];
      for (const ref of this.catalog.findMethods([type], name, undefined, isStatic)) {
        const params = ref.sig.params.map((p) => substitute(this.types.fromSig(p, view.meta), args));
        const method: Method = { ...ref, typeArgs: args };
        const typeParams = ref.sig.genericParams ? this.typeParameters(view.meta, Table.MethodDef, tokenRid(ref.token), args) : undefined;
        const shownName = `${displayType(named(view.fullName, args))}.${name}`;
        const [rid, count] = [tokenRid(ref.token), params.length];
        out.push({ method, params, genericArity: ref.sig.genericParams, paramArray: hasParamArray(view.meta, rid, count), optional: optionalParameterCount(view.meta, rid, count), typeParams, name: shownName });
      }
    }
    return out;
  }

  /** A generic method's or type's type parameters: names, and constraints (a method's with its declaring type's arguments). */
  private typeParameters(meta: AssemblyMetadata, owner: Table.MethodDef | Table.TypeDef, rid: number, typeArgs: ClrType[]): TypeParameter[] {
    return genericParameters(meta, owner, rid).map((p) => ({
      name: p.name,
      constraints: p.constraints.map((c) => substitute(this.types.fromToken(c, meta), typeArgs)).filter((c) => !(c.kind === 'named' && c.name === 'System.ValueType')),
      referenceType: (p.flags & REFERENCE_TYPE_CONSTRAINT) !== 0,
      valueType: (p.flags & VALUE_TYPE_CONSTRAINT) !== 0,
      constructible: (p.flags & DEFAULT_CONSTRUCTOR_CONSTRAINT) !== 0,
    }));
  }

  /** Without side effects, a call that may change the program is refused before anything runs. */
  private refuseSideEffect(chosen: { method: Method; argumentTypes: ClrType[]; expanded?: { from: number; elem: ClrType } }, place: Place, constructor: boolean): void {
    if (place.sideEffects !== false) return;
    const { method, argumentTypes, expanded } = chosen;
    const view = this.catalog.view({ et: ElementType.class, module: method.declaringModule, token: method.declaringType });
    const info = view?.meta.methodByToken(method.token);
    if (!view || !info) throw sideEffectRefusal('it calls a method the debugger cannot read');
    const params = expanded ? [...argumentTypes.slice(0, expanded.from), { kind: 'array' as const, elem: expanded.elem, rank: 1 }] : argumentTypes;
    const effect = callSideEffect({
      assembly: this.types.assemblyName(method.declaringModule),
      typeFullName: view.fullName,
      isValueType: this.types.isValueType(named(view.fullName)),
      name: info.name,
      specialName: view.meta.isSpecialName(info),
      compilerGenerated: view.meta.attributeNames(method.token).includes(COMPILER_GENERATED),
      isConstructor: constructor,
      params: params.map((p) => displayType(p)),
    });
    if (effect) throw sideEffectRefusal(effect);
  }

  private isExtension(method: Method): boolean {
    const meta = this.catalog.view({ et: ElementType.class, module: method.declaringModule, token: method.declaringType })?.meta;
    return !!meta && meta.attributeNames(method.token).includes(EXTENSION);
  }

  /** A copy of a struct in a box (Object.MemberwiseClone on it: the runtime boxes a struct `this` for a method of object). */
  private async box(value: NativeValue, place: Place): Promise<NativeValue> {
    const object = this.types.definition(OBJECT);
    const clone = object && this.catalog.findMethod([{ et: ElementType.class, module: object.module, token: token(Table.TypeDef, object.rid) }], 'MemberwiseClone', 0, false);
    if (!clone) throw new DebugError('EVALUATION_FAILED', 'System.Object.MemberwiseClone is not found: the struct cannot be boxed');
    const boxed = await this.funcEval.call(place.threadId, clone, { ...value, et: ElementType.class }, [], `boxing a ${displayType(this.types.fromValue(value))}`);
    if (!boxed) throw new DebugError('EVALUATION_FAILED', 'boxing gave no object');
    return boxed;
  }

  /** A box of a number, char, bool or decimal, of the type `type`. */
  private async boxValue(value: CsValue | undefined, type: ClrType, place: Place): Promise<NativeValue> {
    const spec = this.types.spec(type);
    const bytes = value && rawBytes(value);
    if (!spec || bytes === undefined) throw new DebugError('EVALUATION_FAILED', `a ${displayType(type)} cannot be boxed here`);
    return this.funcEval.newObject(place.threadId, spec, `boxing a ${displayType(type)}`, bytes);
  }

  /** Strings and arrays are objects of System.String / System.Array, whose chain the runtime does not send. */
  private chainOf(value: NativeValue): NativeType[] {
    if (value.chain) return value.chain;
    const primitive = isPrimitive(value.et) ? this.types.fromValue(value) : undefined;
    const name = primitive?.kind === 'named' ? primitive.name : value.et === ElementType.string ? STRING : value.et === ElementType.szarray || value.et === ElementType.array ? 'System.Array' : undefined;
    const def = name ? this.types.definition(name) : undefined;
    return def ? [{ et: ElementType.class, module: def.module, token: token(Table.TypeDef, def.rid) }] : [];
  }

  private asNative(type: TypeRef): NativeType {
    return { et: ElementType.class, module: type.module, token: type.token, path: type.path, args: type.args };
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new DebugError('INVALID_STATE', 'the .NET program is not being debugged any more');
    return native;
  }
}

const NUMERIC_NAMES = new Set(['bool', 'char', 'sbyte', 'byte', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double', 'decimal']);

function primitiveKeyword(name: string): string | undefined {
  const keyword = Object.entries(KEYWORD_TYPES).find(([, n]) => n === name)?.[0];
  return keyword && NUMERIC_NAMES.has(keyword) ? keyword : undefined;
}

/** An element type the runtime's own array creation takes: a primitive other than decimal (bool, char, numbers, IntPtr). */
function primitiveArrayElement(t: ClrType): boolean {
  return t.kind === 'named' && t.name !== 'System.Decimal' && (primitiveKeyword(t.name) !== undefined || t.name === 'System.IntPtr' || t.name === 'System.UIntPtr');
}

function literal(value: CsValue): CallArg {
  const et = elementTypeOf(value);
  if (et === undefined) throw new DebugError('EVALUATION_FAILED', `a ${value.type} cannot be passed here`);
  return { et, v: String(value.value) };
}

/** The value's bytes as the runtime lays them out (little-endian; decimal: flags, hi32, lo64). */
export function rawBytes(value: CsValue): string | undefined {
  const b = Buffer.alloc(16);
  switch (value.type) {
    case 'bool':
      return value.value ? '01' : '00';
    case 'sbyte':
    case 'byte':
      b.writeUInt8(Number(BigInt.asUintN(8, value.value)));
      return b.subarray(0, 1).toString('hex');
    case 'char':
    case 'short':
    case 'ushort':
      b.writeUInt16LE(Number(BigInt.asUintN(16, value.value)));
      return b.subarray(0, 2).toString('hex');
    case 'int':
    case 'uint':
      b.writeUInt32LE(Number(BigInt.asUintN(32, value.value)));
      return b.subarray(0, 4).toString('hex');
    case 'long':
    case 'ulong':
      b.writeBigUInt64LE(BigInt.asUintN(64, value.value));
      return b.subarray(0, 8).toString('hex');
    case 'float':
      b.writeFloatLE(value.value);
      return b.subarray(0, 4).toString('hex');
    case 'double':
      b.writeDoubleLE(value.value);
      return b.subarray(0, 8).toString('hex');
    case 'decimal': {
      const { mantissa, scale } = value.value;
      const magnitude = mantissa < 0n ? -mantissa : mantissa;
      b.writeUInt32LE(((scale & 0xff) << 16) | (mantissa < 0n ? 0x80000000 : 0), 0);
      b.writeUInt32LE(Number(magnitude >> 64n), 4);
      b.writeBigUInt64LE(BigInt.asUintN(64, magnitude), 8);
      return b.toString('hex');
    }
    default:
      return undefined;
  }
}

/** A value typed by a bare type parameter, as overload resolution sees it: it converts to each of its constraints. */
function boundArgument(bound: BoundParam, typeArgument: ClrType | undefined): Argument {
  return { type: bound.constraints[0] ?? named(OBJECT), ...(bound.constraints.length > 1 && { alsoConvertsTo: bound.constraints.slice(1) }), ...(typeArgument && { typeArgument }) };
}

function ambiguous(what: string, args: Argument[]): DebugError {
  return new DebugError('EVALUATION_FAILED', `The call ${what}(${args.map((a) => displayType(a.type)).join(', ')}) is ambiguous between overloads`, 'Cast an argument to the parameter type of the overload you mean.');
}
