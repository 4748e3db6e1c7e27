/**
 * The Python side of a live edit: a small module (`_debugbridge_live`) that debugpy executes in the
 * debuggee once per session, through an `evaluate` without a frame (pydevd runs it on its own
 * thread, the program stopped or running). It keeps the text of each of the program's own modules
 * as loaded (those loaded later are read as they load), and `apply` compiles an edited module in a
 * scratch namespace and changes the running one in place:
 * - a function or method whose code changed gets the new code object (`__code__`), matched by
 *   qualified name, so closures, defaults and every reference to the function are kept; closures
 *   made from a changed nested function get its new code too;
 * - a new function, class or import runs in the module's namespace; a constant is set;
 * - a class whose bases, metaclass, decorators or `__slots__` changed is defined again when no
 *   instance of it lives, else refused;
 * - any other module-level statement that changed would have to run again: the file is refused.
 * Frames already running a changed function keep the old code; the answer names them. Nothing is
 * applied when any file is refused. The answer leaves as the message of an exception (the only
 * text debugpy returns for an evaluation without a frame).
 *
 * Kept as a string so the compiled package needs no extra asset.
 */
import { LIVE_EDIT_PLAN } from './liveEditPlan.js';

export const LIVE_EDIT_MODULE = '_debugbridge_live';
export const ANSWER_MARK = 'DEBUGBRIDGE-LIVE-EDIT:';

