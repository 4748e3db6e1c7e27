/**
 * How debugpy's launcher starts a debuggee through us: `python <prelude file> <debugpy dir> …` where
 * debugpy runs `python <debugpy dir> …`. The prelude sets sys.argv and sys.path[0] as
 * `python <dir>` would and runs the directory's `__main__` the way Python itself does, so neither
 * debugpy nor the program can tell; it changes how pydevd imports its plugins, skips the platform
 * description in debugpy's log header when no log writes it (logHeader.ts), and wakes a stopped
 * thread as each command arrives (below).
 *
 * Why: pydevd's `pydevd_plugins` packages declare their namespace through pkg_resources, which
 * takes ~160 ms of imports (a third of pydevd's import) and falls back on pkgutil when it cannot be
 * imported. For those packages' own import it cannot; anyone else's `import pkg_resources`, the
 * program's too, is untouched. The finder that refuses it leaves sys.meta_path as soon as debugpy's
 * server imports its api (pydevd and debugpy's log are imported by then), before the program runs,
 * and puts platform.platform back.
 *
 * A stopped thread polls for its work (a step, a stack or variables read, an evaluation) every 10 ms
 * in pydevd's wait loop: a step paid up to 10 ms to start and as much for each read after it (a step
 * answered in ~42 ms, a Node.js one in ~12). pydevd's module-level `time` is given a `sleep` that
 * also ends when the client's next command has been handled.
 *
 * That `sleep` also skips the 0.1 s pydevd sleeps on connecting, after starting its reader and writer
 * threads "to give them time to start" (Thread.start() has waited for that already): the program
 * cannot run before it is over, and every launch waited it out — a launch that takes a ready
 * debuggee just connected (the first one, right after the server starts) and a normal launch, whose
 * configuration requests it answered only after it.
 *
 * A file, not `python -c`: pydevd would show a `<string>` frame under every stack (the file's name
 * hides it, readyLauncher.ts), and a traceback printed at the program's end does not show it either.
 * Kept as a string and written at run time so the compiled package needs no extra asset.
 */
import { SKIP_LOG_HEADER_PLATFORM } from './logHeader.js';
import { privateScript } from './readyLauncher.js';

/** The prelude's file, written again whenever it is missing. */
export function debuggeePreludeFile(): string {
  return privateScript('prelude', DEBUGGEE_PRELUDE);
}

export const DEBUGGEE_PRELUDE = String.raw`# debugbridge: python <debugpy dir>, with pydevd's plugins imported without pkg_resources (debuggeePrelude.ts).
import sys
${SKIP_LOG_HEADER_PLATFORM}

def _debugbridge_pydevd_sleeps():
    # A stopped thread looks for its work every 10 ms (time.sleep(0.01) in pydevd's wait loop): it is
    # woken as soon as the client's command was handled instead (a step, a stack or variables read).
    # The thread that connects skips the pause after starting pydevd's reader and writer.
    try:
        import pydevd
        from _pydevd_bundle.pydevd_process_net_command_json import PyDevJsonCommandProcessor
        real_time, handle = pydevd.time, PyDevJsonCommandProcessor.process_net_command_json
        initialize_network = pydevd.PyDB.initialize_network
    except (ImportError, AttributeError):
        return
    arrived = pydevd.threading.Condition()
    connecting = pydevd.threading.local()

    def sleep(seconds):
        if getattr(connecting, "now", False):
            return
        if seconds > 0.01:
            return real_time.sleep(seconds)
        with arrived:
            arrived.wait(seconds)

    def process_net_command_json(self, *args, **kwargs):
        try:
            return handle(self, *args, **kwargs)
        finally:
            with arrived:
                arrived.notify_all()

    def initialize_network_at_once(self, *args, **kwargs):
        connecting.now = True
        try:
            return initialize_network(self, *args, **kwargs)
        finally:
            connecting.now = False

    waking_time = type(real_time)("time")
    waking_time.__dict__.update(real_time.__dict__)
    waking_time.sleep = sleep
    pydevd.time = waking_time
    PyDevJsonCommandProcessor.process_net_command_json = process_net_command_json
    pydevd.PyDB.initialize_network = initialize_network_at_once


class _DebugbridgePluginsWithoutPkgResources:
    def __init__(self, *when_debugger_imported):
        self.when_debugger_imported = when_debugger_imported

    def find_spec(self, name, path=None, target=None):
        if name == "debugpy.server.api":
            # pydevd is imported (debugpy.server imports it first), and debugpy's log (the cli, before
            # the api): nothing more to refuse, the platform as it was.
            if self in sys.meta_path:
                sys.meta_path.remove(self)
            for then in self.when_debugger_imported:
                then()
        elif name == "pkg_resources":
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
                frame = frame.f_back
            importer = str(frame.f_globals.get("__name__", "")) if frame is not None else ""
            if importer == "pydevd_plugins" or importer.startswith("pydevd_plugins."):
                raise ImportError("pydevd_plugins declares its namespace without pkg_resources")
        return None


sys.meta_path.insert(0, _DebugbridgePluginsWithoutPkgResources(_debugbridge_skip_log_header_platform(), _debugbridge_pydevd_sleeps))
del sys.argv[0]
# python <file> puts the file's folder first on sys.path, python <dir> the directory (neither in safe-path mode).
if not getattr(sys.flags, "safe_path", False):
    sys.path[0] = sys.argv[0]
del _DebugbridgePluginsWithoutPkgResources, _debugbridge_skip_log_header_platform, _debugbridge_pydevd_sleeps, sys
try:
    __import__("runpy")._run_module_as_main("__main__", False)
except BaseException as _debugbridge_exception:
    # A bare raise adds no frame: a traceback printed at the end starts where python <dir> starts it.
    _debugbridge_exception.__traceback__ = _debugbridge_exception.__traceback__.tb_next
    raise
`;
