/**
 * Type syntax inside expressions, and the C# rules that tell a type from an expression:
 * - `(T)x` is a cast when T is only a type (`int`, `T?`, `T[]`), or when the token after `)` is
 *   `~`, `!`, `(`, an identifier, a literal or a keyword other than `as`/`is` (ECMA-334 §12.9.7);
 * - `F<A>(x)` has type arguments when the token after `>` is one of `( ) ] } : ; , . ? == != | ^
 *   && || & [` (§6.2.5), so `a < b > c` stays two comparisons;
 * - `T?` is nullable only when what follows `?` cannot start an expression, so `x is int ? a : b`
 *   is a conditional and `x as int? ?? 0` a nullable.
 */
import { PREDEFINED_TYPES, type NameSegment, type PredefinedTypeName, type TypeSyntax } from './ast.js';
import type { Token } from './lexer.js';
import { CSharpSyntaxError } from './syntaxError.js';
import type { TokenStream } from './tokenStream.js';

const PREDEFINED = new Set<string>(PREDEFINED_TYPES);

/** `int` … `string`, `object`, `void` are keywords; `nint` and `nuint` contextual names. */
export function predefinedTypeAt(token: Token): PredefinedTypeName | undefined {
  if (token.kind === 'keyword' && PREDEFINED.has(token.text)) return token.text as PredefinedTypeName;
  if (token.kind === 'identifier' && !token.verbatim && (token.text === 'nint' || token.text === 'nuint')) return token.text;
  return undefined;
}

const EXPRESSION_KEYWORDS = new Set(['this', 'base', 'true', 'false', 'null', 'typeof', 'default', 'sizeof', 'new', 'checked', 'unchecked', 'delegate', 'stackalloc', 'throw']);
const EXPRESSION_PUNCTUATION = new Set(['(', '!', '~', '+', '-', '++', '--']);

export function canStartExpression(token: Token): boolean {
  switch (token.kind) {
    case 'identifier':
    case 'pseudoVariable':
    case 'literal':
    case 'interpolatedString':
      return true;
    case 'keyword':
      return EXPRESSION_KEYWORDS.has(token.text) || PREDEFINED.has(token.text);
    case 'punctuation':
      return EXPRESSION_PUNCTUATION.has(token.text);
    default:
      return false;
  }
}

/** A type that could never be read as an expression: a cast whatever follows it. */
export const isOnlyType = (t: TypeSyntax) => t.kind !== 'namedType';

/** After `(T)`, these tokens make it a cast of what follows (§12.9.7). */
export function startsCastOperand(token: Token): boolean {
  if (token.kind === 'punctuation') return token.text === '~' || token.text === '!' || token.text === '(';
  if (token.kind === 'keyword') return token.text !== 'as' && token.text !== 'is';
  return token.kind !== 'end';
}

/** A type at the cursor; throws a CSharpSyntaxError when there is none. */
export function parseType(s: TokenStream, options: { allowVoid?: boolean } = {}): TypeSyntax {
  const token = s.peek();
  const predefined = predefinedTypeAt(token);
  let type: TypeSyntax;
  if (predefined) {
    if (predefined === 'void' && !options.allowVoid) throw new CSharpSyntaxError("'void' is only valid in typeof(void)", token.start, token.end);
    s.next();
    type = { kind: 'predefinedType', name: predefined, start: token.start, end: token.end };
  } else if (token.kind === 'identifier') {
    type = parseNamedType(s);
  } else if (s.is('(')) {
    throw new CSharpSyntaxError('tuple types are not supported', token.start, token.end);
  } else {
    throw s.unexpected('expected a type');
  }
  for (;;) {
    if (s.is('?') && !canStartExpression(s.peek(1))) {
      type = { kind: 'nullableType', underlyingType: type, start: type.start, end: s.next().end };
    } else if (s.is('[') && (s.is(']', 1) || s.is(',', 1))) {
      type = parseArrayRanks(s, type);
    } else if (s.is('*')) {
      throw new CSharpSyntaxError('pointer types are not supported', s.peek().start, s.peek().end);
    } else {
      return type;
    }
  }
}

function parseNamedType(s: TokenStream): TypeSyntax {
  const segments: NameSegment[] = [];
  for (;;) {
    const name = s.expectIdentifier('a type name');
    if (name.text === 'dynamic' && !name.verbatim && segments.length === 0 && !s.is('.')) {
      throw new CSharpSyntaxError("'dynamic' is not supported", name.start, name.end);
    }
    const typeArguments = s.is('<') ? parseTypeArgumentList(s) : [];
    segments.push({ name: name.text, typeArguments, start: name.start, end: s.previous().end });
    if (s.is('::')) throw new CSharpSyntaxError("alias qualifiers ('::') are not supported: write the full type name", s.peek().start, s.peek().end);
    if (!(s.is('.') && s.peek(1).kind === 'identifier')) break;
    s.next();
  }
  return { kind: 'namedType', segments, start: segments[0]!.start, end: segments[segments.length - 1]!.end };
}

/** `[]`, `[,]`, `[][,]` after an element type: the leftmost rank is the outermost array. */
function parseArrayRanks(s: TokenStream, element: TypeSyntax): TypeSyntax {
  const ranks: { rank: number; end: number }[] = [];
  while (s.is('[') && (s.is(']', 1) || s.is(',', 1))) {
    s.next();
    let rank = 1;
    while (s.accept(',')) rank++;
    ranks.push({ rank, end: s.expect(']').end });
  }
  let type = element;
  for (let i = ranks.length - 1; i >= 0; i--) {
    type = { kind: 'arrayType', elementType: type, rank: ranks[i]!.rank, start: element.start, end: ranks[ranks.length - 1]!.end };
  }
  return type;
}

/** `<T, U>` at the cursor. */
function parseTypeArgumentList(s: TokenStream): TypeSyntax[] {
  const open = s.expect('<');
  if (s.is('>') || s.is(',')) {
    throw new CSharpSyntaxError('unbound generic types (List<>) are not supported: give the type arguments', open.start, s.peek().end);
  }
  const args = [parseType(s)];
  while (s.accept(',')) args.push(parseType(s));
  s.expect('>', "'>' or ','");
  return args;
}

/** A type when one parses at the cursor (the cursor moves past it), else undefined (cursor kept). */
export function tryParseType(s: TokenStream): TypeSyntax | undefined {
  const start = s.position;
  try {
    return parseType(s);
  } catch (e) {
    if (!(e instanceof CSharpSyntaxError)) throw e;
    s.reset(start);
    return undefined;
  }
}

const AFTER_TYPE_ARGUMENTS = new Set(['(', ')', ']', '}', ':', ';', ',', '.', '?', '?.', '==', '!=', '|', '^', '&&', '||', '&', '[']);

/** Type arguments after a name in an expression, when §6.2.5 says they are (cursor past `>`). */
export function tryTypeArgumentsInExpression(s: TokenStream): TypeSyntax[] | undefined {
  const start = s.position;
  try {
    const args = parseTypeArgumentList(s);
    const next = s.peek();
    if (next.kind === 'end' || (next.kind === 'punctuation' && AFTER_TYPE_ARGUMENTS.has(next.text))) return args;
  } catch (e) {
    if (!(e instanceof CSharpSyntaxError)) throw e;
  }
  s.reset(start);
  return undefined;
}
