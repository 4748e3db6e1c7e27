/**
 * The one refusal for C# the evaluator does not run (lambdas, patterns beyond the simple ones, object
 * initializers, a method of a primitive value…): UNSUPPORTED with `details.evaluator`, never a wrong
 * value, so a fuller evaluator (a compiled one) can take these expressions over by that mark alone.
 */
import { DebugError } from '../../../../core/errors.js';

export const EVALUATOR_LIMIT = 'csharp-interpreter';

export function unsupported(construct: string, reason: string): DebugError {
  return new DebugError('UNSUPPORTED', `${reason} (the debugger's C# evaluator does not run ${construct})`, 'Evaluate the parts it is made of (variables, members, calls) one at a time.', {
    evaluator: EVALUATOR_LIMIT,
    construct,
  });
}

export function isEvaluatorLimit(e: unknown): e is DebugError {
  return e instanceof DebugError && e.code === 'UNSUPPORTED' && e.details?.evaluator === EVALUATOR_LIMIT;
}
