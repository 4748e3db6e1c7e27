/**
 * How debugpy's launcher starts a debuggee through us: `python -c <DEBUGGEE_PRELUDE> <debugpy dir> …`
 * where debugpy runs `python <debugpy dir> …`. The prelude sets sys.argv and sys.path[0] as
 * `python <dir>` would and runs the directory's `__main__` the way Python itself does, so neither
 * debugpy nor the program can tell; its one change is to how pydevd imports its plugins.
 *
 * Why: pydevd's `pydevd_plugins` packages declare their namespace through pkg_resources, which
 * takes ~160 ms of imports (a third of pydevd's import) and falls back on pkgutil when it cannot be
 * imported. For those packages' own import it cannot; anyone else's `import pkg_resources`, the
 * program's too, is untouched. The finder that refuses it leaves sys.meta_path as soon as debugpy's
 * server (and with it pydevd) is imported, before the program runs.
 *
 * Kept as a string (run with `python -c`) so the compiled package needs no extra asset.
 */
export const DEBUGGEE_PRELUDE = String.raw`# debugbridge: python <debugpy dir>, with pydevd's plugins imported without pkg_resources (debuggeePrelude.ts).
import sys


class _DebugbridgePluginsWithoutPkgResources:
    def find_spec(self, name, path=None, target=None):
        if name == "debugpy.server.cli":
            # pydevd is imported (debugpy.server imports it first): nothing more to refuse.
            if self in sys.meta_path:
                sys.meta_path.remove(self)
        elif name == "pkg_resources":
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
                frame = frame.f_back
            importer = str(frame.f_globals.get("__name__", "")) if frame is not None else ""
            if importer == "pydevd_plugins" or importer.startswith("pydevd_plugins."):
                raise ImportError("pydevd_plugins declares its namespace without pkg_resources")
        return None


sys.meta_path.insert(0, _DebugbridgePluginsWithoutPkgResources())
del sys.argv[0]
# python -c puts the working folder first on sys.path, python <dir> the directory (neither in safe-path mode).
if not getattr(sys.flags, "safe_path", False):
    sys.path[0] = sys.argv[0]
del _DebugbridgePluginsWithoutPkgResources, sys
__import__("runpy")._run_module_as_main("__main__", False)
`;
