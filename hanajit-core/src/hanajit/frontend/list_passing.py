"""A list local passed to a user function: ``h(out)``, ``x = h(out, k)``.

A callee is compiled apart for the types of its arguments, and a list local of
the caller is no value compiled code passes (it is hidden arrays:
``growable_lists.py``).  So a call statement of a user function (a plain Python
function of the user's own code, or a jitted one) given a list local is inlined
here, before the lists are found: the callee's body is copied into the caller,
its locals renamed (``h1.res``), each list parameter replaced by the caller's
list name -- the callee reads and changes the caller's list itself, as CPython's
callee does through the same object -- and each other parameter a local
assigned its argument, in order.  The inlined body is then built as the
caller's own code (what it does with the list must be a growable list's use:
``b = xs; b.append(v)`` binds ``b`` to the caller's list, as one list).

Calls inlined: ``h(...)``, ``x = h(...)`` (any targets), ``x op= h(...)`` and
``return h(...)``, anywhere in the body.  The callee qualifies when it takes no
``*args``/``**kwargs``, its defaults are constants, it defines no function or
lambda, declares no ``global``/``nonlocal``, never assigns a list parameter and
returns only by its last statement; its free names must be the caller's (same
objects).  A call that does not qualify keeps its reason, which the fallback
warning names.  Inlining goes three calls deep (recursion stops there).
"""
from __future__ import annotations

import ast
import builtins
import copy

from ..jitted import is_jitted
from .hoisted_calls import hoist
from .source import parse_function, user_function

_DEPTH = 3
_FORBIDDEN = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
              ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Await)


def _list_names(fn) -> set:
    """The names ``fn`` assigns a list display, comprehension or ``list(...)``,
    or ``a + b`` / ``a * k`` of one."""
    out = set()
    joins = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and (
                isinstance(node.value, (ast.List, ast.ListComp)) or isinstance(
                    node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "list"):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        out.add(n.id)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name) and isinstance(node.value, ast.BinOp):
            joins.append(node)
    while True:
        more = {j.targets[0].id for j in joins if j.targets[0].id not in out and any(
            isinstance(x, ast.List) or isinstance(x, ast.Name) and x.id in out
            for x in ast.walk(j.value))}
        if not more:
            return out
        out |= more


def rewrite(b, fnode, params: set, locals_: set, sets=None):
    """``fnode`` with its call statements of user functions given a list local
    inlined (a new tree), or ``fnode`` itself when there is none.  ``sets``:
    inline those given one of these set locals instead (``frontend/set_locals.py``,
    before the sets are found; no list methods are taken out)."""
    lists = (_list_names(fnode) if sets is None else set(sets)) - params
    if not lists:
        return fnode
    state = {"n": 0, "changed": False, "kind": "list" if sets is None else "set"}
    new = copy.deepcopy(fnode)
    new.body = _block(b, new.body, lists, locals_, state, 0)
    return new if state["changed"] else fnode


def _block(b, body, lists, locals_, state, depth) -> list:
    out = []
    for s in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(s, field, _block(b, inner, lists, locals_, state, depth))
        for h in getattr(s, "handlers", []) or []:
            h.body = _block(b, h.body, lists, locals_, state, depth)
        pre, s = hoist(s, lambda c: _wanted(b, c, lists, locals_, state), state,
                       lists if state["kind"] == "list" else frozenset())
        if pre:
            state["changed"] = True
            out += _block(b, pre, lists, locals_, state, depth)
        inlined = _inline(b, s, lists, locals_, state, depth)
        if inlined is None:
            out.append(s)
        else:
            state["changed"] = True
            out += _block(b, inlined, lists, locals_, state, depth + 1)
    return out


def _call_of(s):
    """The call that is the whole value of statement ``s``, else None."""
    v = s.value if isinstance(s, (ast.Expr, ast.Assign, ast.AugAssign, ast.Return)) \
        else None
    return v if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) else None


def _callee(b, name, locals_):
    if name in locals_:
        return None
    obj = b._global_object(name)
    if is_jitted(obj):
        obj = getattr(obj, "py_func", None)
    return obj if user_function(obj) else None


_NONE = frozenset({"append", "extend", "insert", "remove", "clear", "reverse", "sort"})


def _passes_list(call, lists) -> bool:
    return any(isinstance(a, ast.Name) and a.id in lists
               for a in call.args + [k.value for k in call.keywords])


