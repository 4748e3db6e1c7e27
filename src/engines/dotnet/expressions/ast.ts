/**
 * The syntax tree of the C# expression subset a debugger evaluates. Every node has a `kind` and
 * its source span: `start` (inclusive) and `end` (exclusive) offsets into the expression text.
 * Parentheses leave no node: the tree's shape holds the grouping.
 */
import type { CsValue } from './csValue.js';

export interface Span {
  start: number;
  end: number;
}

/** C#'s keywords for predefined types (`nint`/`nuint` are contextual but named here too). */
export const PREDEFINED_TYPES = [
  'bool',
  'byte',
  'sbyte',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'char',
  'float',
  'double',
  'decimal',
  'string',
  'object',
  'nint',
  'nuint',
  'void',
] as const;
export type PredefinedTypeName = (typeof PREDEFINED_TYPES)[number];

// ---- Types ----

/** `int`, `string`, … As an expression it is the target of a member access: `int.MaxValue`. */
export interface PredefinedType extends Span {
  kind: 'predefinedType';
  name: PredefinedTypeName;
}

/** One dotted part of a type or generic name: `Dictionary<string, int>`. */
export interface NameSegment extends Span {
  name: string;
  typeArguments: TypeSyntax[];
}

/** `System.Collections.Generic.List<int>`, `Outer.Inner`: resolved by the evaluator. */
export interface NamedType extends Span {
  kind: 'namedType';
  segments: NameSegment[];
}

/** `T[]` (rank 1), `T[,]` (rank 2); `int[][,]` is a rank-1 array of `int[,]`. */
export interface ArrayType extends Span {
  kind: 'arrayType';
  elementType: TypeSyntax;
  rank: number;
}

/** `T?` */
export interface NullableType extends Span {
  kind: 'nullableType';
  underlyingType: TypeSyntax;
}

export type TypeSyntax = PredefinedType | NamedType | ArrayType | NullableType;

// ---- Expressions ----

/** A literal; its value carries `constant: true` (see csValue.ts). */
export interface Literal extends Span {
  kind: 'literal';
  value: CsValue;
}

/** A simple name, with explicit type arguments when written: `x`, `Math`, `Max<int>`. `@class` is named `class`. */
export interface Name extends Span {
  kind: 'name';
  name: string;
  typeArguments: TypeSyntax[];
}

/** A debugger pseudo-variable: `$exception`, `$returnValue` (the name keeps its `$`). */
export interface PseudoVariable extends Span {
  kind: 'pseudoVariable';
  name: string;
}

export interface This extends Span {
  kind: 'this';
}

/** `base`, only ever the target of a member or element access. */
export interface Base extends Span {
  kind: 'base';
}

/** `target.name` or `target.name<T>`; a namespace or type prefix is a chain of these over a Name. */
export interface MemberAccess extends Span {
  kind: 'memberAccess';
  target: Expr;
  name: string;
  typeArguments: TypeSyntax[];
}

/** `target[a]`, `target[a, b]` */
export interface ElementAccess extends Span {
  kind: 'elementAccess';
  target: Expr;
  arguments: Expr[];
}

/** `target(a, b)`; the target is a Name, MemberAccess or MemberBinding for a method call. */
export interface Invocation extends Span {
  kind: 'invocation';
  target: Expr;
  arguments: Expr[];
}

/**
 * `a?.b.c` and `a?[i]`: evaluate `target`; if null the whole node is null, otherwise evaluate
 * `whenNotNull`, whose leftmost node is a MemberBinding or ElementBinding standing for `target`'s
 * value (as in Roslyn). `a?.b?.c` nests: ConditionalAccess(a, ConditionalAccess(.b, .c)).
 */
export interface ConditionalAccess extends Span {
  kind: 'conditionalAccess';
  target: Expr;
  whenNotNull: Expr;
}

/** `.name` applied to the value of the nearest enclosing ConditionalAccess's target. */
export interface MemberBinding extends Span {
  kind: 'memberBinding';
  name: string;
  typeArguments: TypeSyntax[];
}

