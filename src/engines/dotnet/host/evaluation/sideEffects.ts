/**
 * What an evaluation without side effects (conditions, logpoints, watches, inspect_evaluate with
 * `sideEffects: false`; Visual Studio's `, nse`) may run: no assignment but of what the expression
 * declares, and calls only of what is known not to change the program — property getters,
 * compiler-written members (records' Equals/ToString, auto-properties), LINQ's operators, members of
 * strings, numbers, dates, Math and Convert, object's ToString/Equals/GetHashCode, the read-only
 * methods of the framework's collections. Allocating is not a side effect: the framework's
 * constructors are allowed, the program's own are not (they run its code).
 *
 * Both evaluators apply these rules: the hand-written one to the method it resolved (here), the
 * compiled one to Roslyn's symbols (worker/Eval/PurityCheck.cs), which gets the lists below with each
 * request, so the two refuse the same calls in the same words.
 */
import { DebugError } from '../../../../core/errors.js';

export const PURE_CALLS = {
  /** Types whose members (but setters) change nothing (metadata names; a generic's name without its arity too). */
  types: [
    'System.Linq.Enumerable', 'System.String', 'System.Math', 'System.MathF', 'System.Char', 'System.Convert',
    'System.Enum', 'System.Guid', 'System.DateTime', 'System.DateTimeOffset', 'System.TimeSpan', 'System.DateOnly',
    'System.TimeOnly', 'System.Decimal', 'System.Nullable`1', 'System.Collections.Generic.KeyValuePair`2',
    'System.Collections.Generic.KeyValuePair', 'System.Tuple', 'System.ValueTuple', 'System.Index', 'System.Range',
    'System.StringComparer', 'System.Uri', 'System.Version', 'System.BitConverter', 'System.Array',
  ],
  /** Methods of the framework's types that only read, whatever type declares them. */
  methods: [
    'ToString', 'Equals', 'GetHashCode', 'GetType', 'CompareTo', 'ReferenceEquals',
    'Contains', 'ContainsKey', 'ContainsValue', 'IndexOf', 'LastIndexOf', 'Find', 'FindAll', 'FindIndex', 'FindLast',
    'FindLastIndex', 'Exists', 'TrueForAll', 'ToArray', 'GetRange', 'TryGetValue', 'GetValueOrDefault', 'Peek',
    'TryPeek', 'IsSubsetOf', 'IsSupersetOf', 'IsProperSubsetOf', 'IsProperSupersetOf', 'Overlaps', 'SetEquals',
    'BinarySearch', 'AsReadOnly', 'AsSpan', 'AsMemory', 'Slice',
  ],
};

const PURE_TYPES = new Set(PURE_CALLS.types);
const PURE_METHODS = new Set(PURE_CALLS.methods);
/** Types Roslyn calls special whose members it takes as reading only (object, the primitives). */
const SPECIAL_TYPES = new Set([
  'System.Object', 'System.Boolean', 'System.Char', 'System.SByte', 'System.Byte', 'System.Int16', 'System.UInt16', 'System.Int32',
  'System.UInt32', 'System.Int64', 'System.UInt64', 'System.Single', 'System.Double', 'System.IntPtr', 'System.UIntPtr', 'System.ValueType',
]);

/** The refusal both evaluators answer, `reason` saying what the expression would do ("it assigns n"). */
export function sideEffectRefusal(reason: string): DebugError {
  return new DebugError(
    'EVALUATION_FAILED',
    `the expression may change the program (${reason}); side effects are off for conditions, logpoints and watches`,
    'Evaluate it with inspect_evaluate, which runs it (sideEffects: true), if changing the program is what you want.',
    { sideEffect: reason },
  );
}

export function isFrameworkAssembly(name: string): boolean {
  return name === 'System' || name === 'mscorlib' || name === 'netstandard' || name.startsWith('System.') || name.startsWith('Microsoft.');
}

/** A method the hand-written evaluator is about to run, as its metadata tells it. */
export interface CalledMethod {
  /** The declaring assembly's name. */
  assembly: string;
  /** The declaring type's metadata name (`System.Collections.Generic.List`1`). */
  typeFullName: string;
  isValueType: boolean;
  name: string;
  /** Metadata's specialname: accessors and operators. */
  specialName: boolean;
  /** [CompilerGenerated] on the method or its property. */
  compilerGenerated: boolean;
  isConstructor: boolean;
  /** The parameter types as C# shows them. */
  params: string[];
}

/** Why calling the method may change the program (`it calls List.RemoveAll(System.Predicate<string>)`), or undefined. */
export function callSideEffect(method: CalledMethod): string | undefined {
  const typeName = method.typeFullName.replace(/`\d+$/, '').replace(/^.*[.+]/, '');
  if (method.isConstructor) {
    return isFrameworkAssembly(method.assembly) || method.compilerGenerated ? undefined : `it runs the constructor of ${typeName}`;
  }
  return isPure(method) ? undefined : `it calls ${typeName}.${method.name}(${method.params.join(', ')})`;
}

function isPure(method: CalledMethod): boolean {
  const setter = method.specialName && method.name.startsWith('set_');
  if (method.specialName && method.name.startsWith('get_')) return true;
  if (method.compilerGenerated && !setter) return true;
  if (!isFrameworkAssembly(method.assembly)) return false;
  const type = method.typeFullName;
  if (PURE_TYPES.has(type) || PURE_TYPES.has(type.split('`')[0]!)) return !method.name.startsWith('set_');
  if (SPECIAL_TYPES.has(type)) return true;
  if (PURE_METHODS.has(method.name)) return true;
  return method.specialName && method.name.startsWith('op_') && method.isValueType;
}
