/**
 * The types C# gives what an expression reads, from the metadata: a local's or argument's
 * signature in the frame's method, a field's (with the type arguments of the object holding it), a
 * method's or property getter's return type. Overload resolution and member lookup follow these, as
 * the compiler does: an `object` local holding a string is an object. In a generic method a type
 * parameter is the frame's type argument (a `List<T>` is the `List<Item>` it holds).
 */
import { type ClrType, OBJECT, substitute } from '../../expressions/clrType.js';
import { genericParameters, localVariableTypes, methodSignature } from '../../symbols/declarations.js';
import type { TypeSig } from '../../symbols/signatures.js';
import { parameterTupleNames, type TupleNames } from '../../symbols/typeMembers.js';
import { type AssemblyMetadata, typeFullName } from '../../symbols/assemblyMetadata.js';
import { Table, token, tokenRid } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { NativeType } from '../nativeEvents.js';
import type { SetTarget, TypeSpec } from '../nativeSession.js';
import type { FrameHandle } from '../stackReader.js';
import { ElementType, type NativeValue } from '../values/nativeValue.js';
import type { MethodRef, TypeCatalog } from '../values/typeCatalog.js';
import type { ClrTypes } from './clrTypes.js';
import type { BoundParam } from './evalValue.js';

export class StaticTypes {
  constructor(
    private readonly modules: ModuleRegistry,
    private readonly catalog: TypeCatalog,
    private readonly types: ClrTypes,
  ) {}

  /**
   * The declared type of a frame's variable by where it lives (undefined when it cannot be read); a
   * type parameter of the method or its class is the frame's type argument, and `bound` is what C#
   * binds members and overloads of a variable typed by a bare type parameter with: its constraint.
   */
  ofVariable(frame: FrameHandle, home: SetTarget | undefined, value: NativeValue): { declared?: ClrType; bound?: BoundParam } {
    if (!home) return {};
    const meta = this.modules.get(frame.module)?.symbols?.metadata;
    const rid = tokenRid(frame.methodToken);
    const typeRid = meta?.method(rid).declaringType;
    if (home.kind === 'field' || home.kind === 'static') {
      // A hoisted local of a generic async method or iterator: a field of the frame's own (generic) state machine.
      const sig = meta && home.module === frame.module && home.type === token(Table.TypeDef, typeRid!) ? this.catalog.view({ et: ElementType.class, module: home.module, token: home.type })?.fields.find((f) => f.token === home.field)?.type : undefined;
      return sig ? this.typed(frame, sig, meta!, rid, 0) : { declared: this.ofField(home.module, home.type, home.field) };
    }
    if ((home.kind !== 'local' && home.kind !== 'argument') || !meta) return {};
    const signature = methodSignature(meta, rid);
    if (home.kind === 'argument' && signature.hasThis && home.index === 0) {
      // `this` is of the method's class: the object's own type or the base class that declares the method.
      const name = typeFullName(meta, Table.TypeDef, typeRid!);
      const own = (value.chain ?? []).find((t) => this.catalog.view(t)?.fullName === name);
      if (own) return { declared: this.types.fromNative(own) };
      // An interface's default method: `this` is of the interface, which the object's class chain does not hold.
      if (meta.type(typeRid!).genericParams.length) return {};
      return { declared: this.types.fromNative({ et: ElementType.class, module: frame.module, token: token(Table.TypeDef, typeRid!) }) };
    }
    const sig = home.kind === 'local' ? localVariableTypes(meta, rid)[home.index] : signature.params[signature.hasThis ? home.index - 1 : home.index];
    return sig ? this.typed(frame, sig, meta, rid, signature.genericParams) : {};
  }

