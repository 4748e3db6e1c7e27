/** A cursor over the tokens of one expression, with backtracking for C#'s speculative parses. */
import type { Token } from './lexer.js';
import { CSharpSyntaxError } from './syntaxError.js';

export class TokenStream {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  get position() {
    return this.index;
  }

  reset(position: number) {
    this.index = position;
  }

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  /** The token just consumed. */
  previous(): Token {
    return this.tokens[Math.max(this.index - 1, 0)]!;
  }

  is(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return (token.kind === 'punctuation' || token.kind === 'keyword') && token.text === text;
  }

  isIdentifier(name?: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'identifier' && !token.verbatim && (name === undefined || token.text === name);
  }

  accept(text: string): Token | undefined {
    return this.is(text) ? this.next() : undefined;
  }

  expect(text: string, what = `'${text}'`): Token {
    if (this.is(text)) return this.next();
    throw this.unexpected(`expected ${what}`);
  }

  expectIdentifier(what = 'a name'): Token {
    if (this.peek().kind === 'identifier') return this.next();
    throw this.unexpected(`expected ${what}`);
  }

  /** An error at the current token: "<expected> but found <token>". */
  unexpected(expected: string): CSharpSyntaxError {
    const token = this.peek();
    return new CSharpSyntaxError(`${expected} but found ${describe(token)}`, token.start, Math.max(token.end, token.start + 1));
  }

  /** Whether two consecutive tokens touch (`>` `>` written as `>>`). */
  adjacent(offset: number): boolean {
    return this.peek(offset).end === this.peek(offset + 1).start;
  }
}

export function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the expression';
    case 'identifier':
      return `'${token.text}'`;
    case 'literal':
    case 'interpolatedString':
      return token.text.length > 20 ? `${token.text.slice(0, 17)}...` : token.text;
    default:
      return `'${token.text}'`;
  }
}
