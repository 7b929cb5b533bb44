"""``np.piecewise(x, condlist, funclist)`` with list (or tuple) displays of
conditions and of values or functions, built as NumPy's own loop::

    $x = x
    $c = piecewise_conds($x, (c0, c1, ...), len(funclist))   # lib/arrays/piecewise.py
    $y = np.zeros_like($x)
    $y[$c[0]] = 1.5                                 # a value
    apply($y, $x, $c[1], f)                         # a function: f(x[c]) where c has any

The statements go before the one holding the call (``Builder.pending``), which
evaluates ``x``, the conditions and the functions in the interpreter's order (the
items of ``funclist`` are names, constants and lambdas: nothing else runs); a
call the statement evaluates only on some paths, or after other work that could
fail, is refused as ``frontend/comprehensions.py`` refuses such reductions.  A
lambda in ``funclist`` is outlined as a function (``frontend/lambdas.py``), so
``apply`` (``lib/arrays/piecewise_algorithms.py``) calls it.  Anything else --
``condlist``/``funclist`` that are not displays, ``*args``/``**kw`` for the
functions -- is unsupported, and the function runs in the interpreter."""
from __future__ import annotations

import ast

from . import comprehensions
from ..ir import nodes as N
from ..lib import registry


def is_piecewise(obj) -> bool:
    return getattr(obj, "__name__", None) == "piecewise" and \
        (getattr(obj, "__module__", None) or "").startswith("numpy")


def build(b, e) -> N.Expr:
    """The value of the call ``e`` of ``np.piecewise`` for the builder ``b``."""
    import numpy
    names = ("x", "condlist", "funclist")
    bound = dict(zip(names, e.args))
    for k in e.keywords:
        if k.arg in bound or k.arg not in names:
            bound = {}
            break
        bound[k.arg] = k.value
    if len(e.args) > 3 or len(bound) != 3:
        b.fail(e, "call of np.piecewise", "np.piecewise(x, condlist, funclist) without "
               "extra arguments for the functions")
    displays = (ast.List, ast.Tuple)
    conds, funcs = bound["condlist"], bound["funclist"]
    if not isinstance(conds, displays) or not isinstance(funcs, displays) or any(
            isinstance(v, ast.Starred) for v in conds.elts + funcs.elts):
        b.fail(e, "call of np.piecewise", "condlist and funclist must be list displays")
    comprehensions.check_position(b, e, "list of conditions", "np.piecewise")
    conds_fn, apply = registry.piecewise_callables()

    def local(hint, value):
        t = b.tmp(hint)
        b.locals.add(t)
        b.pending.append(N.Assign(target=t, value=value))
        return t
    x = local("pwx", b.expr(bound["x"]))
    c = local("pwc", N.PyCall(callee=conds_fn, name="np.piecewise", kwargs={}, args=[
        N.Var(x), N.MakeTuple([b.expr(v) for v in conds.elts]), N.Const(len(funcs.elts))]))
    y = local("pwy", N.PyCall(callee=numpy.zeros_like, args=[N.Var(x)], kwargs={},
                              name="np.zeros_like"))
    if len(conds.elts) in (len(funcs.elts), len(funcs.elts) - 1):
        for k, f in enumerate(funcs.elts):
            value = b.expr(f)
            cond = N.PyGetItem(N.Var(c), N.Const(k))
            obj = getattr(value, "obj", None)
            if callable(obj) and not isinstance(obj, type):
                b.pending.append(N.ExprStmt(value=N.PyCall(
                    callee=apply, args=[N.Var(y), N.Var(x), cond, value], kwargs={},
                    name="np.piecewise")))
            else:
                b.pending.append(N.PySetItem(target=N.Var(y), index=cond, value=value))
    return N.Var(y)
