/**
 * The C# text of a syntax tree, with only the parentheses precedence needs: parsing the printed
 * text gives the same tree back. For messages that quote an expression, and for tests.
 */
import type { Expr, Pattern, TypeSyntax } from './ast.js';
import { formatDouble, formatSingle } from './csFormat.js';
import { decimalToString } from './csDecimal.js';
import type { CsValue } from './csValue.js';
import { KEYWORDS } from './lexer.js';

const BINARY_PRECEDENCE: Record<string, number> = {
  '??': 2,
  '||': 3,
  '&&': 4,
  '|': 5,
  '^': 6,
  '&': 7,
  '==': 8,
  '!=': 8,
  '<': 9,
  '>': 9,
  '<=': 9,
  '>=': 9,
  '<<': 10,
  '>>': 10,
  '>>>': 10,
  '+': 11,
  '-': 11,
  '*': 12,
  '/': 12,
  '%': 12,
};
const CONDITIONAL = 1;
const RELATIONAL = 9;
const UNARY = 13;
const PRIMARY = 14;

function precedence(e: Expr): number {
  switch (e.kind) {
    case 'conditional':
      return CONDITIONAL;
    case 'binary':
      return BINARY_PRECEDENCE[e.operator]!;
    case 'is':
    case 'as':
      return RELATIONAL;
    case 'unary':
    case 'cast':
      return UNARY;
    case 'conditionalAccess':
      return UNARY; // primary, but as a target it needs parentheses: (a?.b).c is not a?.b.c
    case 'literal':
      return isNegative(e.value) ? UNARY : PRIMARY;
    default:
      return PRIMARY;
  }
}

const isNegative = (v: CsValue) => (typeof v.value === 'bigint' ? v.value < 0n : typeof v.value === 'number' ? v.value < 0 || Object.is(v.value, -0) : v.type === 'decimal' && v.value.mantissa < 0n);

export function printExpression(e: Expr, minimum = 0): string {
  const text = printBare(e);
  return precedence(e) < minimum ? `(${text})` : text;
}

function printBare(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return printLiteral(e.value);
    case 'name':
      return identifier(e.name) + typeArguments(e.typeArguments);
    case 'pseudoVariable':
      return e.name;
    case 'this':
    case 'base':
      return e.kind;
    case 'predefinedType':
      return e.name;
    case 'memberAccess':
      return `${printExpression(e.target, PRIMARY)}.${identifier(e.name)}${typeArguments(e.typeArguments)}`;
    case 'memberBinding':
      return `?.${identifier(e.name)}${typeArguments(e.typeArguments)}`;
    case 'elementAccess':
      return `${printExpression(e.target, PRIMARY)}[${list(e.arguments)}]`;
    case 'elementBinding':
      return `?[${list(e.arguments)}]`;
    case 'invocation':
      return `${printExpression(e.target, PRIMARY)}(${list(e.arguments)})`;
    case 'conditionalAccess':
      return printExpression(e.target, PRIMARY) + printExpression(e.whenNotNull);
    case 'unary': {
      const operand = printExpression(e.operand, UNARY);
      // `- -x` must not become `--x`
      return operand.startsWith(e.operator) && (e.operator === '-' || e.operator === '+') ? `${e.operator}(${operand})` : e.operator + operand;
    }
    case 'binary': {
      const p = BINARY_PRECEDENCE[e.operator]!;
      const rightAssociative = e.operator === '??';
      return `${printExpression(e.left, rightAssociative ? p + 1 : p)} ${e.operator} ${printExpression(e.right, rightAssociative ? p : p + 1)}`;
    }
    case 'conditional':
      return `${printExpression(e.condition, CONDITIONAL + 1)} ? ${printExpression(e.whenTrue)} : ${printExpression(e.whenFalse)}`;
    case 'cast': {
      const operand = printExpression(e.operand, UNARY);
      // `(Foo)-x` would read as a subtraction: only a keyword, nullable or array type casts a sign.
      const ambiguous = e.type.kind === 'namedType' && /^[-+]/.test(operand);
      return `(${printType(e.type)})${ambiguous ? `(${operand})` : operand}`;
    }
    case 'is':
      return `${printExpression(e.operand, RELATIONAL)} is ${printPattern(e.pattern)}`;
    case 'as':
      return `${printExpression(e.operand, RELATIONAL)} as ${printType(e.type)}`;
    case 'typeof':
    case 'sizeof':
      return `${e.kind}(${printType(e.type)})`;
    case 'default':
      return e.type ? `default(${printType(e.type)})` : 'default';
    case 'nameof':
      return `nameof(${printExpression(e.argument)})`;
    case 'objectCreation':
      return `new ${printType(e.type)}(${list(e.arguments)})${e.initializer ? ` { ${list(e.initializer)} }` : ''}`;
    case 'arrayCreation': {
      const type = e.elementType ? printType(e.elementType) : '';
      return `new ${type}[${e.size ? printExpression(e.size) : ''}]${e.items ? ` { ${list(e.items)} }` : ''}`;
    }
    case 'interpolatedString':
      return `$"${e.parts
        .map((p) =>
          p.kind === 'text'
            ? escapeText(p.text, '"').replace(/[{}]/g, '$&$&')
            : `{${printExpression(p.expression, CONDITIONAL + 1)}${p.alignment !== undefined ? `,${p.alignment}` : ''}${p.format !== undefined ? `:${p.format}` : ''}}`,
        )
        .join('')}"`;
  }
}

