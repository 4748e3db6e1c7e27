/**
 * The one refusal for valid C# the evaluator does not run (lambdas, switch expressions, patterns
 * beyond type / constant / `not`, object initializers, a type nested in a generic type…):
 * UNSUPPORTED with `details.evaluator`, never a wrong value, so a fuller evaluator (a compiled one)
 * can take these expressions over by that mark alone.
 */
import { DebugError } from '../../../../core/errors.js';

const EVALUATOR_LIMIT = 'csharp-interpreter';

/** Whether an error is the evaluator's refusal of valid C# (what a compiled evaluation takes over). */
export function refusedByInterpreter(e: unknown): boolean {
  return e instanceof DebugError && e.code === 'UNSUPPORTED' && e.details?.evaluator === EVALUATOR_LIMIT;
}

export function unsupported(construct: string, reason: string): DebugError {
  return new DebugError('UNSUPPORTED', `${reason}: valid C# that the debugger's evaluator does not run`, 'Evaluate the parts it is made of (variables, members, calls) one at a time.', {
    evaluator: EVALUATOR_LIMIT,
    construct,
  });
}
