/**
 * `parseExpression(text)`: the C# expression subset a debugger evaluates, with C#'s precedence and
 * associativity (ECMA-334 §12.4.2), lowest first: `?:` (right), `??` (right), `||`, `&&`, `|`, `^`,
 * `&`, `== !=`, `< > <= >= is as`, `<< >> >>>`, `+ -`, `* / %`, unary `+ - ! ~` and casts, then
 * primary expressions and their postfixes (`.`, `?.`, `()`, `[]`, `?[]`). Syntax the evaluator does
 * not run (assignments and ++/--, which the compiled evaluation runs, lambdas, await, ranges, tuples,
 * pointers) is refused with a CSharpSyntaxError that names it.
 */
import type { BinaryOperator, Expr, InterpolatedString, Pattern } from './ast.js';
import { tokenize, type Token } from './lexer.js';
import type { InterpolatedHolePart } from './stringLiterals.js';
import { CSharpSyntaxError } from './syntaxError.js';
import { TokenStream } from './tokenStream.js';
import {
  canStartExpression,
  isOnlyType,
  parseType,
  predefinedTypeAt,
  startsCastOperand,
  tryParseType,
  tryTypeArgumentsInExpression,
} from './typeParser.js';

export { CSharpSyntaxError } from './syntaxError.js';

/** The syntax tree of one C# expression (an optional trailing `;` is allowed). */
export function parseExpression(text: string): Expr {
  return new Parser(text, 0, text.length).parseAll(true);
}

/** Binary levels from loosest to tightest, below `??`; relational and shift have their own rules. */
const LEVELS: readonly (readonly string[])[] = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>', '>>>'], ['+', '-'], ['*', '/', '%']];
const RELATIONAL = 6;
const SHIFT = 7;

const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '??=']);

/** Valid C# outside what the evaluator runs. */
const refuse = (token: Token, reason: string) => new CSharpSyntaxError(reason, token.start, Math.max(token.end, token.start + 1), true);
/** Not an expression a debugger evaluates, or not C#. */
const invalid = (token: Token, reason: string) => new CSharpSyntaxError(reason, token.start, Math.max(token.end, token.start + 1));
/** An assignment or ++/-- of `target`: valid C# for the compiled evaluation, which writes the frame's variables. */
const assignment = (token: Token, target?: Expr) => {
  const reason = token.text === '++' || token.text === '--' ? `increment and decrement (${token.text}) are not supported` : 'assignment is not supported';
  const assigns = target?.kind === 'name' || target?.kind === 'memberAccess' ? target.name : null;
  return new CSharpSyntaxError(reason, token.start, Math.max(token.end, token.start + 1), true, assigns);
};

class Parser {
  private readonly s: TokenStream;

  constructor(
    private readonly text: string,
    start: number,
    end: number,
  ) {
    this.s = new TokenStream(tokenize(text, start, end));
  }

  parseAll(allowSemicolon: boolean): Expr {
    const first = this.s.peek();
    if (first.kind === 'end') throw new CSharpSyntaxError('the expression is empty', first.start, first.start);
    const expr = this.expression();
    if (allowSemicolon) this.s.accept(';');
    const rest = this.s.peek();
    if (rest.kind !== 'end') throw this.unsupportedAt(rest, expr) ?? this.s.unexpected('expected an operator or the end of the expression');
    return expr;
  }

  /** Refusals for tokens that start syntax outside the subset (after `target`, when one was parsed). */
  private unsupportedAt(token: Token, target?: Expr): CSharpSyntaxError | undefined {
    if (token.kind === 'punctuation') {
      if (ASSIGNMENTS.has(token.text) || token.text === '++' || token.text === '--') return assignment(token, target);
      if (token.text === '=>') return refuse(token, 'lambdas are not supported');
      if (token.text === '..') return refuse(token, 'ranges (..) are not supported');
      if (token.text === '->') return refuse(token, 'pointers are not supported');
      if (token.text === '::') return refuse(token, "alias qualifiers ('::') are not supported: write the full type name");
    }
    if (token.kind === 'keyword' && token.text === 'switch') return refuse(token, 'switch expressions are not supported');
    if (token.kind === 'identifier' && token.text === 'with') return refuse(token, "'with' expressions are not supported");
    return undefined;
  }

