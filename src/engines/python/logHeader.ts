/**
 * Every debugpy process (adapter, launcher, debuggee) builds its stderr log on import, and the
 * log's header calls platform.platform(), which runs `uname -p` in a subprocess and reads the
 * interpreter's binary for its libc version: 15–30 ms of each start, for a header that goes to a
 * log that does not write it (stderr logs warnings and errors unless DEBUGPY_LOG_STDERR says
 * otherwise). `SKIP_LOG_HEADER_PLATFORM` has that one call answer "" and any other call, or a
 * stderr log that writes its header, the real answer; the first call puts platform.platform back.
 *
 * Python source, run before debugpy is imported; `_debugbridge_restore_platform()` puts it back.
 */
export const SKIP_LOG_HEADER_PLATFORM = String.raw`
def _debugbridge_skip_log_header_platform():
    import os, platform, sys

    real = platform.platform
    if "info" in os.getenv("DEBUGPY_LOG_STDERR", "warning error").split():
        return lambda: None

    def restore():
        if platform.platform is header_platform:
            platform.platform = real

    def header_platform(*args, **kwargs):
        restore()
        if sys._getframe(1).f_globals.get("__name__") == "debugpy.common.log":
            return ""
        return real(*args, **kwargs)

    platform.platform = header_platform
    return restore
`;
