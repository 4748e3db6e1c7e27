/**
 * Python statement, run before the program: pydevd stops where a breakpoint's condition raises, as
 * Visual Studio does and debugbridge's .NET engine does (in debugpy's mode pydevd takes the error
 * for false, silently for a NameError: a typo in a condition and the breakpoint never stops, with
 * no word why). stopReader.ts says at the stop which condition failed and how.
 */
export const STOP_ON_CONDITION_ERRORS = String.raw`
try:
    __import__("pydevd").get_global_debugger().skip_suspend_on_breakpoint_exception = ()
except Exception:
    pass
`;
