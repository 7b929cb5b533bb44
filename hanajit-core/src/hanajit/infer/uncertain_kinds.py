"""Locals that are a Python number on some runs and a NumPy scalar of the same
type on others, and the operations whose value that changes.

``v = a[0] ... for v in range(3): s = v * 2**62`` -- ``v`` is an ``np.int64``
after the first line and a Python int in the loop.  One compiled type (int64)
holds both, and such a local is read with NumPy's semantics (a variable is a
NumPy scalar if any assignment makes it one, ``scalar_kinds``), which gives the
interpreter's value except where Python's and NumPy's rules differ on the same
operands: a Python int grows past int64 where NumPy's wraps; a Python division
by zero raises where NumPy's gives inf or 0; a Python ``int ** -1`` is a float
and ``float ** 0.5`` of a negative float is complex, where NumPy raises or gives
nan; ``True + True`` is 2 where NumPy's bools stay bools.

:func:`check` finds these locals -- assigned both kinds of one type (a loop over
a ``range`` counting as Python ints), and, transitively, those assigned a value
computed from one (``y = v``) -- and marks each operation whose operands are
NumPy scalars only because of them with ``python_check``: the lowering
(``lib/python/kind_guards.py``) re-runs the call in the interpreter where the
operands are ones on which the two rules differ (an overflow, a zero divisor),
so both states give the interpreter's answer; an int compared with a float
(exact in Python, through float64 in NumPy) re-runs beyond 2**53
(``python_check_pairs``).  Arithmetic on such a bool falls back, and so do
passing such a value to a function, combining it with another dtype (NEP 50
promotes a Python int with uint8 to uint8) and putting it into a compiled list
or dict, whose items have one kind (``$li_`` and dicts' item locals, which
would hold both) -- except just after an assignment in the same block that
makes it a NumPy scalar (``s += v; res.append(s)``).  A local holding numbers
of two types (a bool, then an int) put into a list or dict falls back the same
way.  Divisions that ``python_state`` tracks exactly keep its checks.
A scalar ``a if c else b``, ``and``/``or`` or ``min``/``max`` of a NumPy scalar
and a Python number is either as well (``d.get(k, 0)`` of NumPy values), and a
returned value of either kind that no result flag boxes
(``infer/result_flags.py``) falls back: the static rule would box it one way.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T

_ARITH = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift")
_PYTHON = (T.INT64, T.FLOAT64, T.BOOL)


def _base(fn, assigned: dict, mixed: dict) -> set:
    kinds = {name: set(k) for name, k in assigned.items()}
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.PyForRange) and s.target:
            kinds.setdefault(s.target, set()).add((T.INT64, False))
    out = set()
    for name, k in kinds.items():
        if name in mixed:
            continue
        weak = {t for t, strong in k if not strong and t in _PYTHON}
        strong = {t for t, strong in k if strong}
        if weak and strong and all(t in _PYTHON for t in strong):
            out.add(name)
    return out


def uncertain_locals(fn, assigned: dict, mixed: dict) -> set:
    """The locals assigned both a Python number and a NumPy scalar of a type that
    holds both (loop targets of a ``range`` counting as Python ints)."""
    return _base(fn, assigned, mixed)


class _Kinds:
    def __init__(self, is_strong, unc):
        self.is_strong, self.unc = is_strong, unc

    def definite(self, e) -> bool:
        """Is ``e`` a NumPy scalar whatever the uncertain locals hold?"""
        if isinstance(e, N.Var):
            return e.name not in self.unc and self.is_strong(e)
        if isinstance(e, N.PyBinOp):
            if any(isinstance(getattr(o, "type", None), T.ArrayType)
                   for o in (e.left, e.right)):
                return True
            return self.definite(e.left) or self.definite(e.right)
        if isinstance(e, N.PyUnOp):
            return e.op != "not" and self.definite(e.operand)
        if isinstance(e, N.PyIfExp):
            return self.definite(e.a) and self.definite(e.b)
        if isinstance(e, N.TupleGet) and isinstance(e.tup, N.Var) and e.tup.name in self.unc \
                or isinstance(e, N.PyGetItem) and isinstance(e.value, N.Var) and \
                e.value.name in self.unc:
            return False                # an item of a tuple holding one (w = (v, 1))
        if isinstance(e, N.TupleGet) and isinstance(e.tup, N.MakeTuple) \
                and e.index < len(e.tup.items):
            return self.definite(e.tup.items[e.index])
        if isinstance(e, (N.TupleGet, N.PyGetItem)):
            box = _divmod(e.tup if isinstance(e, N.TupleGet) else e.value)
            if box is not None:             # (divmod(v, 3)[0])
                return any(self.definite(a) for a in box.args)
        if not self.is_strong(e):
            return False
        if either_call(e):
            return False
        if isinstance(e, N.PyCall) and e.callee in (min, max) and len(e.args) > 1:
            return all(self.definite(a) for a in e.args)    # (one of them, as it is)
        if isinstance(e, N.PyCall) and e.callee in (abs, min, max, divmod, pow):
            return any(self.definite(a) for a in e.args)
        if isinstance(e, N.PyBoolOp):       # (its value is one of its operands)
            return all(self.definite(v) for v in e.values)
        if isinstance(e, N.PyCompare):     # (a NumPy bool where each pair has one)
            return not any(isinstance(x, N.Var) and x.name in self.unc
                           for x in N.walk_expr(e)) and all(
                self.definite(a) or self.definite(b)
                for a, b in zip(e.operands, e.operands[1:]))
        return True

    def uncertain(self, e) -> bool:
        return self.is_strong(e) and not self.definite(e)


def definite(e, is_strong, unc=frozenset()) -> bool:
    """Is ``e`` a NumPy scalar on every run, the locals ``unc`` being of either
    kind (``d if d > 0 else 0.0``, ``min(a[i], 0.0)``: not)?"""
    return _Kinds(is_strong, unc).definite(e)


def check(fn: N.Function, assigned: dict, mixed: dict, is_strong, fail) -> None:
    """Mark (``python_check``) or refuse the operations described in the module
    doc; ``assigned``: per local, the (type, NumPy scalar?) of its assignments."""
    _mixed_types(fn, assigned, fail)
    unc = _base(fn, assigned, mixed)
    if not unc and not _mixed_choice(fn, is_strong) and not any(
            either_call(e) for s in N.walk_stmts(fn.body) for root in N.stmt_exprs(s)
            if root is not None for e in N.walk_expr(root)):
        return
    k = _Kinds(is_strong, unc)
    assigns = [(blk, i, s) for blk in _blocks(fn.body) for i, s in enumerate(blk)
               if isinstance(s, N.Assign)]
    grew = True
    while grew:
        grew = False
        for blk, i, s in assigns:
            if s.target in unc or not _holds(k, s.value):
                continue
            if _item_local(fn, s.target) and _strong_at(k, blk, i, s.value):
                continue            # (res.append(s) just after s += v: a NumPy scalar)
            unc.add(s.target)
            grew = True
    for name in sorted(unc):
        what = _item_local(fn, name)
        if what:
            line = next((s.line for s in N.walk_stmts(fn.body)
                         if isinstance(s, N.Assign) and s.target == name), 0)
            fail(line, f"{what} item", "a value that is a Python number on some runs and a "
                 f"NumPy scalar on others (a local assigned both) is put into a {what}, "
                 "whose items have one kind; start the local as a NumPy scalar or "
                 "convert the item (int(x), float(x))")
    for s in N.walk_stmts(fn.body):
        for root in N.stmt_exprs(s):
            for e in N.walk_expr(root) if root is not None else ():
                _mark(k, e, s.line, fail)
    _returns(fn, k, fail)


def either_call(e) -> bool:
    """Is ``e`` a call of a compiled function whose scalar result is a Python
    number on some calls and a NumPy scalar on others (its result flags: only
    an entry boxes by them, so a caller holds the value as one of either kind)?"""
    spec = getattr(e, "spec", None) if isinstance(e, N.PyCall) else None
    return spec is not None and spec.state == "done" and spec.fn is not None and \
        getattr(spec.fn, "flagged_result", None) is not None


def _mixed_choice(fn, is_strong) -> bool:
    """Does ``fn`` hold a scalar ``a if c else b``, ``and``/``or`` or ``min``/``max``
    of several values whose operands are a NumPy scalar and a Python number
    (``d.get(k, 0)`` of NumPy values, ``min(a[i], 0)``), or a chain of comparisons
    some of which are NumPy's?"""
    for s in N.walk_stmts(fn.body):
        for root in N.stmt_exprs(s):
            for e in N.walk_expr(root) if root is not None else ():
                ops = [e.a, e.b] if isinstance(e, N.PyIfExp) else e.values if \
                    isinstance(e, N.PyBoolOp) else e.args if isinstance(e, N.PyCall) \
                    and e.callee in (min, max) and len(e.args) > 1 else None
                if ops and isinstance(getattr(e, "type", None), T.Scalar) and \
                        len({bool(is_strong(x)) for x in ops}) > 1:
                    return True
                if isinstance(e, N.PyCompare) and len(e.ops) > 1 and len({
                        bool(is_strong(a) or is_strong(b))
                        for a, b in zip(e.operands, e.operands[1:])}) > 1:
                    return True             # (0 < i < a[0]: the first false pair's)
    return False


