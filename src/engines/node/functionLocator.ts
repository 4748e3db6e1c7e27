/**
 * Finds functions by name in JavaScript source with acorn: declarations, class members, object
 * members, and functions assigned to variables or properties. Loaded only when a function
 * breakpoint is set (acorn is not small).
 */
import { parse, type AnyNode, type Function as FunctionNode, type Options, type Token } from 'acorn';
import { ancestor } from 'acorn-walk';

import type { FunctionSite } from './functionNames.js';

const PARSE_OPTIONS: Options = {
  ecmaVersion: 'latest',
  locations: true,
  allowHashBang: true,
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  allowImportExportEverywhere: true,
  allowReserved: true,
};

/** Every named function in the source; an empty list when it does not parse. */
export function locateFunctions(source: string): FunctionSite[] {
  const program = parseLeniently(source);
  if (!program) return [];
  const sites: FunctionSite[] = [];
  const visit = (node: FunctionNode, _state: unknown, ancestors: AnyNode[]) => {
    const names = namesOf(node, ancestors.slice(0, -1).reverse());
    const start = firstStatementStart(node);
    if (names.length && start) sites.push({ names, line: start.line - 1, column: start.column });
  };
  ancestor(program, { FunctionDeclaration: visit, FunctionExpression: visit, ArrowFunctionExpression: visit });
  return sites;
}

/** The program as a module, else as a script; `tokens`, when given, gets the tokens of the parse that succeeded. */
export function parseLeniently(source: string, tokens?: Token[]) {
  for (const sourceType of ['module', 'script'] as const) {
    if (tokens) tokens.length = 0;
    try {
      return parse(source, { ...PARSE_OPTIONS, sourceType, onToken: tokens });
    } catch {
      // try the other kind of program
    }
  }
  return undefined;
}

function firstStatementStart(fn: FunctionNode): { line: number; column: number } | undefined {
  const body = fn.body;
  if (body.type === 'BlockStatement') return (body.body[0] ?? body).loc?.start;
  return body.loc?.start;
}

/** `ancestors` runs from the function's parent outwards. */
export function namesOf(fn: FunctionNode, ancestors: AnyNode[]): string[] {
  const [parent, grandParent] = ancestors;
  const own = fn.id?.name;
  if (fn.type === 'FunctionDeclaration') return own ? [own] : [];
  if (parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') {
    const member = keyName(parent.key, parent.computed);
    const owner = classNameOf(ancestors[2], ancestors[3]);
    if (!member) return [];
    if (parent.type === 'MethodDefinition' && parent.kind === 'constructor') return owner ? [owner, `${owner}.constructor`] : ['constructor'];
    const holder = owner && !parent.static && parent.type === 'MethodDefinition' ? `${owner}.prototype` : owner;
    return holder ? [`${holder}.${member}`] : [member];
  }
  if (parent?.type === 'Property') {
    // Members of an object that has a name; an object handed straight to a call (a bundler's
    // export getters, `{ handleOrder: () => handleOrder }`) names nothing.
    const member = keyName(parent.key, parent.computed);
    const owner = grandParent?.type === 'ObjectExpression' ? targetName(ancestors[2]) : undefined;
    return member && owner ? [`${owner}.${member}`] : [];
  }
  const assigned = targetName(parent);
  return [assigned, own].filter((n): n is string => !!n);
}

/** The name a value is given: `const x = …`, `a.b.c = …`, `export default …`. */
function targetName(node: AnyNode | undefined): string | undefined {
  if (node?.type === 'VariableDeclarator') return node.id.type === 'Identifier' ? node.id.name : undefined;
  if (node?.type === 'AssignmentExpression') return memberText(node.left);
  if (node?.type === 'AssignmentPattern') return node.left.type === 'Identifier' ? node.left.name : undefined;
  return undefined;
}

/** The class a member belongs to: its own name, or the name it is assigned to (`const Cart = class {…}`). */
function classNameOf(classNode: AnyNode | undefined, holder: AnyNode | undefined): string | undefined {
  if (classNode?.type !== 'ClassDeclaration' && classNode?.type !== 'ClassExpression') return undefined;
  return classNode.id?.name ?? targetName(holder);
}

function keyName(key: AnyNode, computed: boolean): string | undefined {
  if (key.type === 'Identifier' && !computed) return key.name;
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  if (key.type === 'Literal' && typeof key.value === 'string') return key.value;
  return undefined;
}

function memberText(node: AnyNode): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'ThisExpression') return 'this';
  if (node.type === 'MemberExpression') {
    const object = memberText(node.object);
    const property = keyName(node.property, node.computed);
    return object && property ? `${object}.${property}` : undefined;
  }
  return undefined;
}
