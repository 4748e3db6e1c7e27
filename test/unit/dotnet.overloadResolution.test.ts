/**
 * C#'s overload resolution over metadata types, as pure logic: a small table of framework types
 * stands in for the program's metadata. Each case is one the debugger once answered wrong (a
 * Concat(object) for a list, a Join(string, string[]) for a list) or must refuse.
 */
import { describe, expect, it } from 'vitest';
import { type ClrType, displayType, named } from '../../src/engines/dotnet/expressions/clrType.js';
import { type Argument, brokenConstraint, type Candidate, resolveOverload, type TypeFacts } from '../../src/engines/dotnet/expressions/overloadResolution.js';

const T0: ClrType = { kind: 'param', method: true, index: 0 };
const string = named('System.String');
const object = named('System.Object');
const int = named('System.Int32');
const long = named('System.Int64');
const uint = named('System.UInt32');
const double = named('System.Double');
const decimal = named('System.Decimal');
const ienum = (t: ClrType) => named('System.Collections.Generic.IEnumerable`1', [t]);
const list = (t: ClrType) => named('System.Collections.Generic.List`1', [t]);
const array = (t: ClrType): ClrType => ({ kind: 'array', elem: t, rank: 1 });
const comparable = (t: ClrType) => named('System.IComparable`1', [t]);
const equatable = (t: ClrType) => named('System.IEquatable`1', [t]);
const span = (why = 'a span parameter'): ClrType => ({ kind: 'unusable', why });

const VALUE_TYPES = new Set(['System.Nullable`1', 'System.Int32', 'System.Int64', 'System.UInt32', 'System.Double', 'System.Decimal', 'System.Char', 'System.DateTime']);

const facts: TypeFacts = {
  supertypes(t) {
    if (t.kind === 'array') return [named('System.Array'), ienum(t.elem)];
    if (t.kind !== 'named') return [];
    switch (t.name) {
      case 'System.Collections.Generic.List`1':
        return [object, named('System.Collections.Generic.IList`1', t.args), ienum(t.args[0]!)];
      case 'System.Collections.Generic.IList`1':
        return [ienum(t.args[0]!)];
      case 'System.String':
        return [object, ienum(named('System.Char')), named('System.IComparable'), comparable(t), equatable(t)];
      case 'System.Int32':
        return [named('System.ValueType'), named('System.IComparable'), comparable(t), equatable(t)];
      case 'System.Object':
        return [];
      default:
        return VALUE_TYPES.has(t.name) ? [named('System.ValueType'), named('System.IComparable')] : [object];
    }
  },
  isValueType: (t) => t.kind === 'named' && VALUE_TYPES.has(t.name),
  isInterface: (t) => t.kind === 'named' && /\.I[A-Z]/.test(t.name),
  isEnum: () => false,
  variance: (name) => (name === 'System.Collections.Generic.IEnumerable`1' ? 'out' : undefined),
};

const m = (label: string, params: ClrType[], options: Partial<Candidate<string>> = {}): Candidate<string> => ({ method: label, params, genericArity: 0, paramArray: false, ...options });
const arg = (type: ClrType, constant?: Argument['constant']): Argument => ({ type, ...(constant && { constant }) });
const intConst = (n: number): Argument => arg(int, { type: 'int', value: BigInt(n), constant: true });

function pick(candidates: Candidate<string>[], args: Argument[], explicit?: ClrType[]): string {
  const r = resolveOverload(candidates, args, facts, explicit);
  if ('error' in r) return r.why ?? `${r.error}: ${r.candidates.join(', ')}`;
  const { method, typeArgs, expanded } = r.chosen;
  return `${method}${typeArgs.length ? `<${typeArgs.map((t) => displayType(t)).join(', ')}>` : ''}${expanded ? ` expanded from ${expanded.from}` : ''}`;
}

// String.Join's and String.Concat's overloads as .NET 10 declares them (spans cannot be passed from a debugger).
const JOIN = [
  m('Join(char, object[])', [named('System.Char'), array(object)], { paramArray: true }),
  m('Join(char, string[])', [named('System.Char'), array(string)], { paramArray: true }),
  m('Join(string, IEnumerable<string>)', [string, ienum(string)]),
  m('Join(string, object[])', [string, array(object)], { paramArray: true }),
  m('Join(string, string[])', [string, array(string)], { paramArray: true }),
  m('Join(string, ReadOnlySpan<string>)', [string, span()]),
  m('Join<T>(string, IEnumerable<T>)', [string, ienum(T0)], { genericArity: 1 }),
];
const CONCAT = [
  m('Concat(object)', [object]),
  m('Concat(IEnumerable<string>)', [ienum(string)]),
  m('Concat(string[])', [array(string)], { paramArray: true }),
  m('Concat(object[])', [array(object)], { paramArray: true }),
  m('Concat<T>(IEnumerable<T>)', [ienum(T0)], { genericArity: 1 }),
];

