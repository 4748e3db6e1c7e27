/**
 * Reading and changing values of a paused (or, for evaluate, running) program: scopes from a
 * call frame's scope chain, children through `Runtime.getProperties`, arrays page by page,
 * evaluation on a call frame, assignment.
 */
import type { Protocol } from 'devtools-protocol';
import { DebugError } from '../../core/errors.js';
import type { EvaluateResult, ScopeInfo, VariableInfo } from '../../core/types.js';
import { HIT_COUNTERS_SYMBOL } from './breakpointConditions.js';
import type { CdpClient } from './cdpClient.js';
import { callArgument, exceptionText, hasChildren, isArrayLike, sizeOf, typeName, valueText } from './remoteObjects.js';
import type { CallFrame, ScopeEntry, ValueHandle, ValueHandles } from './valueHandles.js';

type RemoteObject = Protocol.Runtime.RemoteObject;
type ScopeType = Protocol.Debugger.Scope['type'];

/** Released as we let the program run on (see release). */
export const OBJECT_GROUP = 'debugbridge';

const EVALUATION_HINT = 'Use a JavaScript expression over names visible in the frame (inspect_variables lists them).';
/** Scope types whose variables `Debugger.setVariableValue` can change. */
const SETTABLE_SCOPES: ScopeType[] = ['local', 'closure', 'catch'];
const SHOWN_INTERNALS = new Set(['[[Entries]]', '[[PrimitiveValue]]', '[[PromiseState]]', '[[PromiseResult]]', '[[Target]]', '[[Handler]]']);
const HIDDEN_SYMBOL = `Symbol(${HIT_COUNTERS_SYMBOL})`;
const ARRAY_PAGE = 'function (start, end) { const page = {}; for (let i = start; i < end; i++) page[i] = this[i]; return page; }';
const ASSIGN_PROPERTY = 'function (name, value) { this[name] = value; return this[name]; }';
const CAPTURED = new Set(['closure', 'block', 'catch']);

export class ValueReader {
  /**
   * V8 copies a paused frame's variables into its scope objects once: what we assign since is
   * kept here (by scope object id and name) so listings show the new value.
   */
  private readonly assigned = new Map<string, Map<string, RemoteObject>>();

  constructor(
    private readonly cdp: () => CdpClient,
    private readonly handles: ValueHandles,
  ) {}

  scopes(frame: CallFrame): ScopeInfo[] {
    const chain = frame.scopeChain.map((scope, index) => ({ index, scope }));
    // Block scopes of the current function are where a person looks for "locals": one scope.
    const localEnd = chain.findIndex((e) => e.scope.type !== 'block' && e.scope.type !== 'catch');
    const merged = localEnd >= 0 && ['local', 'module'].includes(chain[localEnd].scope.type) ? localEnd + 1 : 0;
    const groups: ScopeEntry[][] = merged ? [chain.slice(0, merged), ...chain.slice(merged).map((e) => [e])] : chain.map((e) => [e]);
    return groups.map((scopes, i) => ({
      name: merged && i === 0 ? 'Local' : scopeName(scopes[0].scope),
      ref: this.handles.add({ kind: 'scope', frame, scopes, withReturnValue: i === 0 && !!frame.returnValue }),
      expensive: scopes[0].scope.type === 'global',
      // An enclosing function's scopes, its blocks too (a loop's variables a callback captured).
      captured: i > 0 && CAPTURED.has(scopes[0].scope.type),
    }));
  }

  async variables(handle: ValueHandle, start = 0, count?: number): Promise<VariableInfo[]> {
    const all = handle.kind === 'scope' ? await this.scopeVariables(handle) : await this.objectChildren(handle, start, count);
    if (handle.kind === 'object' && isArrayLike(handle.object)) return all; // already paged
    return all.slice(start, count === undefined ? undefined : start + count);
  }

