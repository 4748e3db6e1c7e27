/**
 * Names as C# shows them, from the names the C# compiler writes into metadata: generic arity
 * suffixes become type parameter lists, lambdas and local functions appear under the method that
 * holds them, state machines (async methods, iterators) under their source method, accessors as
 * `Property.get`, constructors by their type's name.
 */

/** After the owner's `<…>`: `b__3_0` lambda, `g__Twice|3_0` local function, `d__3` state machine (`d` alone: an async lambda's, `<<<Main>$>b__0_0>d`). */
const GENERATED_TAIL = /^([a-zA-Z])(?:__(.*))?(?:`\d+)?$/;

export type GeneratedKind = 'lambda' | 'localFunction' | 'stateMachine' | 'closure' | 'other';

export interface GeneratedName {
  kind: GeneratedKind;
  /** The source method it belongs to (empty for closure classes). */
  owner: string;
  /** A local function's own name. */
  name?: string;
}

export function parseGeneratedName(name: string): GeneratedName | undefined {
  if (name === '<>c' || name.startsWith('<>c__DisplayClass')) return { kind: 'closure', owner: '' };
  // The owner is between balanced brackets: top-level statements' lambdas are `<<Main>$>b__0_3`.
  if (!name.startsWith('<')) return undefined;
  let depth = 0;
  let close = -1;
  for (let i = 0; i < name.length && close < 0; i++) {
    if (name[i] === '<') depth++;
    else if (name[i] === '>' && --depth === 0) close = i;
  }
  const m = close > 0 ? GENERATED_TAIL.exec(name.slice(close + 1)) : null;
  if (!m) return undefined;
  const owner = name.slice(1, close);
  const [, letter, rest = ''] = m as unknown as [string, string, string | undefined];
  switch (letter) {
    case 'b':
      return { kind: 'lambda', owner };
    case 'g':
      return { kind: 'localFunction', owner, name: rest.split('|')[0] };
    case 'd':
      return { kind: 'stateMachine', owner };
    default:
      return { kind: 'other', owner };
  }
}

/** `List`1` → `List`, and its declared or actual type arguments appended as `<…>`. */
export function withTypeArguments(name: string, args: string[]): string {
  const bare = name.replace(/`\d+$/, '');
  return args.length > 0 ? `${bare}<${args.join(', ')}>` : bare;
}

/** A method's own part of a display name: accessors and constructors as C# writes them. */
export function memberDisplayName(method: string, typeName: string, specialName: boolean): string {
  if (method === '.ctor' || method === '.cctor') return typeName.replace(/<.*$/, '');
  if (specialName) {
    const accessor = /^(get|set|add|remove|init)_(.+)$/.exec(method);
    if (accessor) return `${accessor[2]}.${accessor[1]}`;
  }
  return method;
}

/** C#'s keyword for a framework type name, as a debugger shows type arguments. */
export function csharpTypeKeyword(fullName: string): string {
  return KEYWORDS[fullName] ?? fullName;
}

/** The predefined types C# names by keyword, by metadata name. */
export const KEYWORDS: Record<string, string> = {
  'System.Boolean': 'bool',
  'System.Byte': 'byte',
  'System.SByte': 'sbyte',
  'System.Char': 'char',
  'System.Int16': 'short',
  'System.UInt16': 'ushort',
  'System.Int32': 'int',
  'System.UInt32': 'uint',
  'System.Int64': 'long',
  'System.UInt64': 'ulong',
  'System.Single': 'float',
  'System.Double': 'double',
  'System.Decimal': 'decimal',
  'System.String': 'string',
  'System.Object': 'object',
  'System.Void': 'void',
  'System.IntPtr': 'nint',
  'System.UIntPtr': 'nuint',
};
