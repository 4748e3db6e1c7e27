/**
 * Runs code in the stopped program (property getters, methods, ToString) through ICorDebugEval,
 * bounded in time: past its timeout an evaluation is aborted, then rudely aborted, so the session
 * stays usable. An exception thrown by the evaluated code answers EVALUATION_FAILED with its type and
 * message.
 */
import { DebugError } from '../../../../core/errors.js';
import { NativeError } from '../../addon.js';
import type { CallArg, EvalOutcome, Native, TypeSpec } from '../nativeSession.js';
import { ElementType, type NativeValue } from './nativeValue.js';
import type { MethodRef, TypeCatalog } from './typeCatalog.js';

export const DEFAULT_EVAL_TIMEOUT_MS = 5_000;
/** How long an aborted evaluation is given to end. */
const ABORT_GRACE_MS = 1_000;
/**
 * The same for a thread that sleeps, waits or joins: what ends its wait (a timer the resumed threads
 * fire, a rude abort of a monitor wait) does so within milliseconds, and on Linux nothing ends a sleep.
 */
const WAIT_GRACE_MS = 250;
const UNFINISHED_HINT = 'Evaluate again once it ends (the stop is then as it was), or end the session.';

export class FuncEval {
  timeoutMs = DEFAULT_EVAL_TIMEOUT_MS;
  /** An aborted evaluation still running: its thread waits where the runtime cannot interrupt it (a sleep). */
  private unfinished: { what: string; settled: Promise<unknown> } | undefined;

  constructor(
    private readonly native: () => Native | undefined,
    private readonly catalog: TypeCatalog,
  ) {}

  /** Calls `method` (on `self` unless static); undefined for a void method. */
  async call(threadId: number, method: MethodRef, self: NativeValue | undefined, args: CallArg[], what: string, methodTypeArgsFrom?: number, typeArgs?: TypeSpec[]): Promise<NativeValue | undefined> {
    // A struct's own methods take the struct itself, never the box around it.
    const thisArg: CallArg[] = method.isStatic || !self ? [] : [{ h: self.h, unbox: self.et === ElementType.valuetype }];
    const outcome = await this.run(
      what,
      this.requireNative().call('call', {
        threadId,
        module: method.module,
        method: method.token,
        args: [...thisArg, ...args],
        typeArgsFrom: self && !method.isStatic ? self.h : undefined,
        declaringModule: method.declaringModule,
        declaringType: method.declaringType,
        methodTypeArgsFrom,
        typeArgs,
      }),
    );
    return this.result(outcome, what);
  }

  /**
   * A new object of the constructor's type (`ctor` with its arguments); a generic type takes the type
   * arguments of `typeArgsOf`: the value's type, or the base type of it that `module` + `token` name (or
   * `typeArgs`, exact).
   */
  async construct(
    threadId: number,
    ctor: { module: number; token: number },
    args: CallArg[],
    what: string,
    typeArgsOf?: { h: number; module: number; token: number },
    typeArgs?: TypeSpec[],
  ): Promise<NativeValue> {
    const from = typeArgsOf && { typeArgsFrom: typeArgsOf.h, declaringModule: typeArgsOf.module, declaringType: typeArgsOf.token };
    const outcome = await this.run(what, this.requireNative().call('call', { threadId, module: ctor.module, method: ctor.token, args, construct: true, ...from, ...(typeArgs?.length && { typeArgs }) }));
    const value = await this.result(outcome, what);
    if (!value) throw new DebugError('EVALUATION_FAILED', `${what} made no object`);
    return value;
  }

  /** A new object of `type` without a constructor: a box whose value `bytes` (hex) fill, or a default struct. */
  async newObject(threadId: number, type: TypeSpec, what: string, bytes?: string): Promise<NativeValue> {
    const value = await this.result(await this.run(what, this.requireNative().call('newObject', { threadId, type, bytes })), what);
    if (!value) throw new DebugError('EVALUATION_FAILED', `${what} made no object`);
    return value;
  }

