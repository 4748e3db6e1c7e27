/**
 * Reading and changing values of a stopped program: scopes, children by path or handle, evaluate,
 * assign. Paths are resolved by walking children names; when that fails the path is evaluated as
 * an expression in the program's own language.
 */
import type { Engine } from './engine.js';
import { DebugError, isDebugError } from './errors.js';
import { isGroupingNode } from './stopBuilder.js';
import type { ScopeInfo, VariableInfo } from './types.js';
import { capText, VALUE_CHARS } from './valueText.js';
import { candidateNames, isMemberName, joinPath, parseVariablePath, type PathSegment } from './variablePath.js';

export interface VariableView {
  name: string;
  value: string;
  type?: string;
  path: string;
  hasChildren: boolean;
  /** Handle for children; valid while the program stays stopped. */
  ref: number;
  /** 0 for the listed level, 1 for their children when depth > 1, … */
  level: number;
}

export interface ScopeView {
  name: string;
  expensive: boolean;
  count?: number;
}

export interface VariablesQuery {
  frameId: number;
  path?: string;
  ref?: number;
  scope?: string;
  depth: number;
  start: number;
  count: number;
  /** Characters of text the listing may take (names, values, types); default VARIABLES_ANSWER_CHARS. */
  maxChars?: number;
}

export interface VariablesAnswer {
  /** What was listed: a scope name, a path, or a handle. */
  container: string;
  variables: VariableView[];
  scopes: ScopeView[];
  /** More children exist past this page. */
  more: boolean;
  total?: number;
  /** Set when the answer was cut to fit its size cap or time budget. */
  cut?: AnswerCut;
}

/** What an answer cut short left out, and how to read it. */
export interface AnswerCut {
  reason: 'size' | 'time';
  /** Where the listed level goes on: pass it as `start`. Undefined when every item of the page is there. */
  nextStart?: number;
  /** Paths whose children were not (all) expanded: pass one as `path`. */
  unexpanded: string[];
}

/** The size (characters of the listing's text) and time an inspect_variables answer may take. */
export const VARIABLES_ANSWER_CHARS = 64_000;
export const VARIABLES_BUDGET_MS = 5_000;

export interface ValueAnswer {
  value: string;
  type?: string;
  ref: number;
  hasChildren: boolean;
}

const CHILDREN_PER_NESTED_LEVEL = 20;

/** What is left of an answer's size and time; `cut` says which one ran out first. */
interface Budget {
  chars: number;
  deadline: number;
  cut?: 'size' | 'time';
  unexpanded?: string[];
}

export class Inspector {
  constructor(private readonly engine: Engine) {}

  async variables(q: VariablesQuery): Promise<VariablesAnswer> {
    const scopes = await this.engine.scopes(q.frameId);
    const scopeViews = scopes.map((s) => ({ name: s.name, expensive: s.expensive, count: s.namedVariables }));
    let container: { ref: number; path: string | undefined; label: string; total?: number };
    if (q.ref !== undefined) {
      container = { ref: q.ref, path: undefined, label: `#${q.ref}` };
    } else if (q.path) {
      const found = await this.resolvePath(q.frameId, scopes, q.path);
      container = { ref: found.ref, path: q.path, label: q.path, total: found.total };
      if (!found.ref) {
        throw new DebugError('INVALID_ARGUMENT', `${q.path} = ${capText(found.value, VALUE_CHARS)} has no children.`, 'Use inspect_evaluate to see a plain value.');
      }
    } else {
      const scope = q.scope ? findScope(scopes, q.scope) : scopes.find((s) => !s.expensive) ?? scopes[0];
      if (!scope) throw new DebugError('VARIABLE_NOT_FOUND', 'This frame has no scopes.', 'Pick another frame with frameIndex.');
      container = { ref: scope.ref, path: undefined, label: scope.name, total: scope.namedVariables };
    }
    const budget: Budget = { chars: q.maxChars ?? VARIABLES_ANSWER_CHARS, deadline: Date.now() + VARIABLES_BUDGET_MS };
    const page = await this.children(container.ref, container.path, q.start, q.count, 0, q.depth, budget);
    const cut = budget.cut ? { reason: budget.cut, nextStart: page.nextStart, unexpanded: budget.unexpanded ?? [] } : undefined;
    return { container: container.label, variables: page.views, scopes: scopeViews, more: page.more, total: container.total, cut };
  }

  /** `maxChars`: where the value's text is cut (the caller may cut it itself, and say how to read on). */
  async evaluate(frameId: number | undefined, expression: string, maxChars = VALUE_CHARS, options?: { sideEffects?: boolean }): Promise<ValueAnswer> {
    const r = await this.engine.evaluate(expression, frameId, 'repl', options);
    return { value: capText(r.value, maxChars), type: r.type, ref: r.ref, hasChildren: r.ref > 0 };
  }

  /** An expression for characters [start, end) of the string `expression` gives, in the program's language. */
  textSlice(expression: string, start: number, end: number): string {
    return this.engine.textSlice(expression, start, end);
  }