  async evaluate(expression: string, frame: CallFrame | undefined): Promise<EvaluateResult> {
    const common = { expression, objectGroup: OBJECT_GROUP, generatePreview: true, silent: true, includeCommandLineAPI: true };
    const answer = frame
      ? await this.cdp().send('Debugger.evaluateOnCallFrame', { ...common, callFrameId: frame.callFrameId })
      : await this.cdp().send('Runtime.evaluate', common);
    if (answer.exceptionDetails) throw new DebugError('EVALUATION_FAILED', exceptionText(answer.exceptionDetails), EVALUATION_HINT);
    return this.result(answer.result, frame);
  }

  async setVariable(handle: ValueHandle, name: string, value: string, topFrame: CallFrame | undefined): Promise<EvaluateResult> {
    if (handle.kind === 'object') {
      const newValue = await this.evaluateRaw(value, handle.frame ?? topFrame);
      const answer = await this.cdp().send('Runtime.callFunctionOn', {
        objectId: handle.object.objectId,
        functionDeclaration: ASSIGN_PROPERTY,
        arguments: [{ value: name }, callArgument(newValue)],
        objectGroup: OBJECT_GROUP,
        generatePreview: true,
      });
      if (answer.exceptionDetails) throw new DebugError('EVALUATION_FAILED', exceptionText(answer.exceptionDetails), EVALUATION_HINT);
      return this.result(answer.result, handle.frame);
    }
    const owner = await this.scopeHolding(handle, name);
    let newValue: RemoteObject;
    if (owner && SETTABLE_SCOPES.includes(owner.scope.type)) {
      newValue = await this.evaluateRaw(value, handle.frame);
      await this.cdp().send('Debugger.setVariableValue', {
        scopeNumber: owner.index,
        variableName: name,
        newValue: callArgument(newValue),
        callFrameId: handle.frame.callFrameId,
      });
    } else {
      // Block, module, script and global bindings: an assignment in the frame reaches them.
      newValue = await this.evaluateRaw(`${name} = (${value}\n)`, handle.frame);
    }
    const scopeId = owner?.scope.object.objectId;
    if (scopeId) this.assigned.set(scopeId, (this.assigned.get(scopeId) ?? new Map()).set(name, newValue));
    return this.result(newValue, handle.frame);
  }

  /**
   * The program is about to run on: releases what evaluations and listings pinned in the debuggee.
   * Sent while it is still paused, ahead of the resume or step (an inspector handles a session's
   * messages in order): a worker let run may end at any moment, and node aborts the whole process
   * when a message for a worker reaches it while node takes that worker's inspector down.
   */
  release(): void {
    this.assigned.clear();
    this.cdp().send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
  }

  private async evaluateRaw(expression: string, frame: CallFrame | undefined): Promise<RemoteObject> {
    const common = { expression, objectGroup: OBJECT_GROUP, generatePreview: true, silent: true };
    const answer = frame
      ? await this.cdp().send('Debugger.evaluateOnCallFrame', { ...common, callFrameId: frame.callFrameId })
      : await this.cdp().send('Runtime.evaluate', common);
    if (answer.exceptionDetails) throw new DebugError('EVALUATION_FAILED', exceptionText(answer.exceptionDetails), EVALUATION_HINT);
    return answer.result;
  }

  private async scopeVariables(handle: Extract<ValueHandle, { kind: 'scope' }>): Promise<VariableInfo[]> {
    const seen = new Set<string>();
    const vars: VariableInfo[] = [];
    if (handle.withReturnValue && handle.frame.returnValue) vars.push(this.variable('(return value)', handle.frame.returnValue, handle.frame));
    for (const { scope } of handle.scopes) {
      const objectId = scope.object.objectId;
      if (!objectId) continue;
      const assigned = this.assigned.get(objectId);
      for (const v of await this.properties(objectId, handle.frame)) {
        if (seen.has(v.name)) continue; // an inner block's binding shadows the outer one
        seen.add(v.name);
        const current = assigned?.get(v.name);
        vars.push({ ...(current ? this.variable(v.name, current, handle.frame) : v), evaluateName: v.name });
      }
    }
    return vars;
  }

