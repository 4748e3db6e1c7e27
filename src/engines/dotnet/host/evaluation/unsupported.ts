/**
 * The one refusal for valid C# the evaluator does not run (lambdas, switch expressions, patterns
 * beyond type / constant / `not`, object initializers, a type nested in a generic type…):
 * UNSUPPORTED with `details.evaluator`, never a wrong value, so a fuller evaluator (a compiled one)
 * can take these expressions over by that mark alone.
 */
import { DebugError } from '../../../../core/errors.js';

const EVALUATOR_LIMIT = 'csharp-interpreter';

/** Whether an error is the evaluator's refusal of valid C# (what a compiled evaluation takes over). */
export function refusedByInterpreter(e: unknown): e is DebugError {
  return e instanceof DebugError && e.code === 'UNSUPPORTED' && e.details?.evaluator === EVALUATOR_LIMIT;
}

/**
 * What a refused assignment or ++/-- writes: the variable or member (as the compiled evaluation's
 * side-effect check names it), null when the parser cannot tell; undefined for other refusals.
 */
export function assignedBy(e: DebugError): string | null | undefined {
  return e.details?.assigns as string | null | undefined;
}

/** `assigns`: for an assignment, what it writes (null: an element or an unnamed target). */
export function unsupported(construct: string, reason: string, assigns?: string | null): DebugError {
  return new DebugError('UNSUPPORTED', `${reason}: valid C# that the debugger's evaluator does not run`, 'Evaluate the parts it is made of (variables, members, calls) one at a time.', {
    evaluator: EVALUATOR_LIMIT,
    construct,
    ...(assigns !== undefined && { assigns }),
  });
}
