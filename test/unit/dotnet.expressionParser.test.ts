/**
 * The C# expression parser: precedence and associativity, every literal form (values checked
 * against C#), casts and generics told apart as C# does, patterns, null-conditional chains,
 * interpolated strings, round trips through the printer, and every refusal with its position.
 */
import { describe, expect, it } from 'vitest';
import type { Expr, Pattern } from '../../src/engines/dotnet/expressions/ast.js';
import { evaluateUnary, formatValue } from '../../src/engines/dotnet/expressions/numeric.js';
import { CSharpSyntaxError, parseExpression } from '../../src/engines/dotnet/expressions/parser.js';
import { printExpression, printLiteral, printType } from '../../src/engines/dotnet/expressions/printer.js';
import { LITERALS } from './dotnet.csharpFacts.js';

/** The tree as an S-expression, spans left out: `(+ a (* b c))`. */
function tree(e: Expr): string {
  const all = (args: Expr[]) => args.map((a) => ` ${tree(a)}`).join('');
  const targs = (t: { typeArguments: Parameters<typeof printType>[0][] }) => (t.typeArguments.length ? `<${t.typeArguments.map(printType).join(', ')}>` : '');
  switch (e.kind) {
    case 'literal':
      return printLiteral(e.value);
    case 'name':
      return e.name + targs(e);
    case 'pseudoVariable':
    case 'predefinedType':
      return e.name;
    case 'this':
    case 'base':
      return e.kind;
    case 'memberAccess':
      return `(. ${tree(e.target)} ${e.name}${targs(e)})`;
    case 'memberBinding':
      return `(.b ${e.name}${targs(e)})`;
    case 'elementAccess':
      return `([] ${tree(e.target)}${all(e.arguments)})`;
    case 'elementBinding':
      return `([]b${all(e.arguments)})`;
    case 'invocation':
      return `(call ${tree(e.target)}${all(e.arguments)})`;
    case 'conditionalAccess':
      return `(?. ${tree(e.target)} ${tree(e.whenNotNull)})`;
    case 'unary':
      return `(${e.operator} ${tree(e.operand)})`;
    case 'binary':
      return `(${e.operator} ${tree(e.left)} ${tree(e.right)})`;
    case 'conditional':
      return `(? ${tree(e.condition)} ${tree(e.whenTrue)} ${tree(e.whenFalse)})`;
    case 'cast':
      return `(cast ${printType(e.type)} ${tree(e.operand)})`;
    case 'is':
      return `(is ${tree(e.operand)} ${pattern(e.pattern)})`;
    case 'as':
      return `(as ${tree(e.operand)} ${printType(e.type)})`;
    case 'typeof':
    case 'sizeof':
      return `(${e.kind} ${printType(e.type)})`;
    case 'default':
      return e.type ? `(default ${printType(e.type)})` : 'default';
    case 'nameof':
      return `(nameof ${tree(e.argument)} "${e.name}")`;
    case 'objectCreation':
      return `(new ${printType(e.type)}${all(e.arguments)}${e.initializer ? ` {${all(e.initializer)} }` : ''})`;
    case 'arrayCreation':
      return `(new[] ${e.elementType ? printType(e.elementType) : '?'}${e.size ? ` [${tree(e.size)}]` : ''}${e.items ? ` {${all(e.items)} }` : ''})`;
    case 'interpolatedString':
      return `($${e.parts.map((p) => (p.kind === 'text' ? ` ${JSON.stringify(p.text)}` : ` {${tree(p.expression)}${p.alignment !== undefined ? ` ,${p.alignment}` : ''}${p.format !== undefined ? ` :${p.format}` : ''}}`)).join('')})`;
  }
}

function pattern(p: Pattern): string {
  if (p.kind === 'typePattern') return `type ${printType(p.type)}`;
  if (p.kind === 'constantPattern') return `const ${tree(p.value)}`;
  return `(not ${pattern(p.pattern)})`;
}

const shapes = (cases: [string, string][]) => expect(cases.map(([text]) => [text, tree(parseExpression(text))])).toEqual(cases);