def _returns(fn, k: _Kinds, fail) -> None:
    """Fail where a returned scalar is a Python number on some runs and a NumPy
    scalar on others, unless it is a local whose state the result's flags carry
    (``infer/result_flags.py``)."""
    plan = getattr(fn, "flagged_result", None)
    covered = plan.covered if plan is not None else frozenset()
    called = sorted({getattr(e.spec.pyfunc, "__name__", "a function") + "()"
                     for s in N.walk_stmts(fn.body) for root in N.stmt_exprs(s)
                     if root is not None for e in N.walk_expr(root) if either_call(e)})
    via = (f", or from the result of {', '.join(called)}, which is one on some calls and "
           "the other on others") if called else ""

    def leaves(v):
        if isinstance(v, N.MakeTuple):
            for x in v.items:
                yield from leaves(x)
        elif isinstance(getattr(v, "type", None), T.Scalar) or _divmod(v) is not None \
                or isinstance(v, N.Var) and _own_local(v.name):
            yield v         # (divmod(v, 3), a tuple in one of the function's names)
    for s in N.walk_stmts(fn.body):
        if not isinstance(s, N.Return) or s.value is None:
            continue
        for v in leaves(s.value):
            either = _holds(k, v) if isinstance(v.type, T.TupleType) else k.uncertain(v)
            if either and id(v) not in covered:
                fail(s.line, "variable type change", "the returned value is a Python "
                     "number on some runs and a NumPy scalar on others (computed from "
                     "a local assigned both, or an 'a if c else b', 'and'/'or' or "
                     f"min()/max() of both{via}), so its type depends on the run; start "
                     "the local as a "
                     "NumPy scalar or convert the value (int(x), float(x))")


