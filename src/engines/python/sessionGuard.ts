/**
 * Python run inside our debugpy adapter: a thread that waits for the end of a pipe only the server
 * holds. The adapter leads a process session of its own (the launcher and the debuggee are in it,
 * debugpy's process group for the debuggee notwithstanding); when the server is gone — killed,
 * even with SIGKILL, at whatever step a launch was — or closes the pipe to end a run at once, the
 * thread kills every process of that session and then the adapter. A debuggee blocked in a read or
 * a busy loop cannot delay it. Before this code runs, the kernel's parent-death signal covers the
 * adapter (nothing else exists yet); the guard then turns it off, or it would kill the adapter
 * before the guard could end the rest.
 */
export const SESSION_GUARD = String.raw`
def _end_session_with_server(guard_fd):
    import os, signal, threading, time

    def session_members(sid):
        members = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % entry) as f:
                    stat = f.read()
            except OSError:
                continue
            # Fields after the command name (which may hold spaces and parentheses): state, ppid, pgrp, session.
            # A zombie is already dead (its parent, maybe this process, has not reaped it yet).
            fields = stat[stat.rfind(")") + 2:].split()
            if len(fields) > 3 and int(fields[3]) == sid and fields[0] not in ("Z", "X"):
                members.append(int(entry))
        return members

    def kill_session():
        me = os.getpid()
        if not os.path.isdir("/proc"):
            os.killpg(me, signal.SIGKILL)
            return
        # Processes may be starting while we look: look again until none is left.
        for _ in range(50):
            others = [pid for pid in session_members(me) if pid != me]
            if not others:
                return
            for pid in others:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)

    def watch():
        try:
            while os.read(guard_fd, 4096):
                pass
        except OSError:
            pass
        try:
            kill_session()
        finally:
            os._exit(0)

    threading.Thread(target=watch, name="debugbridge-session-guard", daemon=True).start()
    # Started through setpriv --pdeathsig, the adapter was killed with the server until now; from here
    # the guard ends it, and what it started, itself.
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG, 0
    except Exception:
        pass
`;
