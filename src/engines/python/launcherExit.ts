/**
 * Python run inside our debugpy adapter: debugpy's launcher reports a debuggee killed by a signal
 * as the low byte of the negative status (SIGKILL → 247), which no one can tell from exit(247).
 * The adapter starts the launcher through this code instead, which leaves everything as it was but
 * reports such a death as the negative status (SIGKILL → -9); the adapter passes the number on,
 * and `exitEvent` reads it back. The launcher in turn starts the debuggee through the file
 * named by --debuggee-prelude (debuggeePrelude.ts), which imports pydevd quicker.
 */
import { constants } from 'node:os';
import type { EngineEvent } from '../../core/engine.js';
import { SKIP_LOG_HEADER_PLATFORM } from './logHeader.js';

/** The program's exit as the adapter passes it on: a negative code is the signal that killed it. */
export function exitEvent(exitCode: number): EngineEvent {
  if (exitCode >= 0) return { type: 'exited', exitCode };
  const signal = Object.entries(constants.signals).find(([, n]) => n === -exitCode)?.[0];
  return { type: 'exited', signal: signal ?? `signal ${-exitCode}` };
}

/** Python source: `_debugbridge_prelude_before(subprocess, directory, prelude)`, for the adapter and the launcher. */
const PRELUDE_BEFORE = String.raw`
def _debugbridge_prelude_before(subprocess, directory, prelude):
    # A subprocess module whose Popen runs python <prelude...> <directory> ... where it was python <directory> ....
    import types

    class PopenWithPrelude(subprocess.Popen):
        def __init__(self, args, *more, **kwargs):
            args = list(args)
            if directory in args[1:]:
                at = args.index(directory, 1)
                args[at:at] = prelude
            super().__init__(args, *more, **kwargs)

    shim = types.ModuleType("subprocess")
    shim.__dict__.update(subprocess.__dict__)
    shim.Popen = PopenWithPrelude
    return shim
`;

export const LAUNCHER_EXIT = String.raw`
${PRELUDE_BEFORE}
def _report_debuggee_signals(debuggee_prelude):
    import os, subprocess
    import debugpy.launcher
    from debugpy.adapter import launchers

    launcher_dir = os.path.dirname(debugpy.launcher.__file__)
    # Run as python -c <this> <launcher dir> <adapter address> -- <program>...
    wrapper = "\n".join([
        ${JSON.stringify(PRELUDE_BEFORE)},
        ${JSON.stringify(SKIP_LOG_HEADER_PLATFORM)},
        "_debugbridge_skip_log_header_platform()",
        "import runpy, sys",
        "sys.path[:] = [entry for entry in sys.path if entry not in ('', '.')]",
        "sys.path.insert(0, %r)" % os.path.dirname(os.path.dirname(launcher_dir)),
        "import debugpy.launcher.debuggee as debuggee",
        "from debugpy.common import messaging",
        "import debugpy, os",
        "del sys.path[0]",
        "send_event = messaging.JsonMessageChannel.send_event",
        "def send_signal_as_negative(self, event, body=None):",
        "    code = getattr(debuggee.process, 'returncode', None)",
        "    if event == 'exited' and code is not None and code < 0:",
        "        body = dict(body or {}, exitCode=code)",
        "    return send_event(self, event, body)",
        "messaging.JsonMessageChannel.send_event = send_signal_as_negative",
        "if os.path.exists(%r):" % debuggee_prelude,
        "    debuggee.subprocess = _debugbridge_prelude_before(debuggee.subprocess, os.path.dirname(debugpy.__file__), [%r])" % debuggee_prelude,
        "del sys.argv[1]",
        "runpy.run_module('debugpy.launcher', run_name='__main__', alter_sys=True)",
    ])

    launchers.subprocess = _debugbridge_prelude_before(subprocess, launcher_dir, ["-c", wrapper])
`;
