import type { EngineCapabilities } from '../../core/types.js';

export const NODE_EXCEPTION_FILTERS: EngineCapabilities['exceptionFilters'] = [
  { id: 'uncaught', label: 'Uncaught exceptions', default: true },
  { id: 'all', label: 'All exceptions, caught ones too', default: false },
];

export const NODE_CAPABILITIES: EngineCapabilities = {
  continueResumes: 'its target',
  conditionalBreakpoints: true,
  hitConditionalBreakpoints: true,
  logPoints: true,
  // Found by name in the scripts' source text: see functionBreakpoints.ts.
  functionBreakpoints: true,
  setVariable: true,
  pause: true,
  attach: true,
  restart: true,
  liveEdit: true,
  exceptionFilters: NODE_EXCEPTION_FILTERS,
  notes: [
    'Expressions, conditions and new values are JavaScript.',
    'hitCondition is a number (stop on that hit) or an operator and number such as ">= 3" or "% 2".',
    'logMessage interpolates {expression} and prints through the program\'s console.log.',
    'A breakpoint on a line without code moves to the next statement; the binding says where.',
    'The "Local" scope merges the innermost block scopes with the function\'s own variables.',
    'Attach by host and port to a program started with `node --inspect=PORT prog.js`, or by pid (the inspector then opens on 127.0.0.1:9229).',
    'An uncaught exception at the top level of an ES module stops in node\'s module loader (the exception\'s stack names the line); the "all" filter stops where it is thrown.',
    'Function breakpoints take a name as written in the source: handleOrder, Cart.total, Cart.prototype.total; they break on the first statement of every function of that name (the binding says where).',
    'TypeScript (.ts/.tsx/.mts/.cts) runs through the project\'s tsx or ts-node, node\'s own type stripping (Node.js 22.6 or later), or JavaScript compiled from it with a source map; option tsRunner picks one. Stops, frames, steps and breakpoints are told in the TypeScript source through source maps (inline or .map files); where a map\'s sources are absent, in the JavaScript that runs.',
    'session_apply_changes gives edited scripts their new text through V8 (TypeScript compiled again by tsx\'s esbuild or TypeScript): V8 refuses to change a function that is running, except the paused top frame, which it runs again from its start (not an async function); an ES module\'s top-level code cannot change.',
    'Node processes and worker threads the program starts are debugged too: each is a thread (inspect_threads); a stop says which one.',
    'When attached (not launched), TypeScript breakpoints in CommonJS modules that load later bind as they load: their first lines may run before.',
    'Stacks include the callers that await (marked async). At an exception stop, $exception in an expression is the thrown value.',
  ],
};

/** V8's pause-on-exceptions state for the session's filters. */
export function pauseOnExceptionsState(filters: string[]): 'none' | 'uncaught' | 'all' {
  if (filters.includes('all')) return 'all';
  if (filters.includes('uncaught')) return 'uncaught';
  return 'none';
}