describe('C# expression parser', () => {
  it('follows C#\'s precedence and associativity', () => {
    shapes([
      ['a + b * c', '(+ a (* b c))'],
      ['a * b + c', '(+ (* a b) c)'],
      ['a - b - c', '(- (- a b) c)'],
      ['a / b % c * d', '(* (% (/ a b) c) d)'],
      ['a << b + c', '(<< a (+ b c))'],
      ['a >> b >> c', '(>> (>> a b) c)'],
      ['a >>> b << c', '(<< (>>> a b) c)'],
      ['a < b << c', '(< a (<< b c))'],
      ['a == b < c', '(== a (< b c))'],
      ['a == b != c', '(!= (== a b) c)'],
      ['a & b == c', '(& a (== b c))'],
      ['a ^ b & c', '(^ a (& b c))'],
      ['a | b ^ c', '(| a (^ b c))'],
      ['a && b | c', '(&& a (| b c))'],
      ['a || b && c', '(|| a (&& b c))'],
      ['a ?? b || c', '(?? a (|| b c))'],
      ['a ?? b ?? c', '(?? a (?? b c))'],
      ['a ?? b ? c : d', '(? (?? a b) c d)'],
      ['a ? b : c ? d : e', '(? a b (? c d e))'],
      ['a ? b ? c : d : e', '(? a (? b c d) e)'],
      ['(a + b) * c', '(* (+ a b) c)'],
      ['-a * b', '(* (- a) b)'],
      ['!a && b', '(&& (! a) b)'],
      ['~a ^ -b', '(^ (~ a) (- b))'],
      ['- -a', '(- (- a))'],
      ['a - -1', '(- a (- 1))'],
      ['-a.b', '(- (. a b))'],
      ['(int)a.b', '(cast int (. a b))'],
      ['(int)a + b', '(+ (cast int a) b)'],
      ['a is string == b', '(== (is a type string) b)'],
      ['a < b is bool', '(is (< a b) type bool)'],
      ['a as string ?? b', '(?? (as a string) b)'],
      ['f(a)(b)', '(call (call f a) b)'],
      ['a[1][2, 3]', '([] ([] a 1) 2 3)'],
      ['a.b.c(d).e', '(. (call (. (. a b) c) d) e)'],
      ['x;', 'x'],
    ]);
  });

  it('reads every literal form with the value and type C# gives it', () => {
    const read = (text: string) => {
      const e = parseExpression(text);
      const v = e.kind === 'unary' && e.operand.kind === 'literal' ? evaluateUnary(e.operator, e.operand.value) : e.kind === 'literal' ? e.value : undefined;
      if (!v) throw new Error(`${text} is not a literal`);
      return [text, v.type, v.type === 'char' ? String(v.value) : v.type === 'null' ? 'null' : formatValue(v)];
    };
    expect(LITERALS.map(([text]) => read(text))).toEqual(LITERALS);
    expect(parseExpression('-2147483648')).toMatchObject({ kind: 'literal', value: { type: 'int', value: -2147483648n } });
    expect(parseExpression('-9223372036854775808L')).toMatchObject({ kind: 'literal', value: { type: 'long', value: -(2n ** 63n) } });
    expect(tree(parseExpression('-(2147483648)'))).toBe('(- 2147483648U)');
    expect(tree(parseExpression('a?.5:1'))).toBe('(? a 0.5 1)');
    expect(tree(parseExpression('1.ToString()'))).toBe('(call (. 1 ToString))');
  });

  it('tells casts from parenthesised expressions as C# does (§12.9.7)', () => {
    shapes([
      ['(int)-x', '(cast int (- x))'],
      ['(a)-x', '(- a x)'],
      ['(a) + x', '(+ a x)'],
      ['(a)x', '(cast a x)'],
      ['(a)(x)', '(cast a x)'],
      ['(a)!x', '(cast a (! x))'],
      ['(a)~x', '(cast a (~ x))'],
      ['(a)"s"', '(cast a "s")'],
      ['(a)null', '(cast a null)'],
      ['(a)this', '(cast a this)'],
      ['(a).b', '(. a b)'],
      ['(a)[0]', '([] a 0)'],
      ['(a) is int', '(is a type int)'],
      ['(A.B)x', '(cast A.B x)'],
      ['(A.B)-x', '(- (. A B) x)'],
      ['(int?)x', '(cast int? x)'],
      ['(Namespace.Type?)x', '(cast Namespace.Type? x)'],
      ['(int[])-x', '(cast int[] (- x))'],
      ['(int[][,])x', '(cast int[][,] x)'],
      ['(List<string>)o', '(cast List<string> o)'],
      ['(Dictionary<string, List<int>>)o', '(cast Dictionary<string, List<int>> o)'],
      ['(nint)x', '(cast nint x)'],
      ['((int)x).ToString()', '(call (. (cast int x) ToString))'],
    ]);
  });

  it('tells type arguments from comparisons as C# does (§6.2.5)', () => {
    shapes([
      ['F<int>(x)', '(call F<int> x)'],
      ['a.M<int, string>(x)', '(call (. a M<int, string>) x)'],
      ['F(G<A, B>(7))', '(call F (call G<A, B> 7))'],
      ['F(G < A, B > 7)', '(call F (< G A) (> B 7))'],
      ['a < b > c', '(> (< a b) c)'],
      ['List<List<int>>.Count', '(. List<List<int>> Count)'],
      ['EqualityComparer<int>.Default', '(. EqualityComparer<int> Default)'],
      ['x < y', '(< x y)'],
    ]);
  });

  it('reads is, as and patterns, and `?` after a type only when nothing can follow as an expression', () => {
    shapes([
      ['x is string', '(is x type string)'],
      ['x is null', '(is x const null)'],
      ['x is not null', '(is x (not const null))'],
      ['x is not string', '(is x (not type string))'],
      ['x is 5', '(is x const 5)'],
      ['x is -1', '(is x const (- 1))'],
      ['x is "s"', '(is x const "s")'],
      ['x is Color.Red', '(is x type Color.Red)'],
      ['x is int ? 1 : 2', '(? (is x type int) 1 2)'],
      ['x is int? ? 1 : 2', '(? (is x type int?) 1 2)'],
      ['x as int? ?? 0', '(?? (as x int?) 0)'],
      ['c ? x as string : y', '(? c (as x string) y)'],
      ['x is int[]', '(is x type int[])'],
    ]);
  });

  it('builds null-conditional chains the way Roslyn does', () => {
    shapes([
      ['a?.b', '(?. a (.b b))'],
      ['a?.b.c', '(?. a (. (.b b) c))'],
      ['a?.b?.c', '(?. a (?. (.b b) (.b c)))'],
      ['a?[0]', '(?. a ([]b 0))'],
      ['a?[0].b', '(?. a (. ([]b 0) b))'],
      ['a?.M()', '(?. a (call (.b M)))'],
      ['a?.M<int>(1)', '(?. a (call (.b M<int>) 1))'],
      ['a.b?.c.d', '(?. (. a b) (. (.b c) d))'],
      ['(a?.b).c', '(. (?. a (.b b)) c)'],
      ['x!.Length', '(. x Length)'],
    ]);
  });

  it('reads the keyword forms, names, this/base and pseudo-variables', () => {
    shapes([
      ['typeof(int)', '(typeof int)'],
      ['typeof(void)', '(typeof void)'],
      ['typeof(Dictionary<string, int[]>)', '(typeof Dictionary<string, int[]>)'],
      ['sizeof(decimal)', '(sizeof decimal)'],
      ['default(int?)', '(default int?)'],
      ['x == default', '(== x default)'],
      ['nameof(order.Total)', '(nameof (. order Total) "Total")'],
      ['nameof(List<int>)', '(nameof List<int> "List")'],
      ['int.MaxValue', '(. int MaxValue)'],
      ['string.Join(",", xs)', '(call (. string Join) "," xs)'],
      ['this.x + base.y', '(+ (. this x) (. base y))'],
      ['base[0]', '([] base 0)'],
      ['$exception.Message', '(. $exception Message)'],
      ['$returnValue', '$returnValue'],
      ['@class + @int', '(+ class int)'],
      ['System.Math.Max(1, 2)', '(call (. (. System Math) Max) 1 2)'],
      ['d["key"]', '([] d "key")'],
    ]);
  });

  it('reads object and array creation: constructors, collection initializers, typed and implicitly typed arrays', () => {
    shapes([
      ['new DateTime(2026, 1, 1)', '(new DateTime 2026 1 1)'],
      ['new Order(7).Id', '(. (new Order 7) Id)'],
      ['new List<int> { 1, 2 }', '(new List<int> { 1 2 })'],
      ['new List<int>() { 1, 2, }', '(new List<int> { 1 2 })'],
      ['new object()', '(new object)'],
      ['new[] { "a", "b" }', '(new[] ? { "a" "b" })'],
      ['new int[] { 1 }', '(new[] int { 1 })'],
      ['new string[n + 1]', '(new[] string [(+ n 1)])'],
      ['new int[2] { 1, 2 }', '(new[] int [2] { 1 2 })'],
    ]);
  });

  it('reads interpolated strings with their holes, alignments and formats', () => {
    shapes([
      ['$"x={x,10:F2} y={y}"', '($ "x=" {x ,10 :F2} " y=" {y})'],
      ['$"{a,-5}|{b:yyyy-MM-dd HH:mm}"', '($ {a ,-5} "|" {b :yyyy-MM-dd HH:mm})'],
      ['$"{{literal}} {x}"', '($ "{literal} " {x})'],
      ['$"tab\\t{x}"', '($ "tab\\t" {x})'],
      ['$@"C:\\dir\\{name}"', '($ "C:\\\\dir\\\\" {name})'],
      ['@$"""{q}"""', '($ "\\"" {q} "\\"")'],
      ['$"{d["k"]} {$"{n}"}"', '($ {([] d "k")} " " {($ {n})})'],
      ['$"{(a ? b : c)}"', '($ {(? a b c)})'],
      ['$"{f(a, b)}"', '($ {(call f a b)})'],
      ['$""', '($)'],
    ]);
    const e = parseExpression('$"a{x}b"');
    expect(e).toMatchObject({ kind: 'interpolatedString', start: 0, end: 8, parts: [{ kind: 'text', start: 2, end: 3 }, { kind: 'hole', start: 3, end: 6, expression: { kind: 'name', start: 4, end: 5 } }, { kind: 'text', start: 6, end: 7 }] });
  });

  it('gives every node its source span', () => {
    expect(parseExpression(' a.b(c) ')).toMatchObject({ kind: 'invocation', start: 1, end: 7, target: { start: 1, end: 4, target: { start: 1, end: 2 } }, arguments: [{ start: 5, end: 6 }] });
    expect(parseExpression('(int)x + 1')).toMatchObject({ start: 0, end: 10, left: { kind: 'cast', start: 0, end: 6, type: { start: 1, end: 4 } } });
    expect(parseExpression('a?.b')).toMatchObject({ start: 0, end: 4, whenNotNull: { kind: 'memberBinding', start: 1, end: 4 } });
  });

  it('prints a tree back to C# that parses to the same tree', () => {
    const texts = [
      'a + b * c', '(a + b) * c', 'a - (b - c)', '(a ?? b) ?? c', 'a ?? b ?? c', '(a ? b : c) ? d : e', 'a ? b : c ? d : e',
      '-(-a)', '-(-1)', '(int)-x', '(A.B)(-x)', '(A.B)x', '(int?)x', 'x is int? ? 1 : 2', 'x as int? ?? 0', 'x is not null',
      'a?.b?[0].c(d)', '(a?.b).c', 'F<int>(x)', 'List<List<int>>.Count', '$"x={x,10:F2} {(a ? b : c)} {{}}"', '"a\\tb\\"c\\\\"',
      "'\\n'", "'\\''", '1.5F', '1.50M', '10UL', '4294967295U', '1L', '0.1', '1.0', '1E+21', 'true', 'null', '@class.@int',
      'typeof(int[,][])', 'default(List<int>)', 'default', 'sizeof(int)', 'nameof(a.b)', 'int.MaxValue', '$exception', 'this.x', 'base[1]',
      '-2147483648', '(-2147483648).ToString()', 'a >>> b', '~a & !b | c ^ d', 'x is -1', 'x is string == y as object is null',
    ];
    const printed = texts.map((t) => printExpression(parseExpression(t)));
    expect(printed).toEqual(texts);
    for (const t of texts) expect(tree(parseExpression(printed[texts.indexOf(t)]!))).toBe(tree(parseExpression(t)));
  });
});