def _wanted(b, call, lists, locals_, state):
    """What ``hoisted_calls.hoist`` takes out of an expression: a list's ``pop``
    (its item) and its methods returning None, and a user function's call given a
    list (inlined then); of sets, only the calls."""
    f = call.func
    if state["kind"] == "list" and isinstance(f, ast.Attribute) and \
            isinstance(f.value, ast.Name) and \
            f.value.id in lists:
        return "value" if f.attr == "pop" else "none" if f.attr in _NONE else None
    if isinstance(f, ast.Name) and _passes_list(call, lists) and \
            _callee(b, f.id, locals_) is not None:
        return "value"
    return None


def _inline(b, s, lists, locals_, state, depth):
    call = _call_of(s)
    if call is None or not _passes_list(call, lists):
        return None
    func = _callee(b, call.func.id, locals_)
    if func is None:
        return None
    if depth >= _DEPTH:
        call.hj_not_inlined = f"calls nested more than {_DEPTH} deep"
        state["changed"] = True
        return None
    try:
        parsed = parse_function(func)
    except Exception:               # (no source: the call stays, and falls back)
        return None
    reason = _refusal(b, parsed, call, lists, locals_, state["kind"])
    if isinstance(reason, str):
        call.hj_not_inlined = reason
        state["changed"] = True
        return None
    bound, fdef = reason
    state["n"] += 1
    prefix = f"{fdef.name}{state['n']}."
    mine = _locals(fdef)
    rename = {n: prefix + n for n in mine}
    rename.update({p: v.id for p, v in bound.items() if isinstance(v, ast.Name)
                   and v.id in lists and p not in _stored(fdef)})
    pre = [ast.Assign(targets=[ast.Name(rename[p], ast.Store())], value=v)
           for p, v in bound.items() if rename[p] != getattr(v, "id", None)]
    body = [_Rename(rename).visit(copy.deepcopy(x)) for x in fdef.body]
    result = ast.Constant(None)
    if body and isinstance(body[-1], ast.Return):
        result = body.pop().value or ast.Constant(None)
    if isinstance(s, ast.Expr):
        tail = [] if isinstance(result, ast.Constant) else [ast.Expr(result)]
    elif isinstance(s, ast.Assign):
        tail = [ast.Assign(targets=s.targets, value=result)]
    elif isinstance(s, ast.AugAssign):
        tail = [ast.AugAssign(target=s.target, op=s.op, value=result)]
    else:
        tail = [ast.Return(value=result)]
    out = pre + body + tail
    for st in out:
        for n in ast.walk(st):
            if "lineno" in n._attributes:
                ast.copy_location(n, s)
    if not out:
        out = [ast.copy_location(ast.Pass(), s)]
    return out


def _refusal(b, parsed, call, lists, locals_, kind="list"):
    """Why the call cannot be inlined (a string), else ``(bound, def)``: the
    argument expression of each parameter, in the order the parameters bind."""
    fdef = parsed.node
    name = fdef.name
    a = fdef.args
    if a.vararg or a.kwarg:
        return f"{name}() takes *args or **kwargs"
    if any(isinstance(x, ast.Starred) for x in call.args) or \
            any(k.arg is None for k in call.keywords):
        return "it is passed with * or **"
    for n in ast.walk(fdef):
        if n is not fdef and isinstance(n, _FORBIDDEN):
            return f"{name}() defines a function or declares global or nonlocal names"
        if isinstance(n, ast.Return) and n is not fdef.body[-1]:
            return f"{name}() returns other than by its last statement"
    positional = [x.arg for x in a.posonlyargs + a.args]
    names = positional + [x.arg for x in a.kwonlyargs]
    if len(call.args) > len(positional):
        return f"{name}() is called with too many arguments"
    given = dict(zip(positional, call.args))
    for k in call.keywords:
        if k.arg not in names or k.arg in given or k.arg in [x.arg for x in a.posonlyargs]:
            return f"{name}() is called with the keyword {k.arg!r}"
        given[k.arg] = k.value
    defaults = dict(zip(positional[len(positional) - len(a.defaults):],
                        parsed.pyfunc.__defaults__ or ()))
    defaults.update(parsed.pyfunc.__kwdefaults__ or {})
    bound = {}
    for p in names:
        if p in given:
            bound[p] = given[p]
        elif p in defaults and type(defaults[p]) in (int, float, bool, complex, str,
                                                     type(None)):
            bound[p] = ast.Constant(defaults[p])
        else:
            return f"{name}() is called without its argument {p!r} or with a " \
                "default other than a constant"
    # the order the caller evaluates them: as written
    order = {id(x): i for i, x in enumerate(call.args + [k.value for k in call.keywords])}
    bound = dict(sorted(bound.items(), key=lambda kv: order.get(id(kv[1]), 1 << 30)))
    stored = _stored(fdef)
    for p, v in bound.items():
        if isinstance(v, ast.Name) and v.id in lists and p in stored:
            return f"{name}() assigns its {kind} parameter {p!r} again"
    mine = _locals(fdef)
    unbound = _read_unbound(fdef, mine)
    if unbound is not None:
        return f"{name}() may read its local {unbound!r} before assigning it"
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name) and n.id not in mine:
            theirs = parsed.closure.get(n.id, parsed.globals.get(
                n.id, getattr(builtins, n.id, _MISSING)))
            if n.id in locals_ or b._global_object(n.id) is not theirs:
                return f"{name}() reads {n.id!r}, which the caller holds otherwise"
    return bound, fdef


