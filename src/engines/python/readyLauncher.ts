/**
 * The Python file a ready debuggee runs as its "program". debugpy's launcher starts the ready
 * debuggee like any launch, with this file as the program and a spec path as its argument, so
 * debugpy and pydevd are imported and connected long before the user's launch. debugpy's cli
 * runs this file only after configurationDone, when the launch that took the debuggee has armed
 * its breakpoints; the file then moves to the launch's working folder (it waits in ours) and turns
 * the process into the user's program the way the cli itself runs a program file (pydevd's runpy:
 * argv, the program's folder first on sys.path, `__main__` globals with the program's
 * `__file__`), and leaves no trace a program can see:
 * its own helpers delete themselves from those globals, runpy's saved argv[0] (put back when the
 * program ends) becomes the program's path, and a traceback printed at exit does not show this
 * file. pydevd hides files whose name ends in `debugpy_launcher.py` from stacks and stepping.
 *
 * Kept as a string and written at run time so the compiled package needs no extra asset.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STOP_ON_CONDITION_ERRORS } from './conditionErrors.js';
import { END_SESSION } from './sessionEnd.js';

const READY_LAUNCHER = String.raw`# debugbridge: a ready debuggee becomes the user's program here (see readyLauncher.ts).
def _debugbridge_become_program(scope):
    import gc, json, os, sys

    spec_path = sys.argv[1]
    with open(spec_path, "rb") as spec_file:
        spec = json.loads(spec_file.read().decode("utf-8"))
    os.unlink(spec_path)
    os.chdir(spec["cwd"])
    program = spec["program"]
    launcher = scope["__file__"]
    sys.argv[:] = [program] + spec["args"]
    sys.path[0] = os.path.dirname(program)
    try:
        from _pydevd_bundle import pydevd_runpy

        code = pydevd_runpy._get_code_from_file("__main__", program)[0]
        saves_argv0 = pydevd_runpy._ModifiedArgv0
    except (ImportError, AttributeError):
        with open(program, "rb") as source:
            code = compile(source.read(), program, "exec")
        saves_argv0 = None
    # The runpy that runs this file puts back the argv[0] it saw (this file's) when it ends.
    try:
        for generation in range(3):
            saved = [o for o in gc.get_objects(generation) if type(o) is saves_argv0 and o.value == launcher]
            if saved:
                saved[0]._saved_value = program
                break
    except TypeError:
        pass
    scope["__file__"] = program
    del scope["_debugbridge_become_program"]
    # Kept where the program does not look (pydevd, loaded by now) for the lines after it ends.
    end_session = scope.pop("_debugbridge_end_session")
    if "pydevd" in sys.modules:
        sys.modules["pydevd"]._debugbridge_end_session = end_session
    return code


${END_SESSION.trim()}
${STOP_ON_CONDITION_ERRORS}


try:
    exec(_debugbridge_become_program(globals()))
except SystemExit:
    getattr(__import__("sys").modules.get("pydevd"), "_debugbridge_end_session", lambda: None)()
    raise
except BaseException as _debugbridge_exception:
    # A bare raise adds no frame: the traceback starts at the program, as when debugpy runs it.
    _debugbridge_exception.__traceback__ = _debugbridge_exception.__traceback__.tb_next
    raise
else:
    getattr(__import__("sys").modules.get("pydevd"), "_debugbridge_end_session", lambda: None)()
`;

let folder: string | undefined;
let specs = 0;

/** What the ready debuggee becomes: written just before configurationDone lets it run. */
export interface LaunchSpec {
  program: string;
  args: string[];
  /** The launch's working folder: the ready debuggee waits in ours (readyFolder). */
  cwd: string;
}

/** The launcher file, written again whenever it is missing. Its name must end in `debugpy_launcher.py`. */
export function readyLauncherFile(): string {
  return privateScript('ready', READY_LAUNCHER);
}

/**
 * A Python file of ours, named after its content and written again whenever it is missing. Its
 * name ends in `debugpy_launcher.py`: debugpy has pydevd hide such files from stacks and stepping.
 */
export function privateScript(prefix: string, source: string): string {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const file = join(privateFolder(), `${prefix}_${hash}_debugpy_launcher.py`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, source, { mode: 0o600 });
    renameSync(partial, file);
  }
  return file;
}

/** Where ready debuggees wait: a folder of ours, so no user's folder is held open by a process they did not start. */
export function readyFolder(): string {
  return privateFolder();
}

/** A fresh path for one ready debuggee's spec (the launcher deletes the file once read). */
export function newSpecPath(): string {
  return join(privateFolder(), `spec-${process.pid}-${++specs}.json`);
}

export function writeLaunchSpec(path: string, spec: LaunchSpec): void {
  writeFileSync(path, JSON.stringify(spec), { mode: 0o600 });
}

export function removeLaunchSpec(path: string): void {
  rmSync(path, { force: true });
}

/**
 * One folder per user, shared by every server of that user, so that a server that is killed
 * leaves nothing behind (the launcher is rewritten in place, specs are deleted when read); made
 * again if something removed it. Anything unexpected about it (not ours, open to others, a
 * link) means a folder of our own instead, removed when we exit.
 */
function privateFolder(): string {
  if (folder && existsSync(folder)) return folder;
  const uid = process.getuid?.();
  if (uid !== undefined) {
    const shared = join(tmpdir(), `debugbridge-${uid}`);
    try {
      mkdirSync(shared, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const stat = lstatSync(shared);
    if (stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0) return (folder = shared);
  }
  const own = mkdtempSync(join(tmpdir(), 'debugbridge-'));
  process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  return (folder = own);
}