describe('C# expression parser refusals', () => {
  const failure = (text: string) => {
    try {
      parseExpression(text);
    } catch (e) {
      if (e instanceof CSharpSyntaxError) return [text, e.reason, e.start];
      throw e;
    }
    return [text, 'parsed', -1];
  };
  const fails = (cases: [string, string, number][]) => expect(cases.map(([text]) => failure(text))).toEqual(cases);

  it('rejects malformed literals with the position of the literal', () => {
    fails([
      ['1_', "'_' must stand between digits in '1_'", 0],
      ['x + 1_000_', "'_' must stand between digits in '1_000_'", 4],
      ['1_.5', "'_' must stand between digits in '1_'", 0],
      ['0x', "'0x' needs hexadecimal digits after it", 0],
      ['0b', "'0b' needs binary digits after it", 0],
      ['12ab', "invalid numeric literal '12ab'", 0],
      ['1.5L', "the integer suffix 'L' cannot follow a real number", 3],
      ['18446744073709551616', "integral constant '18446744073709551616' is too large", 0],
      ['0x1_0000_0000_0000_0000', "integral constant '0x1_0000_0000_0000_0000' is too large", 0],
      ['1e39f', "floating-point constant '1e39f' is outside the range of type 'float'", 0],
      ['1e309', "floating-point constant '1e309' is outside the range of type 'double'", 0],
      ['79228162514264337593543950336m', "floating-point constant '79228162514264337593543950336m' is outside the range of type 'decimal'", 0],
      ["''", 'empty character literal', 0],
      ["'ab'", 'too many characters in character literal', 0],
      ["'a", 'unterminated character literal', 0],
      ["'\\q'", "unrecognized escape sequence '\\q'", 1],
      ["'\\x'", "'\\x' needs 1 to 4 hexadecimal digits", 1],
      ['"\\u12"', "'\\u' needs exactly 4 hexadecimal digits", 1],
      ['"\\U00110000"', "'\\U00110000' is not a Unicode character", 1],
      ['"abc', 'unterminated string literal', 0],
      ['"a\nb"', 'unterminated string literal', 0],
      ['@"abc', 'unterminated string literal', 0],
      ['"""raw"""', 'raw string literals (""") are not supported', 0],
      ['"abc"u8', 'UTF-8 string literals (u8) are not supported', 0],
      ['$"abc', 'unterminated interpolated string', 0],
      ['$"{x"', 'unterminated interpolated string', 0],
      ['$"a}b"', "a '}' in an interpolated string must be doubled ('}}')", 3],
      ['$"{}"', 'empty interpolation hole', 2],
      ['$"{x:}"', "empty format specifier after ':'", 4],
      ['$"{x,abc}"', 'the alignment must be an integer constant such as 10 or -10', 5],
      ['$"{a ? b : c}"', "expected ':' of the conditional operator but found the end of the expression (a conditional inside an interpolation hole needs parentheses)", 9],
      ['$$"""{x}"""', 'raw interpolated strings ($""" or $$) are not supported', 0],
    ]);
  });

  it('rejects syntax that would change the program or that a debugger cannot run, naming it', () => {
    fails([
      ['x = 1', 'assignment is not supported', 2],
      ['x += 1', 'assignment is not supported', 2],
      ['x ??= y', 'assignment is not supported', 2],
      ['x >>= 1', 'assignment is not supported', 2],
      ['a.b = c', 'assignment is not supported', 4],
      ['i++', 'increment and decrement (++) are not supported', 1],
      ['--i', 'increment and decrement (--) are not supported', 0],
      ['x => x', 'lambdas are not supported', 0],
      ['(x, y) => x', 'lambdas are not supported', 0],
      ['() => 1', 'lambdas are not supported', 0],
      ['list.Where(x => x > 1)', 'lambdas are not supported', 11],
      ['delegate { }', 'anonymous methods and lambdas are not supported', 0],
      ['(from x in list where x > 1 select x).Count()', 'query expressions (from … select) are not supported', 1],
      ['from Order o in orders select o.Id', 'query expressions (from … select) are not supported', 0],
      ['new { X = 1 }', 'anonymous types (new { … }) are not supported', 4],
      ['new Foo { X = 1 }', 'object initializers (Name = value) are not supported', 10],
      ['new Dictionary<string, int> { { "a", 1 } }', 'dictionary initializers ({ key, value }) are not supported', 30],
      ['new int[2, 2]', 'multi-dimensional arrays cannot be created here', 9],
      ['new(1)', 'target-typed new (new(…)) is not supported: name the type', 3],
      ['(1, 2)', 'tuples are not supported', 0],
      ['(int, string)x', 'tuples are not supported', 0],
      ['f(x: 1)', 'named arguments are not supported: pass the arguments in order', 2],
      ['f(ref x)', "'ref' arguments are not supported", 2],
      ['f(out var x)', "'out' arguments are not supported", 2],
      ['checked(x + 1)', "'checked' is not supported: arithmetic is unchecked, but on constants (C#'s default)", 0],
      ['await t', "'await' is not supported", 0],
      ['a[1..2]', 'ranges (..) are not supported', 3],
      ['a[^1]', 'index from end (^) is not supported', 2],
      ['*p', 'pointers are not supported', 0],
      ['p->x', 'pointers are not supported', 1],
      ['global::System.Math', "alias qualifiers ('::') are not supported: write the full type name", 6],
      ['x switch { _ => 1 }', 'switch expressions are not supported', 2],
      ['p with { X = 1 }', "'with' expressions are not supported", 2],
      ['[1, 2]', 'collection expressions ([...]) are not supported', 0],
      ['throw e', "'throw' is not supported in a debugger expression", 0],
      ['x is Foo f', "declaration patterns ('is T f') are not supported: test with 'is T', then cast", 9],
      ['x is var v', "declaration patterns ('is var x') are not supported", 5],
      ['x is > 5', "only type, null, constant and 'not' patterns are supported after 'is'", 5],
      ['x is A or B', "only type, null, constant and 'not' patterns are supported after 'is'", 7],
      ['x is { Length: 1 }', "only type, null, constant and 'not' patterns are supported after 'is'", 5],
      ['(dynamic)x', "'dynamic' is not supported", 1],
      ['typeof(List<>)', 'unbound generic types (List<>) are not supported: give the type arguments', 11],
      ['(void)x', "'void' is only valid in typeof(void)", 1],
      ['typeof(int*)', 'pointer types are not supported', 10],
      ['x // why', 'comments are not supported in expressions', 2],
    ]);
  });

  it('rejects what is not an expression, at the token that breaks it', () => {
    fails([
      ['', 'the expression is empty', 0],
      ['   ', 'the expression is empty', 3],
      ['a b', "expected an operator or the end of the expression but found 'b'", 2],
      ['a +', 'expected an expression but found the end of the expression', 3],
      ['(a', "expected ')' but found the end of the expression", 2],
      ['()', "expected an expression but found ')'", 1],
      ['f(a b)', "expected ',' or ')' to close the '(' at column 2 but found 'b'", 4],
      ['a[]', "expected an index but found ']'", 2],
      ['a ? b', "expected ':' of the conditional operator but found the end of the expression", 5],
      ['x.', "expected a member name after '.' but found the end of the expression", 2],
      ['x?.', "expected a member name after '?.' but found the end of the expression", 3],
      ['x.1', 'expected an operator or the end of the expression but found .1', 1],
      ['int', "'int' is a type, not a value: use it in a cast ((int)x), typeof(int) or a member access (int.Parse)", 0],
      ['base', "'base' must be followed by '.' or '['", 0],
      ['nameof(1)', 'nameof needs a name, such as nameof(order.Total)', 7],
      ['default(', 'expected a type but found the end of the expression', 8],
      ['typeof(1)', 'expected a type but found 1', 7],
      ['a # b', "unexpected character '#'", 2],
      ['\\u0061', 'unicode escapes in identifiers are not supported', 0],
      ['while', "expected an expression but found 'while'", 0],
      ['a > > b', "expected an expression but found '>'", 4],
      ['x;;', "expected an operator or the end of the expression but found ';'", 2],
    ]);
  });

  it('names what an assignment or ++/-- writes when it is a variable or a member (what a side-effect-free evaluation refuses it for)', () => {
    const assigns = (text: string) => {
      try {
        parseExpression(text);
        return 'parsed';
      } catch (e) {
        return (e as CSharpSyntaxError).assigns;
      }
    };
    expect(['x = 1', 'a.b += 2', 'this.n++', '--i', 'a[0] = 1', '(x) = 1', 'f(x)++', 'x >>= 1', 'x => x', 'a + b'].map(assigns)).toEqual([
      'x', 'b', 'n', 'i', null, 'x', null, null, undefined, 'parsed',
    ]);
  });

  it('marks valid C# it does not run as unsupported (assignments: the compiled evaluation runs them), and what is not an expression as invalid', () => {
    const kind = (text: string) => {
      try {
        parseExpression(text);
        return 'parsed';
      } catch (e) {
        return (e as CSharpSyntaxError).unsupported ? 'unsupported' : 'invalid';
      }
    };
    expect(['x => x', 'list.Where(x => x > 1)', 'x switch { _ => 1 }', 'new { X = 1 }', 'x is > 5', 'await t', 'x = 1', 'i++', 'a +', 'base'].map(kind)).toEqual([
      'unsupported', 'unsupported', 'unsupported', 'unsupported', 'unsupported', 'unsupported', 'unsupported', 'unsupported', 'invalid', 'invalid',
    ]);
  });

  it('says where the error is in its message', () => {
    expect(() => parseExpression('a +')).toThrow('expected an expression but found the end of the expression (at column 4)');
  });
});