  private expression(): Expr {
    return this.conditional();
  }

  private conditional(): Expr {
    const condition = this.coalesce();
    if (!this.s.accept('?')) return condition;
    const whenTrue = this.expression();
    this.s.expect(':', "':' of the conditional operator");
    const whenFalse = this.expression();
    return { kind: 'conditional', condition, whenTrue, whenFalse, start: condition.start, end: whenFalse.end };
  }

  private coalesce(): Expr {
    const left = this.binary(0);
    if (!this.s.accept('??')) return left;
    const right = this.coalesce();
    return { kind: 'binary', operator: '??', left, right, start: left.start, end: right.end };
  }

  private binary(level: number): Expr {
    if (level === LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      if (level === RELATIONAL && (this.s.is('is') || this.s.is('as'))) {
        left = this.typeTest(left);
        continue;
      }
      const op = level === SHIFT ? this.shiftOperator() : LEVELS[level]!.find((o) => this.s.accept(o));
      if (!op) return left;
      const right = this.binary(level + 1);
      left = { kind: 'binary', operator: op as BinaryOperator, left, right, start: left.start, end: right.end };
    }
  }

  /** `<<`, or `>` tokens that touch: `>>`, `>>>` (consumed); undefined otherwise. */
  private shiftOperator(): string | undefined {
    if (this.s.accept('<<')) return '<<';
    let count = 0;
    while (this.s.is('>', count) && (count === 0 || this.s.adjacent(count - 1))) count++;
    if (count > 0 && this.s.is('>=', count) && this.s.adjacent(count - 1)) {
      throw assignment(this.s.peek()); // >>= and >>>=
    }
    if (count < 2) return undefined;
    count = Math.min(count, 3);
    for (let i = 0; i < count; i++) this.s.next();
    return count === 3 ? '>>>' : '>>';
  }

  private typeTest(operand: Expr): Expr {
    if (this.s.accept('as')) {
      const type = parseType(this.s);
      return { kind: 'as', operand, type, start: operand.start, end: type.end };
    }
    this.s.expect('is');
    const pattern = this.pattern();
    return { kind: 'is', operand, pattern, start: operand.start, end: pattern.end };
  }

  private pattern(): Pattern {
    const token = this.s.peek();
    const unsupported = () => refuse(token, "only type, null, constant and 'not' patterns are supported after 'is'");
    if (this.s.isIdentifier('not') && canStartExpression(this.s.peek(1))) {
      this.s.next();
      const pattern = this.pattern();
      return { kind: 'notPattern', pattern, start: token.start, end: pattern.end };
    }
    let pattern: Pattern;
    const signedLiteral = (this.s.is('-') || this.s.is('+')) && this.s.peek(1).kind === 'literal';
    if (token.kind === 'literal' || token.kind === 'interpolatedString' || this.s.is('null') || this.s.is('true') || this.s.is('false') || signedLiteral) {
      const value = this.unary();
      pattern = { kind: 'constantPattern', value, start: value.start, end: value.end };
    } else if (token.kind === 'punctuation' && ['(', '<', '>', '<=', '>=', '{', '['].includes(token.text)) {
      throw unsupported();
    } else if (this.s.isIdentifier('var')) {
      throw refuse(token, "declaration patterns ('is var x') are not supported");
    } else {
      const type = parseType(this.s);
      pattern = { kind: 'typePattern', type, start: type.start, end: type.end };
    }
    const next = this.s.peek();
    if (this.s.isIdentifier('and') || this.s.isIdentifier('or') || this.s.is('{')) throw refuse(next, "only type, null, constant and 'not' patterns are supported after 'is'");
    if (next.kind === 'identifier' && pattern.kind === 'typePattern') {
      throw refuse(next, `declaration patterns ('is T ${next.text}') are not supported: test with 'is T', then cast`);
    }
    return pattern;
  }