const list = (args: Expr[]) => args.map((a) => printExpression(a)).join(', ');
const identifier = (name: string) => (KEYWORDS.has(name) ? `@${name}` : name);
const typeArguments = (args: TypeSyntax[]) => (args.length > 0 ? `<${args.map(printType).join(', ')}>` : '');

function printPattern(p: Pattern): string {
  switch (p.kind) {
    case 'typePattern':
      return printType(p.type);
    case 'constantPattern':
      return printExpression(p.value, RELATIONAL + 1);
    case 'notPattern':
      return `not ${printPattern(p.pattern)}`;
  }
}

export function printType(t: TypeSyntax): string {
  switch (t.kind) {
    case 'predefinedType':
      return t.name;
    case 'namedType':
      return t.segments.map((s) => identifier(s.name) + typeArguments(s.typeArguments)).join('.');
    case 'nullableType':
      return `${printType(t.underlyingType)}?`;
    case 'arrayType': {
      let element: TypeSyntax = t;
      let ranks = '';
      while (element.kind === 'arrayType') {
        ranks += `[${','.repeat(element.rank - 1)}]`;
        element = element.elementType;
      }
      return printType(element) + ranks;
    }
  }
}

/** A value as a C# literal (`1.5F`, `'\n'`, `"a\"b"`, `10UL`). */
export function printLiteral(v: CsValue): string {
  switch (v.type) {
    case 'null':
      return 'null';
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'string':
      return `"${escapeText(v.value, '"')}"`;
    case 'char':
      return `'${escapeText(String.fromCharCode(Number(v.value)), "'")}'`;
    case 'decimal':
      return `${decimalToString(v.value)}M`;
    case 'float':
      return Number.isFinite(v.value) ? `${formatSingle(v.value)}F` : floatingName('float', v.value);
    case 'double': {
      if (!Number.isFinite(v.value)) return floatingName('double', v.value);
      const text = formatDouble(v.value);
      return /^-?\d+$/.test(text) ? `${text}.0` : text;
    }
    case 'uint':
      return `${v.value}U`;
    case 'long':
      return `${v.value}L`;
    case 'ulong':
      return `${v.value}UL`;
    case 'int':
      return `${v.value}`;
    default:
      return `(${v.type})${v.value}`;
  }
}

const floatingName = (type: string, x: number) => `${type}.${Number.isNaN(x) ? 'NaN' : x > 0 ? 'PositiveInfinity' : 'NegativeInfinity'}`;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\0': '\\0', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

function escapeText(text: string, quote: string): string {
  let out = '';
  for (const c of text) {
    if (c === quote) out += `\\${c}`;
    else if (ESCAPES[c]) out += ESCAPES[c];
    else if (c < ' ' || c === '\x7f') out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return out;
}