  /** A new zeroed one-dimensional array. */
  async newArray(threadId: number, elem: TypeSpec, length: number, what: string): Promise<NativeValue> {
    const value = await this.result(await this.run(what, this.requireNative().call('newArray', { threadId, elem, length })), what);
    if (!value) throw new DebugError('EVALUATION_FAILED', `${what} made no array`);
    return value;
  }

  async newString(threadId: number, text: string): Promise<NativeValue> {
    const outcome = await this.run('creating a string', this.requireNative().call('newString', { threadId, text }));
    const value = await this.result(outcome, 'creating a string');
    if (!value) throw new DebugError('EVALUATION_FAILED', 'the runtime created no string');
    return value;
  }

  private async result(outcome: EvalOutcome, what: string): Promise<NativeValue | undefined> {
    if ('value' in outcome) return outcome.value;
    if ('void' in outcome) return undefined;
    const type = this.catalog.name(outcome.exception.chain?.[0]);
    const message = await this.exceptionMessage(outcome.exception);
    throw new DebugError('EVALUATION_FAILED', `${what} threw ${type}${message ? `: ${message}` : ''}`, 'The evaluated code threw: fix the expression or inspect the values it uses.');
  }

  /** An exception object's `Message` (its `_message` field, declared by System.Exception). */
  async exceptionMessage(exception: NativeValue): Promise<string | undefined> {
    for (const type of exception.chain ?? []) {
      const view = this.catalog.view(type);
      if (view?.fullName !== 'System.Exception') continue;
      const field = view.fields.find((f) => f.name === '_message');
      if (!field) return undefined;
      const { values } = await this.requireNative().call('fields', { h: exception.h, fields: [{ module: view.module, type: view.token, field: field.token }] });
      const message = values[0];
      return message && 'h' in message ? message.str : undefined;
    }
    return undefined;
  }

  private async run(what: string, started: Promise<EvalOutcome>): Promise<EvalOutcome> {
    const native = this.requireNative();
    await this.awaitUnfinished();
    const settled = started.then(
      (outcome) => ({ outcome }),
      (error: unknown) => ({ error }),
    );
    let result = await withDeadline(settled, this.timeoutMs);
    let waiting = false;
    if (!result) {
      waiting = (await native.call('abortEval', { rude: false }).catch(() => undefined))?.waiting === true;
      result = await withDeadline(settled, waiting ? WAIT_GRACE_MS : ABORT_GRACE_MS);
    }
    if (!result) {
      await native.call('abortEval', { rude: true }).catch(() => undefined);
      result = await withDeadline(settled, waiting ? WAIT_GRACE_MS : ABORT_GRACE_MS);
    }
    if (!result) {
      const unfinished = { what, settled };
      this.unfinished = unfinished;
      void settled.then(() => this.unfinished === unfinished && (this.unfinished = undefined));
      const why = waiting
        ? 'it sleeps, waits or joins, which the runtime cannot interrupt on Linux: the abort ends it only when that wait ends'
        : 'it was aborted, which ends it when its thread leaves a wait the runtime cannot interrupt';
      throw new DebugError('TIMEOUT', `${what} did not finish in ${this.timeoutMs} ms; ${why}`, UNFINISHED_HINT);
    }
    if ('outcome' in result) return result.outcome;
    const error = result.error;
    if (error instanceof NativeError) {
      const hint =
        error.code === 'EVAL_IMPOSSIBLE'
          ? 'Step to a line of your code (execution_step) and evaluate there.'
          : error.code === 'EVAL_ABORTED'
            ? `Evaluations stop after ${this.timeoutMs} ms; plain locals and fields can still be read.`
            : undefined;
      throw new DebugError('EVALUATION_FAILED', `${what}: ${error.message}`, hint);
    }
    throw error;
  }

  /** The program is stopped again only when an aborted evaluation ends: a read or a new evaluation waits for that, bounded. */
  async awaitUnfinished(): Promise<void> {
    const unfinished = this.unfinished;
    if (!unfinished) return;
    if (await withDeadline(unfinished.settled, this.timeoutMs)) return;
    throw new DebugError('TIMEOUT', `the aborted evaluation of ${unfinished.what} is still running`, UNFINISHED_HINT);
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new DebugError('INVALID_STATE', 'the .NET program is not being debugged any more');
    return native;
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