  private unary(): Expr {
    const token = this.s.peek();
    if (this.s.is('+') || this.s.is('-') || this.s.is('!') || this.s.is('~')) {
      this.s.next();
      const minimum = token.text === '-' ? this.minimumIntegerLiteral(token) : undefined;
      if (minimum) return minimum;
      const operand = this.unary();
      return { kind: 'unary', operator: token.text as '+' | '-' | '!' | '~', operand, start: token.start, end: operand.end };
    }
    if (this.s.is('++') || this.s.is('--')) {
      this.s.next();
      throw assignment(token, this.unary());
    }
    if (this.s.is('^')) throw refuse(token, 'index from end (^) is not supported');
    if (this.s.is('&') || this.s.is('*')) throw refuse(token, 'pointers are not supported');
    if (this.s.is('..')) throw refuse(token, 'ranges (..) are not supported');
    if (this.s.isIdentifier('await') && canStartExpression(this.s.peek(1))) throw refuse(token, "'await' is not supported");
    if (this.s.is('(')) return this.castOrParenthesized();
    return this.postfix(this.primary());
  }

  /** `-2147483648` and `-9223372036854775808`: literals only with the minus (ECMA-334 §6.4.5.3). */
  private minimumIntegerLiteral(minus: Token): Expr | undefined {
    const literal = this.s.peek();
    if (literal.kind !== 'literal' || literal.integerSuffix === undefined || literal.start !== minus.end) return undefined;
    const magnitude = literal.value!.value as bigint;
    const type = magnitude === 2n ** 31n && literal.integerSuffix === '' ? 'int' : magnitude === 2n ** 63n && (literal.integerSuffix === '' || literal.integerSuffix === 'l') ? 'long' : undefined;
    if (!type) return undefined;
    this.s.next();
    return { kind: 'literal', value: { type, value: -magnitude, constant: true }, start: minus.start, end: literal.end };
  }

  private castOrParenthesized(): Expr {
    const open = this.s.peek();
    if (this.lambdaAhead()) throw refuse(open, 'lambdas are not supported');
    const start = this.s.position;
    this.s.next();
    if ((this.s.isIdentifier('dynamic') || this.s.is('void')) && this.s.is(')', 1)) parseType(this.s); // says why not
    const type = tryParseType(this.s);
    if (type && this.s.is(',')) throw refuse(open, 'tuples are not supported');
    if (type && this.s.is(')')) {
      this.s.next();
      if (isOnlyType(type) || startsCastOperand(this.s.peek())) {
        const operand = this.unary();
        return { kind: 'cast', type, operand, start: open.start, end: operand.end };
      }
    }
    this.s.reset(start + 1);
    if (this.s.is(')')) throw this.s.unexpected('expected an expression');
    const inner = this.expression();
    if (this.s.is(',')) throw refuse(open, 'tuples are not supported');
    this.s.expect(')', "')'");
    return this.postfix(inner);
  }

  /** At `(`: does the matching `)` precede `=>`? */
  private lambdaAhead(): boolean {
    let depth = 0;
    for (let i = 0; ; i++) {
      const token = this.s.peek(i);
      if (token.kind === 'end') return false;
      if (this.s.is('(', i)) depth++;
      else if (this.s.is(')', i) && --depth === 0) return this.s.is('=>', i + 1);
    }
  }