def _holds(k: _Kinds, v) -> bool:
    """Does assigning ``v`` make its target a local of either kind (a scalar of
    either kind, or a tuple holding one)?"""
    t = getattr(v, "type", None)
    if isinstance(t, T.Scalar):
        return k.uncertain(v)
    if isinstance(t, T.TupleType):
        if isinstance(v, N.MakeTuple):
            return any(_holds(k, x) for x in v.items)
        call = _divmod(v)           # (NumPy's divmod where an operand is NumPy's)
        if call is not None:
            return not any(k.definite(a) for a in call.args) and \
                any(k.uncertain(a) for a in call.args)
        return isinstance(v, N.Var) and v.name in k.unc
    return False


def _own_local(name) -> bool:
    """Is ``name`` a local of the function's source (not a compiler temporary, nor
    an inlined callee's, whose returned tuple keeps the static rule: its widened
    locals are checked where it returns)?"""
    return "$" not in name and "." not in name


def _divmod(e):
    """The ``divmod(x, y)`` call ``e`` is (or unpacks: ``q, r = divmod(x, y)``), or
    None: a pair of Python numbers or of NumPy scalars as its operands are."""
    from ..ir.frontend_nodes import Unpack
    if isinstance(e, N.PyCall) and isinstance(e.callee, Unpack) and len(e.args) == 1:
        e = e.args[0]
    return e if isinstance(e, N.PyCall) and e.callee is divmod else None