export const LIVE_EDIT_HELPER = String.raw`
import ast, base64, gc, importlib.machinery, importlib.util, json, linecache, os, sys, sysconfig, threading, types

_MARK = "${ANSWER_MARK}"
_loaded = {}
_FUNCTION_KINDS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SUSPENDABLE = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR


class Answer(Exception):
    pass


def _not_ours():
    dirs = set(p for p in sysconfig.get_paths().values() if p)
    dirs.update(p for p in (sys.prefix, sys.base_prefix, sys.exec_prefix) if p)
    dirs.add(os.path.dirname(os.path.dirname(os.__file__)))
    for name in ("debugpy", "pydevd", "_pydevd_bundle"):
        module = sys.modules.get(name)
        if getattr(module, "__file__", None):
            dirs.add(os.path.dirname(os.path.realpath(module.__file__)))
    return tuple(os.path.realpath(d) + os.sep for d in dirs)


_NOT_OURS = _not_ours()


def _own_file(path):
    return bool(path) and path.endswith(".py") and not path.startswith(_NOT_OURS) and "site-packages" not in path


_real_paths = {}


def _file_of(module):
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return None
    # Remembered: realpath checks every folder of the path, and an apply looks at every module
    # (some 300 with debugpy's own: 2000 lstat calls, most of an apply's time).
    real = _real_paths.get(path)
    if real is None:
        real = _real_paths[path] = os.path.realpath(path)
    return real


def _read(path):
    with open(path, "rb") as f:
        return importlib.util.decode_source(f.read())


def _remember(path):
    if path and path not in _loaded and _own_file(path):
        try:
            _loaded[path] = _read(path)
        except OSError:
            pass


def _install(paths):
    """Keeps the text of the modules loaded so far, of the files named (the main program), and of every module that loads from now on."""
    # The hook first, then the modules loaded so far: the program runs on meanwhile, and a module
    # it loads between the two is in one or the other.
    original = importlib.machinery.SourceFileLoader.get_code
    if not getattr(original, "_debugbridge", False):

        def get_code(self, fullname):
            code = original(self, fullname)
            try:
                _remember(os.path.realpath(self.get_filename(fullname)))
            except Exception:
                pass
            return code

        get_code._debugbridge = True
        importlib.machinery.SourceFileLoader.get_code = get_code
    for path in json.loads(paths):
        _remember(os.path.realpath(path))
    for module in list(sys.modules.values()):
        _remember(_file_of(module))


def _modules_by_file():
    found = {}
    for module in list(sys.modules.values()):
        path = _file_of(module)
        if path:
            found.setdefault(path, []).append(module)
    return found


${LIVE_EDIT_PLAN}

# -- applying --------------------------------------------------------------------------------


def _code_pairs(old, new, pairs):
    pairs[old] = new
    olds = dict(((getattr(c, "co_qualname", None) or c.co_name), c) for c in old.co_consts if isinstance(c, types.CodeType))
    for c in new.co_consts:
        if isinstance(c, types.CodeType):
            key = getattr(c, "co_qualname", None) or c.co_name
            if key in olds:
                _code_pairs(olds[key], c, pairs)


def _swap(plan, pairs):
    for qualname, code in plan.swaps:
        functions = []
        for module in plan.modules:
            functions.extend(f for f in _functions_of(_resolve(module, qualname)) if f.__code__.co_filename and os.path.realpath(f.__code__.co_filename) == plan.path and f.__code__.co_name == code.co_name)
        if not functions:
            raise Refused("%s is not in the running module (it may be defined in a way not found by its name)" % qualname, "session_restart")
        for function in functions:
            if len(function.__code__.co_freevars) != len(code.co_freevars) or function.__code__.co_freevars != code.co_freevars:
                raise Refused("%s captures other variables than the running one (%s instead of %s)" % (qualname, ", ".join(code.co_freevars) or "none", ", ".join(function.__code__.co_freevars) or "none"), "session_restart")
            _code_pairs(function.__code__, code, pairs)


def _run(plan):
    module = plan.modules[0]
    for owner, stmt in plan.runs:
        if owner is None:
            exec(compile(ast.Module(body=[stmt], type_ignores=[]), plan.path, "exec", dont_inherit=True), module.__dict__)
            for other in plan.modules[1:]:
                if hasattr(stmt, "name"):
                    other.__dict__[stmt.name] = module.__dict__[stmt.name]
                else:
                    exec(compile(ast.Module(body=[stmt], type_ignores=[]), plan.path, "exec", dont_inherit=True), other.__dict__)
            continue
        # A member of a running class: defined in a class of the same name, so that super() and
        # __qualname__ are right, then moved over with its __class__ cell naming the running class.
        cls = _resolve(module, owner)
        holder = ast.ClassDef(name=cls.__name__, bases=[], keywords=[], body=[stmt], decorator_list=[])
        ast.copy_location(holder, stmt)
        scope = {}
        exec(compile(ast.Module(body=[holder], type_ignores=[]), plan.path, "exec", dont_inherit=True), module.__dict__, scope)
        value = scope[cls.__name__].__dict__[stmt.name]
        setattr(cls, stmt.name, _with_class_cell(value, cls))
    for owner, stmt in plan.constants:
        scope = {}
        exec(compile(ast.Module(body=[stmt], type_ignores=[]), plan.path, "exec", dont_inherit=True), dict(module.__dict__), scope)
        targets = [_resolve(module, owner.rstrip("."))] if owner else plan.modules
        for name, value in scope.items():
            for target in targets:
                if owner:
                    setattr(target, name, value)
                else:
                    target.__dict__[name] = value


def _with_class_cell(value, cls):
    """The value (a function, or what wraps one) with its __class__ cell naming cls."""
    for function in _functions_of(value):
        if "__class__" in function.__code__.co_freevars:
            function.__closure__[function.__code__.co_freevars.index("__class__")].cell_contents = cls
    return value


def _same_code(a, b):
    """The same code but for positions (line numbers)."""
    if a.co_code != b.co_code or a.co_names != b.co_names or a.co_varnames != b.co_varnames or a.co_freevars != b.co_freevars or a.co_cellvars != b.co_cellvars:
        return False
    if (a.co_argcount, a.co_posonlyargcount, a.co_kwonlyargcount, a.co_flags) != (b.co_argcount, b.co_posonlyargcount, b.co_kwonlyargcount, b.co_flags):
        return False
    if len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType) and isinstance(y, types.CodeType):
            if not _same_code(x, y):
                return False
        elif type(x) is not type(y) or x != y:
            return False
    return True


def _give_new_code(pairs, direct):
    """Every function made from an old code object runs the new one: the module's and classes'
    functions directly, and, when a nested function changed, the closures made from it (found
    among all functions)."""
    roots = set(f.__code__ for f in direct)
    nested = any(old not in roots and not _same_code(old, new) for old, new in pairs.items())
    functions = [o for o in gc.get_objects() if type(o) is types.FunctionType] if nested else direct
    for function in functions:
        new = pairs.get(function.__code__)
        if new is not None:
            function.__code__ = new


def _stale(pairs):
    old = set(pairs)
    frames = []
    names = dict((t.ident, t.name) for t in threading.enumerate())
    # Every thread, this one too: pydevd hands an evaluation without a frame to whichever thread
    # takes it first, and a thread stopped in the edited function takes it as it waits.
    for ident, frame in sys._current_frames().items():
        while frame is not None:
            if frame.f_code in old:
                frames.append({"thread": names.get(ident, str(ident)), "name": frame.f_code.co_name, "file": frame.f_code.co_filename, "line": frame.f_lineno})
            frame = frame.f_back
    suspended = 0
    if any(code.co_flags & _SUSPENDABLE for code in old):
        for o in gc.get_objects():
            code = getattr(o, "cr_code", None) or getattr(o, "gi_code", None) or getattr(o, "ag_code", None)
            if code in old and (getattr(o, "cr_frame", None) or getattr(o, "gi_frame", None) or getattr(o, "ag_frame", None)) is not None:
                suspended += 1
    return frames, suspended


def apply(request):
    files = json.loads(request)
    by_file = _modules_by_file()
    if files is None:
        paths = [p for p in sorted(_loaded) if p in by_file and _changed(p)]
    else:
        paths = [os.path.realpath(f) for f in files]
        missing = [f for f, p in zip(files, paths) if p not in by_file]
        if missing:
            return {"notLoaded": missing}
    changes, plans = [], []
    for path in paths:
        try:
            new_source = _read(path)
        except OSError as e:
            changes.append({"file": path, "status": "refused", "items": [], "reason": "cannot read it: %s" % e, "nextStep": "check the path"})
            continue
        old_source = _loaded.get(path)
        if old_source is None:
            _loaded[path] = new_source
            changes.append({"file": path, "status": "unchanged", "items": []})
            continue
        if old_source == new_source:
            changes.append({"file": path, "status": "unchanged", "items": []})
            continue
        try:
            plan = Plan(path, by_file[path], old_source, new_source)
            pairs = {}
            _swap(plan, pairs)
            plans.append((plan, pairs, new_source))
        except Refused as e:
            changes.append({"file": path, "status": "refused", "items": [], "reason": e.reason, "nextStep": e.next_step})
    refused = [c for c in changes if c["status"] == "refused"]
    if refused:
        for plan, pairs, _ in plans:
            changes.append({"file": plan.path, "status": "refused", "items": plan.items, "reason": "not applied: the edit of %s was refused, and edits are applied together or not at all" % os.path.basename(refused[0]["file"]), "nextStep": refused[0]["nextStep"]})
        return {"changes": changes, "staleFrames": [], "notes": []}
    stale, notes = [], []
    for plan, pairs, new_source in plans:
        direct = [f for qualname, _ in plan.swaps for module in plan.modules for f in _functions_of(_resolve(module, qualname)) if f.__code__ in pairs]
        _give_new_code(pairs, direct)
        for qualname, positional, keywords in plan.defaults:
            for module in plan.modules:
                for function in _functions_of(_resolve(module, qualname)):
                    if function.__code__ in pairs.values():
                        function.__defaults__, function.__kwdefaults__ = positional, keywords
        _run(plan)
        _loaded[plan.path] = new_source
        linecache.checkcache(plan.path)
        frames, suspended = _stale(pairs)
        stale.extend(frames)
        if suspended:
            notes.append("%d suspended call%s (a coroutine or generator at an await or yield) in %s keep%s the old code until %s." % (suspended, "s" if suspended != 1 else "", os.path.basename(plan.path), "" if suspended != 1 else "s", "they finish" if suspended != 1 else "it finishes"))
        items = plan.items + ["removed function %s (the running program keeps it)" % q for q in plan.removed]
        changes.append({"file": plan.path, "status": "applied", "items": items or ["positions only (comments or blank lines)"]})
    return {"changes": changes, "staleFrames": stale, "notes": notes}


def _changed(path):
    try:
        return _read(path) != _loaded.get(path)
    except OSError:
        return False


def answer(request):
    try:
        result = apply(request)
    except Exception as e:
        result = {"error": "%s: %s" % (type(e).__name__, e)}
    raise Answer(_MARK + base64.b64encode(json.dumps(result).encode("utf-8")).decode("ascii"))

`;