  private primary(): Expr {
    const token = this.s.peek();
    switch (token.kind) {
      case 'literal':
        this.s.next();
        return { kind: 'literal', value: token.value!, start: token.start, end: token.end };
      case 'interpolatedString':
        this.s.next();
        return this.interpolatedString(token);
      case 'pseudoVariable':
        this.s.next();
        return { kind: 'pseudoVariable', name: token.text, start: token.start, end: token.end };
      case 'identifier':
        return this.identifier(token);
      case 'keyword':
        return this.keyword(token);
      default:
        if (this.s.is('[')) throw refuse(token, 'collection expressions ([...]) are not supported');
        throw this.unsupportedAt(token) ?? this.s.unexpected('expected an expression');
    }
  }

  private identifier(token: Token): Expr {
    if (this.s.is('=>', 1)) throw refuse(token, 'lambdas are not supported');
    // `from x in …` / `from T x in …` starts a query (`from` is otherwise an ordinary name).
    if (!token.verbatim && token.text === 'from' && this.s.peek(1).kind === 'identifier' && (this.s.is('in', 2) || this.s.peek(2).kind === 'identifier')) {
      throw refuse(token, 'query expressions (from … select) are not supported');
    }
    if (!token.verbatim && token.text === 'nameof' && this.s.is('(', 1)) return this.nameof();
    this.s.next();
    const typeArguments = (this.s.is('<') && tryTypeArgumentsInExpression(this.s)) || [];
    return { kind: 'name', name: token.text, typeArguments, start: token.start, end: this.s.previous().end };
  }

  private keyword(token: Token): Expr {
    const { start, end } = token;
    const predefined = predefinedTypeAt(token);
    if (predefined) {
      if (!this.s.is('.', 1)) {
        throw invalid(token, `'${predefined}' is a type, not a value: use it in a cast ((${predefined})x), typeof(${predefined}) or a member access (${predefined}.Parse)`);
      }
      this.s.next();
      return { kind: 'predefinedType', name: predefined, start, end };
    }
    switch (token.text) {
      case 'this':
        this.s.next();
        return { kind: 'this', start, end };
      case 'base':
        this.s.next();
        if (!this.s.is('.') && !this.s.is('[')) throw invalid(token, "'base' must be followed by '.' or '['");
        return { kind: 'base', start, end };
      case 'true':
      case 'false':
        this.s.next();
        return { kind: 'literal', value: { type: 'bool', value: token.text === 'true', constant: true }, start, end };
      case 'null':
        this.s.next();
        return { kind: 'literal', value: { type: 'null', value: null, constant: true }, start, end };
      case 'typeof':
      case 'sizeof': {
        this.s.next();
        this.s.expect('(');
        const type = parseType(this.s, { allowVoid: token.text === 'typeof' });
        const close = this.s.expect(')');
        return { kind: token.text as 'typeof' | 'sizeof', type, start, end: close.end };
      }
      case 'default': {
        this.s.next();
        if (!this.s.accept('(')) return { kind: 'default', start, end };
        const type = parseType(this.s);
        return { kind: 'default', type, start, end: this.s.expect(')').end };
      }
      case 'new':
        return this.creation();
      case 'delegate':
        throw refuse(token, 'anonymous methods and lambdas are not supported');
      case 'checked':
      case 'unchecked':
        throw refuse(token, `'${token.text}' is not supported: arithmetic is unchecked, but on constants (C#'s default)`);
      case 'throw':
      case 'stackalloc':
      case 'ref':
        throw refuse(token, `'${token.text}' is not supported in a debugger expression`);
      default:
        throw this.s.unexpected('expected an expression');
    }
  }