def _mixed_types(fn, assigned: dict, fail) -> None:
    """Fail where a local assigned numbers of two types (``x = 3 in out`` then
    ``x = len(out)``: a bool, then an int, held as an int) is put into a list or
    dict not just after an assignment of the local's own type: CPython's list
    would hold the bool itself."""
    for blk in _blocks(fn.body):
        for i, s in enumerate(blk):
            if not (isinstance(s, N.Assign) and isinstance(s.value, N.Var)
                    and _item_local(fn, s.target)):
                continue
            name = s.value.name
            types = {t for t, _ in assigned.get(name, ())}
            if len(types) < 2:
                continue
            held = (fn.locals or {}).get(name)
            ok = False
            for p in reversed(blk[:i]):
                if isinstance(p, N.Assign) and p.target == name:
                    ok = getattr(p.value, "type", None) == held
                    break
                if any(getattr(x, "target", None) == name for x in N.walk_stmts([p])):
                    break
            if not ok:
                what = _item_local(fn, s.target)
                fail(s.line, f"{what} item", f"'{name}' holds numbers of different types "
                     f"({', '.join(sorted(str(t) for t in types))}) on different paths, "
                     f"and a {what}'s items keep each one's own type")


def _blocks(body):
    """Every statement list in ``body``, nested ones included."""
    yield body
    for s in body:
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                yield from _blocks(sub)


def _strong_at(k: _Kinds, blk: list, i: int, v) -> bool:
    """Is ``v``, the value of statement ``i`` of ``blk``, a NumPy scalar there: is
    each local of either kind it reads last assigned, earlier in the same block,
    a value that is one (``s += v`` of an array's item ``v``)?"""
    here = set()
    for name in {x.name for x in N.walk_expr(v) if isinstance(x, N.Var) and x.name in k.unc}:
        for s in reversed(blk[:i]):
            if isinstance(s, N.Assign) and s.target == name:
                if k.definite(s.value):
                    here.add(name)
                break
            if any(getattr(x, "target", None) == name for x in N.walk_stmts([s])):
                break
    return not _Kinds(k.is_strong, k.unc - here).uncertain(v)


def _item_local(fn, name) -> str:
    """"list"/"dict" for the local an item passes through on its way into a
    compiled list or dict, else ""."""
    return "list" if name.startswith("$li_") else "dict" if _dict_item(fn, name) else ""


def _dict_item(fn, name) -> bool:
    """Is ``name`` a dict's key or value local (``$d_k``/``$d_v`` beside the
    dict's arrays ``$d_K``..., ``frontend/dict_locals.py``)?"""
    return name.startswith("$") and name[-2:] in ("_k", "_v") and \
        f"{name[:-2]}_K" in (fn.locals or {})


def _promotes_alike(p, other_type) -> bool:
    """Does NumPy promote a Python number of type ``p`` with ``other_type`` (a
    NumPy scalar's or an array's dtype) as it promotes a NumPy scalar of ``p``?"""
    o = other_type.dtype if isinstance(other_type, T.ArrayType) else other_type
    if not isinstance(o, T.Scalar) or o == p:
        return True
    from .weak_locals import promotes_alike
    return promotes_alike(p, p, o) if p in (T.INT64, T.FLOAT64, T.BOOL) else True


