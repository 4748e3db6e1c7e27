/**
 * The part of the Python live edit helper (liveEditHelper.ts) that works out what an edit of one file
 * does to its running module, before anything changes: the old and new statements compared by their
 * AST (positions aside) — functions and classes by name, imports, constants, and the rest in order —
 * and the new code objects found by qualified name. What cannot be applied raises `Refused` with the
 * reason and the next step.
 */
export const LIVE_EDIT_PLAN = String.raw`
# -- what changed ----------------------------------------------------------------------------


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
                self.items.append("%s%s = %s" % (owner, " = ".join(names), ast.unparse(stmt.value) if hasattr(ast, "unparse") else "\u2026"))
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
`;