  /** After `new`: an object (with a collection initializer) or an array. */
  private creation(): Expr {
    const start = this.s.next().start;
    if (this.s.is('[')) {
      this.s.next();
      if (this.s.is(',')) throw refuse(this.s.peek(), 'multi-dimensional arrays cannot be created here');
      this.s.expect(']', "']' of new[]");
      if (!this.s.is('{')) throw this.s.unexpected("expected '{' with the elements of new[]");
      const items = this.initializer();
      return { kind: 'arrayCreation', items, start, end: this.s.previous().end };
    }
    if (this.s.is('{')) throw refuse(this.s.peek(), 'anonymous types (new { … }) are not supported');
    if (this.s.is('(')) throw refuse(this.s.peek(), "target-typed new (new(…)) is not supported: name the type");
    const type = parseType(this.s);
    if (type.kind === 'arrayType') {
      if (type.rank !== 1 || type.elementType.kind === 'arrayType') throw refuse(this.s.previous(), 'multi-dimensional and jagged arrays cannot be created here');
      if (!this.s.is('{')) throw this.s.unexpected("expected '{' with the array's elements");
      const items = this.initializer();
      return { kind: 'arrayCreation', elementType: type.elementType, items, start, end: this.s.previous().end };
    }
    if (type.kind === 'nullableType') throw refuse(this.s.previous(), 'new of a nullable type is not supported: write the value itself');
    if (this.s.is('[')) {
      this.s.next();
      const size = this.expression();
      if (this.s.is(',')) throw refuse(this.s.peek(), 'multi-dimensional arrays cannot be created here');
      this.s.expect(']', "']' after the array's length");
      const items = this.s.is('{') ? this.initializer() : undefined;
      if (this.s.is('[')) throw refuse(this.s.peek(), 'jagged arrays cannot be created here');
      return { kind: 'arrayCreation', elementType: type, size, ...(items && { items }), start, end: this.s.previous().end };
    }
    const args = this.s.is('(') ? this.arguments(')', true) : [];
    if (!args.length && !this.s.is('{') && this.s.previous().text !== ')') throw this.s.unexpected("expected '(' or '{' after the type of new");
    const initializer = this.s.is('{') ? this.initializer() : undefined;
    return { kind: 'objectCreation', type, arguments: args, ...(initializer && { initializer }), start, end: this.s.previous().end };
  }

  /** `{ a, b, c }` of a collection or array initializer (object and dictionary initializers refused). */
  private initializer(): Expr[] {
    const open = this.s.expect('{');
    const items: Expr[] = [];
    while (!this.s.is('}')) {
      const token = this.s.peek();
      if (this.s.is('{')) throw refuse(token, 'dictionary initializers ({ key, value }) are not supported');
      if (this.s.is('[')) throw refuse(token, 'index initializers ([key] = value) are not supported');
      if (token.kind === 'identifier' && this.s.is('=', 1)) throw refuse(token, 'object initializers (Name = value) are not supported');
      items.push(this.expression());
      if (!this.s.accept(',')) break;
    }
    if (!this.s.is('}')) throw this.s.unexpected(`expected ',' or '}' to close the '{' at column ${open.start + 1}`);
    this.s.next();
    return items;
  }

  private nameof(): Expr {
    const start = this.s.next().start;
    this.s.expect('(');
    const argument = this.expression();
    const close = this.s.expect(')');
    const name = argument.kind === 'name' || argument.kind === 'memberAccess' ? argument.name : undefined;
    if (name === undefined) throw new CSharpSyntaxError('nameof needs a name, such as nameof(order.Total)', argument.start, argument.end);
    return { kind: 'nameof', argument, name, start, end: close.end };
  }

  private postfix(expr: Expr): Expr {
    for (;;) {
      const token = this.s.peek();
      if (this.s.accept('.')) {
        const name = this.s.expectIdentifier("a member name after '.'");
        const typeArguments = (this.s.is('<') && tryTypeArgumentsInExpression(this.s)) || [];
        expr = { kind: 'memberAccess', target: expr, name: name.text, typeArguments, start: expr.start, end: this.s.previous().end };
      } else if (this.s.is('?.') || (this.s.is('?') && this.s.is('[', 1))) {
        const whenNotNull = this.binding();
        return { kind: 'conditionalAccess', target: expr, whenNotNull, start: expr.start, end: whenNotNull.end };
      } else if (this.s.is('(')) {
        const args = this.arguments(')');
        expr = { kind: 'invocation', target: expr, arguments: args, start: expr.start, end: this.s.previous().end };
      } else if (this.s.is('[')) {
        const args = this.arguments(']');
        expr = { kind: 'elementAccess', target: expr, arguments: args, start: expr.start, end: this.s.previous().end };
      } else if (this.s.is('!')) {
        this.s.next(); // the null-forgiving operator changes nothing at run time
      } else {
        const refusal = this.unsupportedAt(token, expr);
        if (refusal) throw refusal;
        return expr;
      }
    }
  }

