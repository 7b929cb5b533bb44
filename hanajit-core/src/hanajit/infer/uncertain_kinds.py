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
so both states give the interpreter's answer.  Arithmetic on such a bool
falls back, and so does putting such a value into a compiled list or dict,
whose items have one kind (``$li_`` and dicts' item locals, which would hold
both).  Divisions that ``python_state`` tracks exactly keep its checks.
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
        if not self.is_strong(e):
            return False
        if isinstance(e, N.PyCall) and e.callee in (abs, min, max, divmod, pow):
            return any(self.definite(a) for a in e.args)
        if isinstance(e, (N.PyCompare, N.PyBoolOp)):
            return not any(isinstance(x, N.Var) and x.name in self.unc
                           for x in N.walk_expr(e))
        return True

    def uncertain(self, e) -> bool:
        return self.is_strong(e) and not self.definite(e)


def check(fn: N.Function, assigned: dict, mixed: dict, is_strong, fail) -> None:
    """Mark (``python_check``) or refuse the operations described in the module
    doc; ``assigned``: per local, the (type, NumPy scalar?) of its assignments."""
    unc = _base(fn, assigned, mixed)
    if not unc:
        return
    k = _Kinds(is_strong, unc)
    grew = True
    while grew:
        grew = False
        for s in N.walk_stmts(fn.body):
            if isinstance(s, N.Assign) and s.target not in unc and isinstance(
                    getattr(s.value, "type", None), T.Scalar) and k.uncertain(s.value):
                unc.add(s.target)
                grew = True
    for name in sorted(unc):
        what = "list" if name.startswith("$li_") else "dict" if _dict_item(fn, name) else ""
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


def _dict_item(fn, name) -> bool:
    """Is ``name`` a dict's key or value local (``$d_k``/``$d_v`` beside the
    dict's arrays ``$d_K``..., ``frontend/dict_locals.py``)?"""
    return name.startswith("$") and name[-2:] in ("_k", "_v") and \
        f"{name[:-2]}_K" in (fn.locals or {})


def _mark(k: _Kinds, e, line, fail) -> None:
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