  private async objectChildren(handle: Extract<ValueHandle, { kind: 'object' }>, start: number, count: number | undefined): Promise<VariableInfo[]> {
    const { object, frame } = handle;
    if (!object.objectId) return [];
    if (!isArrayLike(object)) return this.properties(object.objectId, frame);
    // Arrays list their elements, then `length`; only the requested page is fetched.
    const length = sizeOf(object) ?? 0;
    const end = count === undefined ? length : Math.min(length, start + count);
    const page: VariableInfo[] = [];
    if (start < end) {
      const slice = await this.cdp().send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: ARRAY_PAGE,
        arguments: [{ value: start }, { value: end }],
        objectGroup: OBJECT_GROUP,
      });
      if (slice.result.objectId) page.push(...(await this.properties(slice.result.objectId, frame)));
    }
    if (start <= length && (count === undefined || length < start + count)) page.push({ name: 'length', value: String(length), type: 'number', ref: 0 });
    return page;
  }

  private async properties(objectId: string, frame: CallFrame | undefined): Promise<VariableInfo[]> {
    const answer = await this.cdp().send('Runtime.getProperties', { objectId, ownProperties: true, generatePreview: true, objectGroup: OBJECT_GROUP } as Protocol.Runtime.GetPropertiesRequest);
    const vars: VariableInfo[] = [];
    for (const p of answer.result) {
      if (p.name === '__proto__' || p.name === HIDDEN_SYMBOL) continue;
      if (p.value) vars.push(this.variable(p.name, p.value, frame));
      else if (p.get || p.set) vars.push({ name: p.name, value: p.get && p.set ? '[Getter/Setter]' : p.get ? '[Getter]' : '[Setter]', type: 'accessor', ref: 0 });
    }
    const privates = (answer.privateProperties ?? []).filter((p) => p.value);
    const previewed = await Promise.all(privates.map((p) => this.withPreview(p.value!)));
    privates.forEach((p, i) => vars.push(this.variable(p.name, previewed[i], frame)));
    for (const p of answer.internalProperties ?? []) if (p.value && SHOWN_INTERNALS.has(p.name)) vars.push(this.variable(p.name, p.value, frame));
    return vars;
  }

  /** V8 previews the values of own properties, not of #private ones: an object among those is asked again for its preview. */
  private async withPreview(value: RemoteObject): Promise<RemoteObject> {
    if (value.type !== 'object' || value.preview || !value.objectId) return value;
    const answer = await this.cdp()
      .send('Runtime.callFunctionOn', { objectId: value.objectId, functionDeclaration: 'function () { return this; }', generatePreview: true, objectGroup: OBJECT_GROUP })
      .catch(() => undefined);
    return answer?.result.preview ? answer.result : value;
  }

  private variable(name: string, value: RemoteObject, frame: CallFrame | undefined): VariableInfo {
    const { ref, indexedVariables } = this.result(value, frame);
    return { name, value: valueText(value), type: typeName(value), ref, indexedVariables };
  }

  private result(value: RemoteObject, frame: CallFrame | undefined): EvaluateResult {
    return {
      value: valueText(value),
      type: typeName(value),
      ref: hasChildren(value) ? this.handles.add({ kind: 'object', object: value, frame }) : 0,
      indexedVariables: isArrayLike(value) ? sizeOf(value) : undefined,
    };
  }

  private async scopeHolding(handle: Extract<ValueHandle, { kind: 'scope' }>, name: string): Promise<ScopeEntry | undefined> {
    for (const entry of handle.scopes) {
      if (!entry.scope.object.objectId) continue;
      const { result } = await this.cdp().send('Runtime.getProperties', { objectId: entry.scope.object.objectId, ownProperties: true });
      if (result.some((p) => p.name === name)) return entry;
    }
    return undefined;
  }
}

function scopeName(scope: Protocol.Debugger.Scope): string {
  const base = { global: 'Global', local: 'Local', with: 'With', closure: 'Closure', catch: 'Catch', block: 'Block', script: 'Script', eval: 'Eval', module: 'Module', 'wasm-expression-stack': 'Wasm stack' }[scope.type];
  return scope.type === 'closure' && scope.name ? `${base} (${scope.name})` : base;
}