def _refuse(k: _Kinds, e, line, fail) -> None:
    """Fail where a local of either kind meets something whose result depends on
    its kind beyond the guards: NumPy's promotion with another dtype, a float
    compared with an int (exact in Python), a function it is passed to."""
    def bad(what):
        fail(line, "variable type change", "a local that is a Python number on some runs "
             f"and a NumPy scalar on others is {what}, whose result depends on which it "
             "is; start it as a NumPy scalar (np.int64(...), np.float64(...)) or convert "
             "it (int(x), float(x)) to compile this function")
    if isinstance(e, (N.PyBinOp, N.PyCompare)):
        ops = [e.left, e.right] if isinstance(e, N.PyBinOp) else list(e.operands)
        for x in ops:
            if not k.uncertain(x):
                continue
            p = x.type
            for o in ops:
                if o is x:
                    continue
                ot = getattr(o, "type", None)
                strong = isinstance(ot, T.ArrayType) or k.definite(o)
                if strong and not _promotes_alike(p, ot):
                    bad(f"combined with a {ot}")
                if isinstance(e, N.PyCompare) and isinstance(ot, T.Scalar) and \
                        isinstance(p, T.Scalar) and p.is_int != ot.is_int and \
                        not p.is_bool and not ot.is_bool and not ot.is_complex \
                        and not p.is_complex:
                    # (compiled exactly for ints within 2**53, kind_guards)
                    j = next(i for i, y in enumerate(ops) if y is x)
                    m = next(i for i, y in enumerate(ops) if y is o)
                    if abs(j - m) == 1:
                        e.python_check_pairs = getattr(e, "python_check_pairs",
                                                       frozenset()) | {min(j, m)}
        return
    if isinstance(e, N.PyCall) and any(k.uncertain(a) for a in e.args
                                       if isinstance(a, N.Expr)):
        own = getattr(e.callee, "__module__", None) or ""
        if getattr(e, "spec", None) is not None and not (
                own == "hanajit" or own.startswith(("hanajit.", "hanajit_"))):
            bad("passed to a function")         # (not hanajit's own helpers)
        mod = getattr(e.callee, "__module__", None) or ""
        if mod == "numpy" or mod.startswith("numpy.") or \
                type(e.callee).__name__ == "ufunc":
            args = [a for a in e.args if isinstance(a, N.Expr)]
            for x in args:
                if k.uncertain(x):
                    for o in args:
                        ot = getattr(o, "type", None)
                        if o is not x and (isinstance(ot, T.ArrayType) or k.definite(o)) \
                                and not _promotes_alike(x.type, ot):
                            bad(f"passed to NumPy with a {ot}")


def _mark(k: _Kinds, e, line, fail) -> None:
    _refuse(k, e, line, fail)
    if isinstance(e, N.PyBinOp) and e.op in _ARITH and e.numpy_semantics and \
            isinstance(e.type, T.Scalar) and not (k.definite(e.left) or k.definite(e.right)) \
            and (k.uncertain(e.left) or k.uncertain(e.right)):
        if e.type == T.BOOL or any(getattr(o, "type", None) == T.BOOL and k.uncertain(o)
                                   for o in (e.left, e.right)):
            fail(line, "variable type change", "arithmetic on a bool that is a Python "
                 "bool on some runs and a NumPy bool on others (True + True is 2, "
                 "np.True_ + np.True_ is True); convert it with int(x) first")
        e.python_check = True
    elif isinstance(e, N.PyUnOp) and e.op == "neg" and isinstance(e.type, T.Scalar) \
            and e.type.is_int and getattr(e, "numpy_semantics", False) \
            and k.uncertain(e.operand) and not k.definite(e.operand):
        e.python_check = True
    elif isinstance(e, N.PyCall) and getattr(e, "name", None) == "abs" and \
            getattr(e, "callee", None) is abs and len(e.args) == 1 and \
            getattr(e, "numpy_semantics", False) and e.type == T.INT64 and \
            k.uncertain(e.args[0]) and not k.definite(e.args[0]):
        e.python_check = True           # abs(-2**63): Python's int grows
