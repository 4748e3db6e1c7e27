/**
 * How a Python program's end reaches the client at once. When the program's code is done pydevd
 * notices only at the next 0.3 s poll of its CheckAliveThread (a non-daemon thread the interpreter's
 * exit joins), then waits up to 0.5 s for its own threads, and again in its atexit handler; and the
 * interpreter's exit then collects garbage among the ~40,000 objects debugpy and pydevd made, several
 * times over (0.4 s of an exit under load, against 0.05 s for the same program run bare).
 *
 * `END_SESSION` ends the debug session as soon as the program's code and its other threads are done,
 * the way pydevd would, without the polls. `FREEZE_DEBUGGER` moves every object made so far (the
 * debugger's, before the program runs) out of the garbage collector's reach, as gc.freeze() is meant
 * for: the exit's collections then look at the program's own objects only, as in a bare run.
 * A program launched the normal way gets both from `BEFORE_PROGRAM`, answered before configurationDone
 * lets it run (frozen later, the program's first objects, its `__main__` globals among them, would
 * never be collected: a cycle's finalizer would not run at its exit), END_SESSION as a threading
 * exit hook (run when the main thread's code is done, before the interpreter joins the remaining
 * threads), its own command line untouched. The ready launcher (readyLauncher.ts) ends the session
 * itself after the program file has run; it does not freeze: there the program's globals were still
 * frozen with the debugger's and its garbage cycle not finalized (test/e2e/python-ready.test.ts).
 */

import { STOP_ON_CONDITION_ERRORS } from './conditionErrors.js';

/** Python source: `_debugbridge_end_session()`. */
export const END_SESSION = String.raw`
def _debugbridge_end_session():
    # The program's code is done and, once its other threads are, so is the debug session: end it
    # now (see sessionEnd.ts). Its last messages are sent first; atexit handlers run untraced.
    import threading, time

    main = threading.main_thread()
    for thread in threading.enumerate():
        if thread is not main and not thread.daemon:
            thread.join()
    try:
        import pydevd

        debugger = pydevd.get_global_debugger()
        if debugger is not None:
            # Sends what is queued, then stops pydevd's threads without waiting for them; they are
            # joined for up to 50 ms (pydevd's own wait looks every 0.1 s), and the second call
            # bounds the wait that its exit handler would make (up to 0.5 s) to that.
            debugger.dispose_and_kill_all_pydevd_threads(wait=False)
            deadline = time.monotonic() + 0.05
            for thread in list(debugger.created_pydb_daemon_threads):
                if thread is not threading.current_thread() and thread is not getattr(debugger, "check_alive_thread", None):
                    thread.join(max(0.0, deadline - time.monotonic()))
            debugger.dispose_and_kill_all_pydevd_threads(wait=True, timeout=0.05)
    except Exception:
        pass
`;

/** Python statement: the debugger's objects out of the collector's reach (made before the program's). */
const FREEZE_DEBUGGER = '__import__("gc").freeze()';

/**
 * An expression for debugpy's `evaluate` (no frame: pydevd runs it on whichever thread takes it) before the program runs:
 * the debugger's objects frozen, `END_SESSION` registered as a threading exit hook (Python 3.9+), and
 * conditions that raise made to stop (conditionErrors.ts).
 */
export const BEFORE_PROGRAM = `exec(__import__('base64').b64decode('${Buffer.from(
  `${END_SESSION}\n${STOP_ON_CONDITION_ERRORS}\n${FREEZE_DEBUGGER}\nimport threading\nif hasattr(threading, "_register_atexit"):\n    threading._register_atexit(_debugbridge_end_session)\n`,
).toString('base64')}').decode('utf-8'), {})`;
