import type { EngineCapabilities } from '../../core/types.js';

/** What the .NET engine can do: source-level debugging from Portable PDBs, values and C# expressions. */
export const dotnetCapabilities: EngineCapabilities = {
  continueResumes: 'all threads',
  conditionalBreakpoints: true,
  hitConditionalBreakpoints: true,
  logPoints: true,
  functionBreakpoints: true,
  setVariable: true,
  pause: true,
  attach: true,
  restart: false,
  liveEdit: true,
  exceptionFilters: [
    { id: 'uncaught', label: 'Unhandled exceptions', default: true },
    { id: 'all', label: 'Every exception thrown in or passing through your code (first chance); exceptionTypes narrows it', default: false },
  ],
  notes: [
    'Launch (.dll, apphost, .csproj or project folder, built with `dotnet build -c Debug`) or attach by pid; line breakpoints (verified / pending until the module loads / moved), function breakpoints (`Method`, `Type.Method`, `Namespace.Type.Method`), stopOnEntry, the stack with C# names, step over / into / out with Just My Code (async-aware), pause, exceptions with type and message, output and exit code.',
    'Values as C# shows them ([DebuggerDisplay], ToString() overrides, collections by their items, hoisted and captured variables under their names); inspect_evaluate takes C# expressions (members, calls and property getters by func-eval, indexers, operators, casts, ?., ??, interpolation, $exception) with a 5 s limit per evaluation; conditions, hit counts and logpoints ({expr} holes); set value of primitives, strings, enums and null.',
    'Code with symbols (a .pdb beside the dll or embedded) is "my code"; the rest shows as [External Code] and is stepped over.',
    "Without dbgshim (Linux, Windows) the addon uses the runtime's own mscordbi; on Linux the debuggee must share TMPDIR and /dev/shm with debugbridge.",
    "session_apply_changes: Edit and Continue of launched programs (not attached ones) with Roslyn's deltas, stopped or running; rude edits refused with Roslyn's ENC diagnostic, the program untouched; the Roslyn worker is built with the .NET SDK on first use.",
  ],
};