_MISSING = object()


def _stored(fdef) -> set:
    return {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name)
            and isinstance(n.ctx, (ast.Store, ast.Del))} | {
        h.name for n in ast.walk(fdef) if isinstance(n, ast.Try)
        for h in n.handlers if h.name}


def _locals(fdef) -> set:
    a = fdef.args
    return {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs} | _stored(fdef)


class _Rename(ast.NodeTransformer):
    def __init__(self, rename):
        self.rename = rename

    def visit_Name(self, node):
        if node.id in self.rename:
            node.id = self.rename[node.id]
        return node

    def visit_ExceptHandler(self, node):
        if node.name in self.rename:
            node.name = self.rename[node.name]
        self.generic_visit(node)
        return node


class _Unbound(Exception):
    pass


def _read_unbound(fdef, mine):
    """A local of ``fdef`` some path may read before assigning it, else None: an
    inlined body run again (in a loop) would read the last call's value where
    CPython raises UnboundLocalError.  (Conservative: a loop's assignments do
    not count after it, nor in its body before them.)"""
    a = fdef.args
    params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}

    def reads(node, bound):
        inner = {n.id for c in ast.walk(node) if isinstance(c, ast.comprehension)
                 for n in ast.walk(c.target) if isinstance(n, ast.Name)}
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and \
                    n.id in mine and n.id not in bound and n.id not in inner:
                raise _Unbound(n.id)

    def stored(node):
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Store)}

    def meet(x, y):             # (None: a path that never gets there)
        return y if x is None else x if y is None else x & y

    def block(stmts, bound, breaks):
        for st in stmts:
            if bound is None:
                return None
            bound = stmt(st, bound, breaks)
        return bound

    def stmt(st, bound, breaks):
        if isinstance(st, ast.If):
            reads(st.test, bound)
            return meet(block(st.body, bound, breaks), block(st.orelse, bound, breaks))
        if isinstance(st, (ast.For, ast.While)):
            reads(st.iter if isinstance(st, ast.For) else st.test, bound)
            inside = bound | (stored(st.target) if isinstance(st, ast.For) else set())
            mine_breaks = []
            block(st.body, inside, mine_breaks)
            forever = isinstance(st, ast.While) and isinstance(st.test, ast.Constant) \
                and st.test.value is True
            after = None if forever else block(st.orelse, bound, breaks)
            for b in mine_breaks:
                after = meet(after, b)
            return after
        if isinstance(st, ast.Break):
            breaks.append(bound)
            return None
        if isinstance(st, (ast.Continue, ast.Return, ast.Raise)):
            for field in ("value", "exc"):
                part = getattr(st, field, None)
                if isinstance(part, ast.AST):
                    reads(part, bound)
            return None
        if isinstance(st, ast.Try):
            after = block(st.orelse, block(st.body, bound, breaks), breaks)
            for h in st.handlers:
                after = meet(after, block(h.body, bound | ({h.name} if h.name else set()),
                                          breaks))
            return block(st.finalbody, after, breaks) if after is not None else None
        if isinstance(st, ast.With):
            for item in st.items:
                reads(item.context_expr, bound)
                bound = bound | (stored(item.optional_vars) if item.optional_vars
                                 else set())
            return block(st.body, bound, breaks)
        if isinstance(st, ast.AugAssign):
            reads(st, bound)
            if isinstance(st.target, ast.Name) and st.target.id not in bound:
                raise _Unbound(st.target.id)
            return bound
        for field in ("value", "test", "msg"):
            part = getattr(st, field, None)
            if isinstance(part, ast.AST):
                reads(part, bound)
        if isinstance(st, ast.Assign):
            for t in st.targets:
                reads(t, bound)             # (a[i] = v: a and i are read)
            return bound | set().union(*(stored(t) for t in st.targets))
        if isinstance(st, ast.AnnAssign) and st.value is not None:
            return bound | stored(st.target)
        if isinstance(st, ast.Delete):
            reads(st, bound)
        return bound

    try:
        block(fdef.body, set(params), [])
    except _Unbound as e:
        return e.args[0]
    return None
