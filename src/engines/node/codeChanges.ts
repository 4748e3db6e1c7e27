/**
 * What an edit changed in a script, told the way the agent names code: `Cart.total (function
 * body)`, `new function discount`, `removed function legacy`, `top-level code (not run again)`.
 * Both versions are parsed with acorn and each token is given to the innermost function or class
 * around it, so whitespace and comments change nothing, and an edit inside a nested function is
 * told for that function alone.
 */
import type { AnyNode, Function as FunctionNode, Token } from 'acorn';
import { ancestor } from 'acorn-walk';
import { namesOf, parseLeniently } from './functionLocator.js';

interface Owner {
  start: number;
  end: number;
  label: string;
  kind: 'function' | 'class';
  text: string[];
}

interface CodeShape {
  /** Each function's and class's own tokens, by a key that stays the same across versions. */
  owners: Map<string, Owner>;
  topLevel: string;
}

export interface CodeChanges {
  items: string[];
  /** Nothing but whitespace, comments or positions changed. */
  same: boolean;
  /** Whether the innermost function around an offset of `before` changed (false outside functions). */
  changedAt(offset: number): boolean;
  /** Whether a function of `before` starts in [start, end). */
  functionIn(start: number, end: number): boolean;
}

/** What changed from `before` to `after`; undefined when either does not parse. */
export function codeChanges(before: string, after: string): CodeChanges | undefined {
  const [old, now] = [shapeOf(before), shapeOf(after)];
  if (!old || !now) return undefined;
  const items: string[] = [];
  const changed = new Set<Owner>();
  for (const [key, owner] of now.owners) {
    const was = old.owners.get(key);
    if (!was) items.push(`new ${owner.kind} ${owner.label}`);
    else if (was.text.join(' ') !== owner.text.join(' ')) {
      changed.add(was);
      items.push(`${owner.label} (${owner.kind === 'function' ? 'function body' : 'class body'})`);
    }
  }
  for (const [key, owner] of old.owners) if (!now.owners.has(key)) items.push(`removed ${owner.kind} ${owner.label}`);
  if (old.topLevel !== now.topLevel) items.push('top-level code (not run again)');
  const functions = [...old.owners.values()].filter((o) => o.kind === 'function');
  const changedAt = (offset: number) => {
    const around = functions.filter((f) => f.start <= offset && offset < f.end);
    const innermost = around.reduce<Owner | undefined>((a, b) => (!a || b.end - b.start < a.end - a.start ? b : a), undefined);
    return !!innermost && changed.has(innermost);
  };
  const functionIn = (start: number, end: number) => functions.some((f) => f.start >= start && f.start < end);
  return { items, same: items.length === 0, changedAt, functionIn };
}

function shapeOf(source: string): CodeShape | undefined {
  const tokens: Token[] = [];
  const program = parseLeniently(source, tokens);
  if (!program) return undefined;
  const owners: Owner[] = [];
  const labelOf = new Map<unknown, string>();
  const visitFunction = (node: FunctionNode, _state: unknown, ancestors: AnyNode[]) => {
    const outer = ancestors.slice(0, -1).reverse();
    const named = namesOf(node, outer)[0]?.replace(/\.prototype\./g, '.');
    const around = outer.find((n) => labelOf.has(n));
    const label = named ?? `anonymous function${around ? ` in ${labelOf.get(around)}` : ''}`;
    labelOf.set(node, label);
    owners.push({ start: node.start, end: node.end, label, kind: 'function', text: [] });
  };
  ancestor(program, {
    FunctionDeclaration: visitFunction,
    FunctionExpression: visitFunction,
    ArrowFunctionExpression: visitFunction,
    Class(node, _state, ancestors) {
      const holder = ancestors[ancestors.length - 2];
      const label = node.id?.name ?? (holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier' ? holder.id.name : 'anonymous class');
      labelOf.set(node, label);
      owners.push({ start: node.start, end: node.end, label, kind: 'class', text: [] });
    },
  });
  // Outer before inner, so the innermost owner that contains a token is the last one that does.
  owners.sort((a, b) => a.start - b.start || b.end - a.end);
  const top: string[] = [];
  const open: Owner[] = [];
  let next = 0;
  for (const token of tokens) {
    while (open.length && open[open.length - 1].end <= token.start) open.pop();
    while (next < owners.length && owners[next].start <= token.start) {
      const owner = owners[next++];
      while (open.length && open[open.length - 1].end <= owner.start) open.pop();
      open.push(owner);
    }
    while (open.length && open[open.length - 1].end <= token.start) open.pop();
    (open[open.length - 1]?.text ?? top).push(source.slice(token.start, token.end));
  }
  const byKey = new Map<string, Owner>();
  const seen = new Map<string, number>();
  for (const owner of owners) {
    const n = (seen.get(owner.label) ?? 0) + 1;
    seen.set(owner.label, n);
    byKey.set(`${owner.kind} ${owner.label} #${n}`, owner);
  }
  return { owners: byKey, topLevel: top.join(' ') };
}
