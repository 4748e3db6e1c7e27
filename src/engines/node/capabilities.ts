import type { EngineCapabilities } from '../../core/types.js';

export const NODE_EXCEPTION_FILTERS: EngineCapabilities['exceptionFilters'] = [
  { id: 'uncaught', label: 'Uncaught exceptions', default: true },
  { id: 'all', label: 'All exceptions, caught ones too', default: false },
];

export const NODE_CAPABILITIES: EngineCapabilities = {
  conditionalBreakpoints: true,
  hitConditionalBreakpoints: true,
  logPoints: true,
  // V8 breaks on a function call only for a function object it is handed, which may not exist yet.
  functionBreakpoints: false,
  setVariable: true,
  pause: true,
  attach: true,
  restart: true,
  exceptionFilters: NODE_EXCEPTION_FILTERS,
  notes: [
    'Expressions, conditions and new values are JavaScript.',
    'hitCondition is a number (stop on that hit) or an operator and number such as ">= 3" or "% 2".',
    'logMessage interpolates {expression} and prints through the program\'s console.log.',
    'A breakpoint on a line without code moves to the next statement; the binding says where.',
    'The "Local" scope merges the innermost block scopes with the function\'s own variables.',
    'Attach by host and port to a program started with `node --inspect=PORT prog.js`, or by pid (the inspector then opens on 127.0.0.1:9229).',
    'An uncaught exception at the top level of an ES module stops in node\'s module loader (the exception\'s stack names the line); the "all" filter stops where it is thrown.',
    'Function breakpoints are not supported: set a line breakpoint on the function\'s first line.',
    'TypeScript and other source-mapped code is debugged as the JavaScript node runs.',
  ],
};

/** V8's pause-on-exceptions state for the session's filters. */
export function pauseOnExceptionsState(filters: string[]): 'none' | 'uncaught' | 'all' {
  if (filters.includes('all')) return 'all';
  if (filters.includes('uncaught')) return 'uncaught';
  return 'none';
}
