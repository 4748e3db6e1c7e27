/**
 * What a C# (sub)expression evaluates to in the debugger: a C# value the evaluator computes with
 * (constants, and primitives, strings, decimals and enums read from the program), an object of the
 * program, a type or namespace name on its way to a static member, or nothing (a void call).
 */
import type { ClrType } from '../../expressions/clrType.js';
import { boolValue, integralValue, floatingValue, nullValue, stringValue, type CsValue } from '../../expressions/numeric.js';
import type { Imports } from '../../symbols/importScopes.js';
import type { TupleNames } from '../../symbols/typeMembers.js';
import type { NativeType } from '../nativeEvents.js';
import { ElementType, isPrimitive, type NativeValue } from '../values/nativeValue.js';

/** Where a name is looked up: the method's namespace and what its source file imports. */
export interface NameContext {
  namespace: string;
  imports?: Imports;
  /** The frame's type parameters (its class's and its method's): names the compiled evaluation binds (`T`). */
  typeParameters?: string[];
}

/** Where member reads and calls run: the stopped thread and frame, and the names its source file sees. */
export interface Place {
  threadId: number;
  frameIndex: number;
  names?: NameContext;
  /** False: refuse a call that may change the program (sideEffects.ts). */
  sideEffects?: boolean;
}

export interface TypeRef {
  module: number;
  token: number;
  path?: string;
  /** C# name, for messages. */
  name: string;
  /** Type arguments (generic types named with them). */
  args: NativeType[];
}

/**
 * The type C# sees an expression as, which overloads, extension methods and members follow (an
 * `object` local holding a string is an object): the type a local, field, property, method or cast
 * declares (staticTypes.ts). Absent: not known (C#'s choice may then differ from the object's type's).
 */
export type Declared = ClrType;

/** A bare type parameter as C# binds a variable of its type: its name, and its constraints (class first, then interfaces; none: object). */
export interface BoundParam {
  name: string;
  constraints: ClrType[];
}

/** A variable typed by a bare type parameter: its constraints, which C# binds its members and overloads by first. */
export type Bound = { bound?: BoundParam };

export type EvalValue =
  /** `origin`: the program's own value, when it came from the program (a struct's `this`, an argument). */
  | ({ kind: 'value'; value: CsValue; origin?: NativeValue; enumType?: NativeType; declared?: Declared } & Bound)
  /** `tupleNames`: a tuple variable's element names, from its declaration (`(int count, string label)`). */
  | ({ kind: 'object'; value: NativeValue; declared?: Declared; tupleNames?: TupleNames } & Bound)
  | { kind: 'type'; type: TypeRef }
  | { kind: 'namespace'; name: string }
  | { kind: 'void' };

const INTEGRAL: Record<number, 'sbyte' | 'byte' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong' | 'char'> = {
  [ElementType.char]: 'char',
  [ElementType.i1]: 'sbyte',
  [ElementType.u1]: 'byte',
  [ElementType.i2]: 'short',
  [ElementType.u2]: 'ushort',
  [ElementType.i4]: 'int',
  [ElementType.u4]: 'uint',
  [ElementType.i8]: 'long',
  [ElementType.u8]: 'ulong',
  [ElementType.i]: 'long',
  [ElementType.u]: 'ulong',
};

/** A value read from the program: primitives and strings become C# values, the rest stays an object. */
export function fromNative(value: NativeValue, declared?: Declared, tupleNames?: TupleNames): EvalValue {
  const typed = declared ? { declared } : {};
  if (value.null) return { kind: 'object', value, ...typed };
  const et = value.et;
  if (et === ElementType.boolean) return { kind: 'value', value: boolValue(value.v === 'true'), origin: value, ...typed };
  if (et === ElementType.r4 || et === ElementType.r8) return { kind: 'value', value: floatingValue(et === ElementType.r4 ? 'float' : 'double', Number(value.v)), origin: value, ...typed };
  if (isPrimitive(et) && INTEGRAL[et!]) return { kind: 'value', value: integralValue(INTEGRAL[et!]!, BigInt(value.v ?? '0')), origin: value, ...typed };
  return { kind: 'object', value, ...typed, ...(tupleNames && { tupleNames }) };
}

/** The declared type when it is known and closed (no type parameter left open), else undefined. */
export function knownDeclared(value: EvalValue): ClrType | undefined {
  if ((value.kind !== 'object' && value.kind !== 'value') || !value.declared) return undefined;
  return isConcrete(value.declared) ? value.declared : undefined;
}

function isConcrete(t: ClrType): boolean {
  if (t.kind === 'named') return t.args.every(isConcrete);
  if (t.kind === 'array') return isConcrete(t.elem);
  return false;
}

/** The CorElementType of a C# value's type, for passing it to the program. */
export function elementTypeOf(value: CsValue): number | undefined {
  switch (value.type) {
    case 'bool':
      return ElementType.boolean;
    case 'char':
      return ElementType.char;
    case 'sbyte':
      return ElementType.i1;
    case 'byte':
      return ElementType.u1;
    case 'short':
      return ElementType.i2;
    case 'ushort':
      return ElementType.u2;
    case 'int':
      return ElementType.i4;
    case 'uint':
      return ElementType.u4;
    case 'long':
      return ElementType.i8;
    case 'ulong':
      return ElementType.u8;
    case 'float':
      return ElementType.r4;
    case 'double':
      return ElementType.r8;
    default:
      return undefined;
  }
}

export const isNullValue = (v: EvalValue) => (v.kind === 'object' && !!v.value.null) || (v.kind === 'value' && v.value.type === 'null');
export const nullEval = (): EvalValue => ({ kind: 'value', value: nullValue() });
export const stringEval = (text: string): EvalValue => ({ kind: 'value', value: stringValue(text) });
export const boolEval = (b: boolean): EvalValue => ({ kind: 'value', value: boolValue(b) });