  /** Assigns `value` (an expression of the program's language) to a local, argument or field named by `path`. */
  async setVariable(frameId: number, path: string, value: string): Promise<ValueAnswer> {
    const segments = parsePath(path);
    const scopes = await this.engine.scopes(frameId);
    const last = segments[segments.length - 1];
    let containerRef: number;
    let children: VariableInfo[];
    if (segments.length === 1) {
      const hit = await this.findInScopes(scopes, last);
      if (!hit) throw notFound(path);
      containerRef = hit.scope.ref;
      children = [hit.variable];
    } else {
      const parentPath = segments.slice(0, -1);
      const parent = await this.walk(scopes, parentPath, path);
      containerRef = parent.ref;
      children = await this.engine.variables(parent.ref);
    }
    const target = matchChild(children, last);
    if (!target) throw notFound(path);
    const r = await this.engine.setVariable(containerRef, target.name, value);
    return { value: capText(r.value, VALUE_CHARS), type: r.type, ref: r.ref, hasChildren: r.ref > 0 };
  }

  /**
   * One page of `ref`'s children, each followed by its own children down to `depth`. Stops where
   * the budget runs out, noting it in the budget; `nextStart` is where the page goes on then.
   */
  private async children(ref: number, parentPath: string | undefined, start: number, count: number, level: number, depth: number, budget: Budget) {
    const vars = (await this.engine.variables(ref, start, count + 1)).filter((v) => !isGroupingNode(v.name));
    const more = vars.length > count;
    const views: VariableView[] = [];
    const page = vars.slice(0, count);
    for (let i = 0; i < page.length; i++) {
      const v = page[i];
      const path = v.evaluateName && (!parentPath || !isMemberName(v.name)) ? v.evaluateName : joinPath(parentPath, v.name);
      const view = { name: v.name, value: capText(v.value, VALUE_CHARS), type: v.type, path, hasChildren: v.ref > 0, ref: v.ref, level };
      const size = textSize(view);
      if (budget.cut || size > budget.chars) {
        budget.cut ??= 'size';
        return { views, more: true, nextStart: start + i };
      }
      budget.chars -= size;
      views.push(view);
      if (v.ref > 0 && depth > 1) {
        if (Date.now() > budget.deadline) budget.cut ??= 'time';
        if (budget.cut) {
          (budget.unexpanded ??= []).push(path);
          return { views, more, nextStart: i + 1 < page.length || more ? start + i + 1 : undefined };
        }
        const nested = await this.children(v.ref, path, 0, CHILDREN_PER_NESTED_LEVEL, level + 1, depth - 1, budget);
        views.push(...nested.views);
        if (budget.cut) {
          if (nested.nextStart !== undefined || nested.views.length === 0) (budget.unexpanded ??= []).push(path);
          return { views, more, nextStart: i + 1 < page.length || more ? start + i + 1 : undefined };
        }
      }
    }
    return { views, more, nextStart: undefined as number | undefined };
  }

  private async resolvePath(frameId: number, scopes: ScopeInfo[], path: string): Promise<{ ref: number; value: string; total?: number }> {
    const segments = parsePath(path);
    try {
      const found = await this.walk(scopes, segments, path);
      return { ref: found.ref, value: found.value, total: found.namedVariables ?? found.indexedVariables };
    } catch (walkError) {
      // Walking names failed: the runtime may still understand the path as an expression.
      try {
        const r = await this.engine.evaluate(path, frameId, 'watch');
        return { ref: r.ref, value: r.value, total: r.namedVariables ?? r.indexedVariables };
      } catch {
        throw walkError;
      }
    }
  }

  private async walk(scopes: ScopeInfo[], segments: PathSegment[], fullPath: string): Promise<VariableInfo> {
    const [first, ...rest] = segments;
    const hit = await this.findInScopes(scopes, first);
    if (!hit) throw notFound(fullPath);
    let current = hit.variable;
    for (const segment of rest) {
      if (!current.ref) throw notFound(fullPath);
      const next = matchChild(await this.engine.variables(current.ref), segment);
      if (!next) throw notFound(fullPath);
      current = next;
    }
    return current;
  }

  private async findInScopes(scopes: ScopeInfo[], segment: PathSegment): Promise<{ scope: ScopeInfo; variable: VariableInfo } | undefined> {
    const ordered = [...scopes.filter((s) => !s.expensive), ...scopes.filter((s) => s.expensive)];
    for (const scope of ordered) {
      try {
        const variable = matchChild(await this.engine.variables(scope.ref), segment);
        if (variable) return { scope, variable };
      } catch (e) {
        if (!isDebugError(e)) throw e;
      }
    }
    return undefined;
  }
}

/** What a listed value takes in the text an agent reads: indent, name, value, type, separators. */
function textSize(v: VariableView): number {
  return 2 * v.level + v.name.length + v.value.length + (v.type?.length ?? 0) + 8;
}

function parsePath(path: string): PathSegment[] {
  try {
    return parseVariablePath(path);
  } catch (e) {
    throw new DebugError('INVALID_ARGUMENT', (e as Error).message, 'Write paths like order.items[2] or table["counts"].');
  }
}

function findScope(scopes: ScopeInfo[], name: string): ScopeInfo {
  const scope = scopes.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!scope) {
    throw new DebugError('VARIABLE_NOT_FOUND', `No scope named "${name}".`, `Scopes here: ${scopes.map((s) => s.name).join(', ') || 'none'}.`);
  }
  return scope;
}

function matchChild(children: VariableInfo[], segment: PathSegment): VariableInfo | undefined {
  for (const candidate of candidateNames(segment)) {
    const hit = children.find((c) => c.name === candidate);
    if (hit) return hit;
  }
  return undefined;
}

function notFound(path: string): DebugError {
  return new DebugError('VARIABLE_NOT_FOUND', `Nothing named ${path} in this frame.`, 'Call inspect_variables without a path to list what is in scope.');
}
