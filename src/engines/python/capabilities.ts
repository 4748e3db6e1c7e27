import type { DebugProtocol } from '@vscode/debugprotocol';
import type { EngineCapabilities } from '../../core/types.js';
import { PYTHON_EXCEPTION_FILTERS } from './exceptionFilters.js';

/** What debugpy (1.6 and later) offers; an engine refines it with the adapter's own answer. */
export const PYTHON_CAPABILITIES: EngineCapabilities = {
  continueResumes: 'all threads',
  conditionalBreakpoints: true,
  hitConditionalBreakpoints: true,
  logPoints: true,
  functionBreakpoints: true,
  setVariable: true,
  pause: true,
  attach: true,
  restart: true,
  liveEdit: true,
  exceptionFilters: PYTHON_EXCEPTION_FILTERS,
  notes: [
    'Expressions, conditions and new values are Python.',
    'hitCondition is a number (stop on that hit) or an operator and number such as ">= 3" or "% 2".',
    'logMessage interpolates {expression}.',
    'Attach by host and port to a program started with `python -m debugpy --listen HOST:PORT [--wait-for-client] prog.py`, or by pid (debugpy injects itself with gdb; needs ptrace permission).',
    'session_apply_changes gives changed functions and methods their new code (closures, defaults and references kept) and adds new functions, classes, imports and constants; calls already running finish on the old code; other changed module-level code is refused.',
    'Child processes the program starts are not debugged.',
    'sys.exit() ends the program without an exception stop; put a breakpoint on the call to stop there.',
    'Values hide dunder attributes and methods; evaluate them by name when needed.',
  ],
};

export function capabilitiesFrom(adapter: DebugProtocol.Capabilities): EngineCapabilities {
  return {
    ...PYTHON_CAPABILITIES,
    conditionalBreakpoints: !!adapter.supportsConditionalBreakpoints,
    hitConditionalBreakpoints: !!adapter.supportsHitConditionalBreakpoints,
    logPoints: !!adapter.supportsLogPoints,
    functionBreakpoints: !!adapter.supportsFunctionBreakpoints,
    setVariable: !!adapter.supportsSetVariable,
  };
}