describe('C# overload resolution', () => {
  it('takes the overload C# takes among generic and non-generic candidates', () => {
    expect(pick(JOIN, [arg(string), arg(list(string))])).toBe('Join(string, IEnumerable<string>)');
    expect(pick(JOIN, [arg(string), arg(list(int))])).toBe('Join<T>(string, IEnumerable<T>)<int>');
    expect(pick(JOIN, [arg(string), arg(array(string))])).toBe('Join(string, string[])');
    expect(pick(JOIN, [arg(string), arg(array(int))])).toBe('Join<T>(string, IEnumerable<T>)<int>');
    expect(pick(CONCAT, [arg(list(string))])).toBe('Concat(IEnumerable<string>)');
    expect(pick(CONCAT, [arg(int)])).toBe('Concat(object)');
  });

  it('expands params arrays, preferring the normal form', () => {
    expect(pick(JOIN, [arg(string), intConst(1), intConst(2), intConst(3)])).toBe('Join(string, object[]) expanded from 1');
    expect(pick(JOIN, [arg(string), arg(string), arg(string)])).toBe('Join(string, string[]) expanded from 1');
    expect(pick(CONCAT, [arg(array(string))])).toBe('Concat(string[])');
    expect(pick([m('F(params int[])', [array(int)], { paramArray: true })], [])).toBe('F(params int[]) expanded from 0');
  });

  it('takes explicit type arguments, and refuses a generic method whose type arguments cannot be inferred', () => {
    expect(pick(JOIN, [arg(string), arg(array(int))], [int])).toBe('Join<T>(string, IEnumerable<T>)<int>');
    expect(pick([m('Empty<T>()', [], { genericArity: 1, name: 'Store.Empty', typeParams: [{ name: 'T', constraints: [] }] })], [])).toBe(
      "CS0411 The type arguments for method 'Store.Empty<T>()' cannot be inferred from the usage. Try specifying the type arguments explicitly.",
    );
    expect(pick([m('Empty<T>()', [], { genericArity: 1 })], [], [string])).toBe('Empty<T>()<string>');
  });

  it('prefers better conversions: exact, then the narrower target, signed over unsigned', () => {
    const max = [m('Max(int, int)', [int, int]), m('Max(long, long)', [long, long]), m('Max(double, double)', [double, double]), m('Max(decimal, decimal)', [decimal, decimal]), m('Max(uint, uint)', [uint, uint])];
    expect(pick(max, [intConst(3), intConst(7)])).toBe('Max(int, int)');
    expect(pick(max, [arg(long), intConst(7)])).toBe('Max(long, long)');
    expect(pick(max, [arg(double), intConst(7)])).toBe('Max(double, double)');
    expect(pick(max, [arg(decimal), intConst(1)])).toBe('Max(decimal, decimal)');
    expect(pick(max, [arg(uint), intConst(1)])).toBe('Max(uint, uint)');
  });

  it('refuses what C# refuses: no applicable overload, an ambiguous call, a span parameter', () => {
    expect(pick([m('F(int)', [int])], [arg(string)])).toBe('none: F(int)');
    expect(pick([m('F(int)', [int])], [arg(long)])).toBe('none: F(int)');
    expect(pick([m('F(object, string)', [object, string]), m('F(string, object)', [string, object])], [arg(string), arg(string)])).toBe('ambiguous: F(object, string), F(string, object)');
    expect(pick([m('F(ReadOnlySpan<char>)', [span()])], [arg(string)])).toBe('none: F(ReadOnlySpan<char>)');
    expect(pick([m('F(int)', [int])], [arg({ kind: 'null' })])).toBe('none: F(int)');
    expect(pick([m('F(string)', [string])], [arg({ kind: 'null' })])).toBe('F(string)');
  });

  it('converts through interfaces and variance, and boxes value types for object', () => {
    expect(pick([m('F(IEnumerable<object>)', [ienum(object)])], [arg(list(string))])).toBe('F(IEnumerable<object>)');
    expect(pick([m('F(IEnumerable<object>)', [ienum(object)])], [arg(list(int))])).toBe('none: F(IEnumerable<object>)');
    expect(pick([m('F(object)', [object]), m('F(IComparable)', [named('System.IComparable')])], [arg(int)])).toBe('F(IComparable)');
    expect(pick([m('F(object[])', [array(object)])], [arg(array(string))])).toBe('F(object[])');
    expect(pick([m('F(object[])', [array(object)])], [arg(array(int))])).toBe('none: F(object[])');
  });

  describe('generic methods with constraints', () => {
    // static T Largest<T>(IEnumerable<T> items) where T : IComparable<T>, IEquatable<T>
    const largest = m('Largest', [ienum(T0)], { genericArity: 1, name: 'Pricing.Ranking.Largest', typeParams: [{ name: 'T', constraints: [comparable(T0), equatable(T0)] }] });
    const shown = "'Pricing.Ranking.Largest<T>(System.Collections.Generic.IEnumerable<T>)'";

    it('infers T from the arguments and checks every constraint', () => {
      expect(pick([largest], [arg(list(int))])).toBe('Largest<int>');
      expect(pick([largest], [arg(array(string))])).toBe('Largest<string>');
    });

    it.each([
      ['a reference type lacking a constraint (CS0311)', list(object), `CS0311 The type 'object' cannot be used as type parameter 'T' in the generic type or method ${shown}. There is no implicit reference conversion from 'object' to 'System.IComparable<object>'.`],
      ['a value type lacking a constraint (CS0315)', list(decimal), `CS0315 The type 'decimal' cannot be used as type parameter 'T' in the generic type or method ${shown}. There is no boxing conversion from 'decimal' to 'System.IComparable<decimal>'.`],
      ['a nullable value type, which no interface constraint takes (CS0313)', list(named('System.Nullable`1', [int])), `CS0313 The type 'int?' cannot be used as type parameter 'T' in the generic type or method ${shown}. The nullable type 'int?' does not satisfy the constraint of 'System.IComparable<int?>'. Nullable types can not satisfy any interface constraints.`],
      ['an argument T cannot be inferred from (CS0411)', int, `CS0411 The type arguments for method ${shown} cannot be inferred from the usage. Try specifying the type arguments explicitly.`],
    ])('refuses %s as the compiler words it, naming T', (_what, given, expected) => {
      expect(pick([largest], [arg(given)])).toBe(expected);
    });

    it('checks class and struct constraints, and explicit type arguments too', () => {
      const byRef = m('Keep', [T0], { genericArity: 1, name: 'Store.Keep', typeParams: [{ name: 'TItem', constraints: [], referenceType: true }] });
      const byValue = m('Pack', [T0], { genericArity: 1, name: 'Store.Pack', typeParams: [{ name: 'TItem', constraints: [], valueType: true }] });
      expect(pick([byRef], [arg(int)])).toBe("CS0452 The type 'int' must be a reference type in order to use it as parameter 'TItem' in the generic type or method 'Store.Keep<TItem>(TItem)'");
      expect(pick([byValue], [arg(string)])).toBe("CS0453 The type 'string' must be a non-nullable value type in order to use it as parameter 'TItem' in the generic type or method 'Store.Pack<TItem>(TItem)'");
      expect(pick([byValue], [arg(int)])).toBe('Pack<int>');
      expect(pick([largest], [arg(list(object))], [object])).toMatch(/^CS0311 /);
    });

    it("checks a generic type's constraints, which name the type's own parameters", () => {
      const sorted = { name: 'Store.Sorted', typeParams: [{ name: 'T', constraints: [comparable({ kind: 'param', method: false, index: 0 })] }] };
      expect(brokenConstraint(sorted, [int], facts)).toBeUndefined();
      expect(brokenConstraint(sorted, [object], facts)).toBe(
        "CS0311 The type 'object' cannot be used as type parameter 'T' in the generic type or method 'Store.Sorted<T>'. There is no implicit reference conversion from 'object' to 'System.IComparable<object>'.",
      );
    });

    it('drops a candidate whose constraints fail and takes the one C# takes among the rest', () => {
      const describe = [m('Describe<T>(T) where T : struct', [T0], { genericArity: 1, typeParams: [{ name: 'T', constraints: [], valueType: true }] }), m('Describe(object)', [object])];
      expect(pick(describe, [arg(string)])).toBe('Describe(object)');
      expect(pick(describe, [arg(int)])).toBe('Describe<T>(T) where T : struct<int>');
    });

    it('converts a value typed by a type parameter to each of its constraints', () => {
      const take = [m('Take(IEquatable<int>)', [equatable(int)])];
      expect(pick(take, [{ type: comparable(int), alsoConvertsTo: [equatable(int)] }])).toBe('Take(IEquatable<int>)');
      expect(pick(take, [{ type: comparable(int) }])).toBe('none: Take(IEquatable<int>)');
    });

    it('infers a generic method\'s type parameter from a value typed by a type parameter as that parameter (its type argument), not as its constraint', () => {
      const typed: Argument = { type: comparable(int), alsoConvertsTo: [equatable(int)], typeArgument: int };
      expect(pick([m('Repeat', [T0, int], { genericArity: 1 })], [typed, intConst(2)])).toBe('Repeat<int>');
      // Math.Round(t) where t : T is refused as C# refuses it, whatever T is at run time.
      expect(pick([m('Round(int)', [int])], [typed])).toBe('none: Round(int)');
    });
  });
});
