import type { EngineCapabilities } from '../../core/types.js';

/** What the .NET engine can do today (part 1: runtime control without source-level debugging). */
export const dotnetCapabilities: EngineCapabilities = {
  conditionalBreakpoints: false,
  hitConditionalBreakpoints: false,
  logPoints: false,
  functionBreakpoints: false,
  setVariable: false,
  pause: true,
  attach: true,
  restart: false,
  exceptionFilters: [
    { id: 'uncaught', label: 'Unhandled exceptions', default: true },
    { id: 'all', label: 'Every exception when thrown (first chance)', default: false },
  ],
  notes: [
    'Launch (.dll, apphost, .csproj or project folder, built with `dotnet build -c Debug`), attach by pid, pause, threads, continue, detach, terminate, exceptions with type and message, output and exit code work.',
    'Not yet for .NET: line and function breakpoints (reported unverified), stopOnEntry, stack, variables, evaluation, stepping and set variable (UNSUPPORTED).',
    'Without libdbgshim (Linux) the addon uses the runtime\'s own libmscordbi; the debuggee must share TMPDIR and /dev/shm with debugbridge.',
  ],
};
