/** The generic exception filter ids of the core, in debugpy's words. */
import { DebugError } from '../../core/errors.js';
import type { EngineCapabilities } from '../../core/types.js';

export const PYTHON_EXCEPTION_FILTERS: EngineCapabilities['exceptionFilters'] = [
  { id: 'uncaught', label: 'Uncaught exceptions (the program would die of them)', default: true },
  { id: 'all', label: 'Every raised exception, caught or not (debugpy "raised")', default: false },
  { id: 'userUnhandled', label: 'Exceptions that escape user code into library code', default: false },
];

const TO_DEBUGPY: Record<string, string> = {
  uncaught: 'uncaught',
  all: 'raised',
  raised: 'raised',
  userUnhandled: 'userUnhandled',
};

export function debugpyExceptionFilters(filters: string[]): string[] {
  const unknown = filters.filter((f) => !(f in TO_DEBUGPY));
  if (unknown.length) {
    throw new DebugError(
      'INVALID_ARGUMENT',
      `Unknown Python exception filter(s): ${unknown.join(', ')}.`,
      `Use ${Object.keys(TO_DEBUGPY).join(', ')}.`,
    );
  }
  return [...new Set(filters.map((f) => TO_DEBUGPY[f]))];
}