/** `[args]` applied to the value of the nearest enclosing ConditionalAccess's target. */
export interface ElementBinding extends Span {
  kind: 'elementBinding';
  arguments: Expr[];
}

export type UnaryOperator = '+' | '-' | '!' | '~';

export interface Unary extends Span {
  kind: 'unary';
  operator: UnaryOperator;
  operand: Expr;
}

export type BinaryOperator =
  | '*'
  | '/'
  | '%'
  | '+'
  | '-'
  | '<<'
  | '>>'
  | '>>>'
  | '<'
  | '>'
  | '<='
  | '>='
  | '=='
  | '!='
  | '&'
  | '^'
  | '|'
  | '&&'
  | '||'
  | '??';

export interface Binary extends Span {
  kind: 'binary';
  operator: BinaryOperator;
  left: Expr;
  right: Expr;
}

/** `condition ? whenTrue : whenFalse` */
export interface Conditional extends Span {
  kind: 'conditional';
  condition: Expr;
  whenTrue: Expr;
  whenFalse: Expr;
}

/** `(T)operand` */
export interface Cast extends Span {
  kind: 'cast';
  type: TypeSyntax;
  operand: Expr;
}

/**
 * What `is` tests: a type (`x is string`; `x is Color.Red` parses as a type too, and the evaluator
 * may find a constant by that name), a constant (`x is null`, `x is 3`, `x is "a"`), or `not` one.
 */
export type Pattern =
  | ({ kind: 'typePattern'; type: TypeSyntax } & Span)
  | ({ kind: 'constantPattern'; value: Expr } & Span)
  | ({ kind: 'notPattern'; pattern: Pattern } & Span);

export interface Is extends Span {
  kind: 'is';
  operand: Expr;
  pattern: Pattern;
}

export interface As extends Span {
  kind: 'as';
  operand: Expr;
  type: TypeSyntax;
}

export interface Typeof extends Span {
  kind: 'typeof';
  type: TypeSyntax;
}

/** `default(T)`, or the target-typed `default` literal when `type` is absent. */
export interface Default extends Span {
  kind: 'default';
  type?: TypeSyntax;
}

export interface Sizeof extends Span {
  kind: 'sizeof';
  type: TypeSyntax;
}

/** `nameof(a.b.C)`: `name` is its value ("C"); `argument` lets the evaluator check the name exists. */
export interface Nameof extends Span {
  kind: 'nameof';
  argument: Expr;
  name: string;
}

export interface InterpolationText extends Span {
  kind: 'text';
  text: string;
}

/** `{expression,alignment:format}`; alignment and format only when written. */
export interface InterpolationHole extends Span {
  kind: 'hole';
  expression: Expr;
  alignment?: number;
  format?: string;
}

/** `$"…{x}…"`, `$@"…"`: text and holes in order (empty texts left out). */
export interface InterpolatedString extends Span {
  kind: 'interpolatedString';
  parts: (InterpolationText | InterpolationHole)[];
}

/** `new T(args)`, `new T { a, b }`: a constructor call, then `Add` for each collection initializer element. */
export interface ObjectCreation extends Span {
  kind: 'objectCreation';
  type: TypeSyntax;
  arguments: Expr[];
  initializer?: Expr[];
}

/** `new T[] { a, b }`, `new[] { a, b }` (element type inferred), `new T[n]` (zeroed). */
export interface ArrayCreation extends Span {
  kind: 'arrayCreation';
  elementType?: TypeSyntax;
  size?: Expr;
  items?: Expr[];
}

export type Expr =
  | Literal
  | ObjectCreation
  | ArrayCreation
  | InterpolatedString
  | Name
  | PseudoVariable
  | This
  | Base
  | PredefinedType
  | MemberAccess
  | ElementAccess
  | Invocation
  | ConditionalAccess
  | MemberBinding
  | ElementBinding
  | Unary
  | Binary
  | Conditional
  | Cast
  | Is
  | As
  | Typeof
  | Default
  | Sizeof
  | Nameof;

export type ExprKind = Expr['kind'];
