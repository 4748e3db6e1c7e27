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


def _file_of(module):
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return None
    return os.path.realpath(path)


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
    for path in json.loads(paths):
        _remember(os.path.realpath(path))
    for module in list(sys.modules.values()):
        _remember(_file_of(module))
    original = importlib.machinery.SourceFileLoader.get_code
    if getattr(original, "_debugbridge", False):
        return

    def get_code(self, fullname):
        code = original(self, fullname)
        try:
            _remember(os.path.realpath(self.get_filename(fullname)))
        except Exception:
            pass
        return code

    get_code._debugbridge = True
    importlib.machinery.SourceFileLoader.get_code = get_code


def _modules_by_file():
    found = {}
    for module in list(sys.modules.values()):
        path = _file_of(module)
        if path:
            found.setdefault(path, []).append(module)
    return found


# ── what changed ────────────────────────────────────────────────────────────────────────────


def _is_constant(node):
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _is_constant(node.operand)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_constant(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _is_constant(k) for k in node.keys) and all(_is_constant(v) for v in node.values)
    return False


def _constant_names(stmt):
    if isinstance(stmt, ast.Assign) and _is_constant(stmt.value) and all(isinstance(t, ast.Name) for t in stmt.targets):
        return tuple(t.id for t in stmt.targets)
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and _is_constant(stmt.value) and isinstance(stmt.target, ast.Name):
        return (stmt.target.id,)
    return None


def _sort(body):
    """A body's statements by kind: defs and classes by name, imports, constants by name, the rest in order."""
    kinds = {"def": {}, "class": {}, "import": [], "const": {}, "code": []}
    for index, stmt in enumerate(body):
        if isinstance(stmt, _FUNCTION_KINDS):
            kinds["def"][stmt.name] = stmt
        elif isinstance(stmt, ast.ClassDef):
            kinds["class"][stmt.name] = stmt
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            kinds["import"].append(stmt)
        elif _constant_names(stmt):
            kinds["const"][_constant_names(stmt)] = stmt
        elif index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            pass  # the docstring
        elif isinstance(stmt, ast.Pass):
            pass
        else:
            kinds["code"].append(stmt)
    return kinds


def _dump_list(nodes):
    return ast.dump(ast.List(elts=list(nodes), ctx=ast.Load()))


def _same(a, b):
    return ast.dump(a) == ast.dump(b)


def _layout(cls):
    slots = [s for s in cls.body if isinstance(s, (ast.Assign, ast.AnnAssign)) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in getattr(s, "targets", [getattr(s, "target", None)]))]
    return ast.dump(ast.Module(body=[ast.Expr(e) for e in cls.bases + cls.keywords + cls.decorator_list] + slots, type_ignores=[]))


class Refused(Exception):
    def __init__(self, reason, next_step):
        Exception.__init__(self, reason)
        self.reason = reason
        self.next_step = next_step


def _first_code_change(old, new):
    for a, b in zip(old, new):
        if not _same(a, b):
            return b
    return (new[len(old):] or old[len(new):] or [None])[0]