  /** After `?.` or `?[`: the binding and the rest of the chain, evaluated when the target is not null. */
  private binding(): Expr {
    const start = this.s.peek().start;
    if (this.s.accept('?.')) {
      const name = this.s.expectIdentifier("a member name after '?.'");
      const typeArguments = (this.s.is('<') && tryTypeArgumentsInExpression(this.s)) || [];
      return this.postfix({ kind: 'memberBinding', name: name.text, typeArguments, start, end: this.s.previous().end });
    }
    this.s.expect('?');
    const args = this.arguments(']');
    return this.postfix({ kind: 'elementBinding', arguments: args, start, end: this.s.previous().end });
  }

  private arguments(close: ')' | ']', emptyAllowed = close === ')'): Expr[] {
    const open = this.s.next();
    const args: Expr[] = [];
    if (this.s.is(close)) {
      if (!emptyAllowed) throw this.s.unexpected('expected an index');
      this.s.next();
      return args;
    }
    for (;;) {
      const token = this.s.peek();
      if (this.s.is('ref') || this.s.is('out') || this.s.is('in')) throw refuse(token, `'${token.text}' arguments are not supported`);
      if (token.kind === 'identifier' && this.s.is(':', 1)) throw refuse(token, 'named arguments are not supported: pass the arguments in order');
      args.push(this.expression());
      if (this.s.accept(',')) continue;
      if (this.s.is(close)) break;
      throw this.unsupportedAt(this.s.peek()) ?? this.s.unexpected(`expected ',' or '${close}' to close the '${open.text}' at column ${open.start + 1}`);
    }
    this.s.next();
    return args;
  }

  private interpolatedString(token: Token): InterpolatedString {
    const parts = token.parts!.map((part) => (part.kind === 'text' ? part : this.hole(part)));
    return { kind: 'interpolatedString', parts, start: token.start, end: token.end };
  }

  private hole(part: InterpolatedHolePart) {
    const { expression: range, alignment: alignmentRange, format } = part;
    if (this.text.slice(range.start, range.end).trim() === '') throw new CSharpSyntaxError('empty interpolation hole', part.start, part.end);
    let expression: Expr;
    try {
      expression = new Parser(this.text, range.start, range.end).parseAll(false);
    } catch (e) {
      if (e instanceof CSharpSyntaxError && format !== undefined && this.text.slice(range.start, range.end).includes('?')) {
        throw new CSharpSyntaxError(`${e.reason} (a conditional inside an interpolation hole needs parentheses)`, e.start, e.end);
      }
      throw e;
    }
    let alignment: number | undefined;
    if (alignmentRange) {
      const value = new Parser(this.text, alignmentRange.start, alignmentRange.end).parseAll(false);
      alignment = integerConstant(value);
      if (alignment === undefined) throw new CSharpSyntaxError('the alignment must be an integer constant such as 10 or -10', alignmentRange.start, alignmentRange.end);
    }
    return { kind: 'hole' as const, expression, start: part.start, end: part.end, ...(alignment !== undefined && { alignment }), ...(format !== undefined && { format }) };
  }
}

function integerConstant(e: Expr): number | undefined {
  if (e.kind === 'literal' && e.value.type === 'int') return Number(e.value.value);
  if (e.kind === 'unary' && (e.operator === '-' || e.operator === '+')) {
    const n = integerConstant(e.operand);
    return n === undefined ? undefined : e.operator === '-' ? -n : n;
  }
  return undefined;
}
