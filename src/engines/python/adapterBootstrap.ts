/**
 * The Python program our debugpy adapter runs in: it tunes the adapter's own TCP sockets, then
 * runs `debugpy.adapter` as __main__. The user's program is not touched.
 *
 * Why: pydevd (inside the debuggee) writes every message to the adapter as two sendall() calls,
 * header then body, on a socket with Nagle's algorithm on. The body waits for the ACK of the
 * header, and Linux delays that ACK by up to 40 ms, so nearly every request costs ~44 ms of
 * nothing (microsoft/debugpy#2054). Re-arming TCP_QUICKACK on the adapter's receiving socket
 * around each recv makes the adapter ACK at once; TCP_NODELAY on the sockets the adapter writes
 * keeps its own back-to-back messages from waiting the same way.
 *
 * It also starts the session guard (sessionGuard.ts) on the pipe named by --guard-fd, and has the
 * launcher report a debuggee killed by a signal as such (launcherExit.ts), and skips the platform
 * description of a log header no log writes (logHeader.ts).
 *
 * Kept as a string (run with `python -c`) so the compiled package needs no extra asset.
 */
import { LAUNCHER_EXIT } from './launcherExit.js';
import { SKIP_LOG_HEADER_PLATFORM } from './logHeader.js';
import { SESSION_GUARD } from './sessionGuard.js';

export const ADAPTER_BOOTSTRAP = String.raw`
import runpy, socket, sys
${SESSION_GUARD}
${LAUNCHER_EXIT}
${SKIP_LOG_HEADER_PLATFORM}

def _tune_adapter_sockets():
    tcp = socket.IPPROTO_TCP
    quickack = getattr(socket, "TCP_QUICKACK", None)
    cls = socket.socket

    def is_tcp(sock):
        return sock.type == socket.SOCK_STREAM and sock.family in (socket.AF_INET, socket.AF_INET6)

    def set_option(sock, option):
        try:
            sock.setsockopt(tcp, option, 1)
        except OSError:
            pass

    base_accept = cls.accept
    def accept(self):
        sock, address = base_accept(self)
        if is_tcp(sock):
            set_option(sock, socket.TCP_NODELAY)
        return sock, address
    cls.accept = accept

    base_connect = cls.connect
    def connect(self, address):
        base_connect(self, address)
        if is_tcp(self):
            set_option(self, socket.TCP_NODELAY)
    cls.connect = connect

    if quickack is None:
        return

    def with_quickack(receive):
        def wrapper(self, *args, **kwargs):
            tcp_socket = is_tcp(self)
            if tcp_socket:
                set_option(self, quickack)
            try:
                return receive(self, *args, **kwargs)
            finally:
                if tcp_socket:
                    set_option(self, quickack)
        return wrapper

    cls.recv = with_quickack(cls.recv)
    cls.recv_into = with_quickack(cls.recv_into)

if "--no-socket-tuning" in sys.argv:
    sys.argv.remove("--no-socket-tuning")
else:
    _tune_adapter_sockets()

if "--guard-fd" in sys.argv:
    at = sys.argv.index("--guard-fd")
    _end_session_with_server(int(sys.argv[at + 1]))
    del sys.argv[at:at + 2]

# python -c puts the working directory first on sys.path; the adapter must not import from it.
sys.path[:] = [entry for entry in sys.path if entry not in ("", ".")]
at = sys.argv.index("--debuggee-prelude")
_report_debuggee_signals(sys.argv[at + 1])
del sys.argv[at:at + 2]
_debugbridge_skip_log_header_platform()
sys.argv[0] = "debugpy.adapter"
runpy.run_module("debugpy.adapter", run_name="__main__", alter_sys=True)
`;