  /** A signature of the frame's method or class with the frame's type arguments, and a bare type parameter's constraint. */
  private typed(frame: FrameHandle, sig: TypeSig, meta: AssemblyMetadata, methodRid: number, methodArity: number): { declared?: ClrType; bound?: BoundParam } {
    const args = (frame.typeArgs ?? []).map((t) => this.types.fromNative(t));
    const split = args.length - methodArity;
    const [classArgs, methodArgs] = split >= 0 ? [args.slice(0, split), args.slice(split)] : [[], []];
    const declared = substitute(this.types.fromSig(sig, meta), classArgs, methodArgs);
    if (sig.kind !== 'var' && sig.kind !== 'mvar') return { declared };
    const owner = sig.kind === 'mvar' ? ([Table.MethodDef, methodRid] as const) : ([Table.TypeDef, meta.method(methodRid).declaringType] as const);
    const param = genericParameters(meta, owner[0], owner[1])[sig.index];
    const constraints = (param?.constraints ?? []).map((tok) => substitute(this.types.fromToken(tok, meta), classArgs, methodArgs)).filter((c) => !(c.kind === 'named' && (c.name === OBJECT || c.name === 'System.ValueType')));
    // The class constraint first: C# finds members in the effective base class before the interfaces.
    const ordered = [...constraints.filter((c) => !this.types.isInterface(c)), ...constraints.filter((c) => this.types.isInterface(c))];
    return { declared, bound: { name: param?.name ?? `T${sig.index}`, constraints: ordered } };
  }

  /** A field's declared type; a generic class's type parameters from the object holding it. */
  ofField(module: number, type: number, field: number, owner?: NativeValue): ClrType | undefined {
    const view = this.catalog.view({ et: ElementType.class, module, token: type });
    const info = view?.fields.find((f) => f.token === field);
    if (!view || !info) return undefined;
    const declaring = owner?.chain?.find((t) => t.module === module && t.token === type);
    return substitute(this.types.fromSig(info.type, view.meta), declaring ? this.typeArgsOf(declaring) : []);
  }

  /** The type a method returns to its caller; `typeArgs` its class's, `methodArgs` its own. */
  returnType(method: MethodRef, typeArgs: ClrType[], methodArgs: ClrType[] = []): ClrType | undefined {
    const view = this.catalog.view({ et: ElementType.class, module: method.declaringModule, token: method.declaringType });
    if (!view) return undefined;
    const sig = method.sig.returnType.kind === 'other' ? methodSignature(view.meta, tokenRid(method.token)).returnType : method.sig.returnType;
    return substitute(this.types.fromSig(sig, view.meta), typeArgs, methodArgs);
  }

  /** A tuple-typed field's element names (`(int count, string label) Best`). */
  fieldTupleNames(module: number, type: number, field: number): TupleNames | undefined {
    return this.catalog.view({ et: ElementType.class, module, token: type })?.fields.find((f) => f.token === field)?.tupleNames;
  }

  /** The element names of the tuple a method returns (`(int low, int high) Range()`). */
  returnTupleNames(method: MethodRef): TupleNames | undefined {
    const meta = this.modules.metadata(method.module);
    return meta && parameterTupleNames(meta, tokenRid(method.token), 0);
  }

  /**
   * A struct that a func-eval of shared generic code returned comes typed as the runtime shares the code
   * (`ValueTuple<__Canon, int>` from a List<(string, int)>'s indexer): its declared type is the exact one.
   */
  exact(value: NativeValue, declared: ClrType | undefined): NativeValue {
    const type = value.chain?.[0];
    if (!declared || value.et !== ElementType.valuetype || !type || !JSON.stringify(this.types.fromNative(type)).includes('"System.__Canon"')) return value;
    const exact = nativeOf(this.types.spec(declared));
    return exact ? { ...value, type: exact, chain: [exact, ...value.chain!.slice(1)] } : value;
  }

  fromNative(type: NativeType): ClrType {
    return this.types.fromNative(type);
  }

  /** A runtime type's type arguments. */
  typeArgsOf(type: NativeType): ClrType[] {
    const clr = this.types.fromNative(type);
    return clr.kind === 'named' ? clr.args : [];
  }
}

/** A type the program's func-evals take, as the runtime reports types. */
function nativeOf(spec: TypeSpec | undefined): NativeType | undefined {
  if (!spec) return undefined;
  if ('of' in spec) return { et: spec.of };
  if ('elem' in spec) {
    const elem = nativeOf(spec.elem);
    return elem && { et: spec.rank ? ElementType.array : ElementType.szarray, elem, ...(spec.rank && { rank: spec.rank }) };
  }
  const args = (spec.args ?? []).map(nativeOf);
  if (args.some((a) => !a)) return undefined;
  return { et: spec.valuetype ? ElementType.valuetype : ElementType.class, module: spec.module, token: spec.token, ...(args.length && { args: args as NativeType[] }) };
}