class Plan:
    """What one file's edit does to its module, worked out before anything is changed."""

    def __init__(self, path, modules, old_source, new_source):
        self.path = path
        self.modules = modules
        self.items = []
        self.swaps = []  # (qualified name, new code)
        self.runs = []  # statements run in the module's namespace
        self.constants = []  # (owner: None for the module or a class qualified name, statement)
        self.removed = []
        self.defaults = []  # (qualified name, __defaults__, __kwdefaults__)
        try:
            new_tree = ast.parse(new_source, path)
            self.code = compile(new_tree, path, "exec", dont_inherit=True)
        except SyntaxError as e:
            raise Refused("SyntaxError: %s (line %s%s)" % (e.msg, e.lineno, ", column %s" % e.offset if e.offset else ""), "fix the file and call session_apply_changes again")
        self.new_codes = _codes_by_qualname(self.code)
        self._body(ast.parse(old_source, path).body, new_tree.body, "")

    def _body(self, old_body, new_body, owner):
        old, new = _sort(old_body), _sort(new_body)
        if len(old["code"]) != len(new["code"]) or not all(_same(a, b) for a, b in zip(old["code"], new["code"])):
            stmt = _first_code_change(old["code"], new["code"])
            where = " (line %s)" % stmt.lineno if stmt is not None and stmt in new["code"] else ""
            what = "code in class %s" % owner.rstrip(".") if owner else "module-level code"
            raise Refused("%s changed%s: it ran when the %s and is not run again" % (what, where, "class was defined" if owner else "module was loaded"), "keep the edit inside functions and methods, or session_restart to run the program with it")
        for name, stmt in new["def"].items():
            qualname = owner + name
            was = old["def"].get(name)
            if was is None:
                self._new(stmt, owner, "new function %s" % qualname)
            elif not _same(was, stmt):
                self._signature(was, stmt, qualname)
                self._swap_tree(qualname, "%s (function body)" % qualname)
            elif was.lineno != stmt.lineno:
                self._swap_tree(qualname, None)
        for name in old["def"]:
            if name not in new["def"]:
                self.removed.append(owner + name)
        for name, stmt in new["class"].items():
            qualname = owner + name
            was = old["class"].get(name)
            if was is None:
                self._new(stmt, owner, "new class %s" % qualname)
            elif _layout(was) != _layout(stmt):
                self._redefine(stmt, owner, qualname)
            elif not _same(was, stmt) or was.lineno != stmt.lineno:
                self._body(was.body, stmt.body, qualname + ".")
        for names, stmt in new["const"].items():
            if names not in old["const"] or not _same(old["const"][names], stmt):
                self.constants.append((owner, stmt))
                self.items.append("%s%s = %s" % (owner, " = ".join(names), ast.unparse(stmt.value) if hasattr(ast, "unparse") else "…"))
        dumps = set(ast.dump(s) for s in old["import"])
        for stmt in new["import"]:
            if ast.dump(stmt) not in dumps:
                if owner:
                    raise Refused("an import in class %s changed" % owner.rstrip("."), "move the import to the module, or session_restart")
                self.runs.append((None, stmt))
                self.items.append("import (line %s)" % stmt.lineno)

    def _signature(self, was, stmt, qualname):
        """Decorators ran when the function was defined; its defaults were computed then: constants are set again."""
        if _dump_list(was.decorator_list) != _dump_list(stmt.decorator_list):
            raise Refused("the decorators of %s changed: they ran when it was defined" % qualname, "session_restart runs the program with the new decorators")
        old_defaults = _dump_list(was.args.defaults) + _dump_list([d for d in was.args.kw_defaults if d is not None])
        new_defaults = stmt.args.defaults + [d for d in stmt.args.kw_defaults if d is not None]
        if old_defaults == _dump_list(stmt.args.defaults) + _dump_list([d for d in stmt.args.kw_defaults if d is not None]):
            return
        if not all(_is_constant(d) for d in new_defaults):
            raise Refused("the default values of %s changed: they were computed when it was defined" % qualname, "use constants as defaults, or session_restart")
        positional = tuple(ast.literal_eval(d) for d in stmt.args.defaults) or None
        keywords = dict((a.arg, ast.literal_eval(d)) for a, d in zip(stmt.args.kwonlyargs, stmt.args.kw_defaults) if d is not None) or None
        self.defaults.append((qualname, positional, keywords))

    def _new(self, stmt, owner, item):
        self.runs.append((owner.rstrip(".") or None, stmt))
        self.items.append(item)

    def _redefine(self, stmt, owner, qualname):
        cls = _resolve(self.modules[0], qualname)
        alive = _instances(cls) if isinstance(cls, type) else 0
        if alive:
            raise Refused("class %s changed its layout (bases, metaclass, decorators or __slots__) and %d instance%s of it live%s" % (qualname, alive, "s" if alive != 1 else "", "" if alive != 1 else "s"), "session_restart runs the program with the new class")
        self.runs.append((owner.rstrip(".") or None, stmt))
        self.items.append("class %s (defined again: no instance of it lived)" % qualname)

    def _swap_tree(self, qualname, item):
        code = self.new_codes.get(qualname)
        if code is None:
            raise Refused("no code for %s in the compiled file" % qualname, "session_restart")
        self.swaps.append((qualname, code))
        if item:
            self.items.append(item)


def _codes_by_qualname(code, prefix=""):
    found = {}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            qualname = getattr(const, "co_qualname", None) or prefix + const.co_name
            found[qualname] = const
            inner = qualname + "." if const.co_flags & 0x03 == 0 and not qualname.endswith(">") and _is_class_body(const) else qualname + ".<locals>."
            found.update(_codes_by_qualname(const, inner))
    return found


def _is_class_body(code):
    return "__qualname__" in code.co_names and "__module__" in code.co_names and code.co_argcount == 0


def _resolve(module, qualname):
    obj = module
    for part in qualname.split("."):
        holder = getattr(obj, "__dict__", {})
        if part not in holder:
            return None
        obj = holder[part]
    return obj


def _functions_of(obj):
    """The plain functions an attribute holds: itself, what staticmethod/classmethod/property wrap, what decorators wrapped."""
    seen, out, todo = set(), [], [obj]
    while todo:
        item = todo.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, types.FunctionType):
            out.append(item)
        if isinstance(item, (staticmethod, classmethod)):
            todo.append(item.__func__)
        if isinstance(item, property):
            todo.extend((item.fget, item.fset, item.fdel))
        todo.append(getattr(item, "__wrapped__", None))
    return out


def _instances(cls):
    return sum(1 for o in gc.get_objects() if type(o) is cls)


# ── applying ────────────────────────────────────────────────────────────────────────────────


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
    current = threading.get_ident()
    for ident, frame in sys._current_frames().items():
        if ident == current:
            continue
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
