/** Object and array creation in an evaluation (ICorDebugEval's NewParameterizedObject / NewParameterizedArray, through calls.ts). */
import { DebugError } from '../../../../core/errors.js';
import type { Expr, TypeSyntax } from '../../expressions/ast.js';
import { type ClrType, displayType } from '../../expressions/clrType.js';
import type { Calls } from './calls.js';
import { fromNative, type EvalValue, type Place } from './evalValue.js';
import type { Members } from './members.js';
import type { Operands } from './operands.js';

/** What creating needs of the evaluation it is part of. */
export interface Creating {
  calls: Calls;
  members: Members;
  operands: Operands;
  place: Place;
  eval(e: Expr): Promise<EvalValue>;
  clrType(type: TypeSyntax): ClrType;
}

/** `new T(args) { items }`: the constructor C# picks, then `Add(item)` for each element, in order. */
export async function createObject(run: Creating, typeSyntax: TypeSyntax, argExprs: Expr[], initializer: Expr[] | undefined): Promise<EvalValue> {
  const type = run.clrType(typeSyntax);
  if (type.kind !== 'named') throw new DebugError('EVALUATION_FAILED', `${displayType(type)} cannot be created with new`);
  const args: EvalValue[] = [];
  for (const arg of argExprs) args.push(await run.eval(arg));
  const created = await run.calls.construct(type, args, run.place);
  // A collection initializer fills the new object: no side effect, as in the compiled evaluation.
  const filling = { threadId: run.place.threadId, frameIndex: run.place.frameIndex, names: run.place.names };
  for (const item of initializer ?? []) {
    await run.members.call(created, 'Add', [await run.eval(item)], filling);
  }
  return fromNative(created, type);
}

/** `new T[] { … }`, `new[] { … }` (the best common type of the elements), `new T[n]`. */
export async function createArray(run: Creating, elementSyntax: TypeSyntax | undefined, sizeExpr: Expr | undefined, itemExprs: Expr[] | undefined): Promise<EvalValue> {
  const items: EvalValue[] = [];
  for (const item of itemExprs ?? []) items.push(await run.eval(item));
  const { calls } = run;
  let elem: ClrType | undefined = elementSyntax && run.clrType(elementSyntax);
  if (!elem) {
    const types = items.map((i) => calls.argument(i).type).filter((t) => t.kind !== 'null');
    elem = types.find((t) => items.every((i) => calls.convertible(i, t)));
    if (!elem) throw new DebugError('EVALUATION_FAILED', 'No best type found for implicitly-typed array', 'Name the element type: new T[] { … }.');
  }
  if (sizeExpr) {
    const size = Number((await run.operands.csValue(await run.eval(sizeExpr))).value);
    if (!Number.isInteger(size) || size < 0) throw new DebugError('EVALUATION_FAILED', 'an array length must be a non-negative integer');
    if (itemExprs && size !== items.length) throw new DebugError('EVALUATION_FAILED', `An array initializer of length '${size}' is expected`);
    if (!itemExprs) return fromNative(await calls.array(elem, [], run.place, size), { kind: 'array', elem, rank: 1 });
  }
  return fromNative(await calls.array(elem, items, run.place), { kind: 'array', elem, rank: 1 });
}
