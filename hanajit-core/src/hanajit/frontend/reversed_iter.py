"""``for x in reversed(X)``: ``X`` a ``range(...)``, an array, a tuple,
``enumerate``/``zip`` of them -- as the builder's indexed loop (length, item(i))
walked from the end.

``reversed(range(a, b, s))`` yields ``a + (n - 1 - i) * s`` for the range's
length ``n`` (``max(0, ceil((b - a) / s))``), so no value outside the range is
ever formed; ``range()``'s ValueError for a zero step is kept.  Anything else
reversed is read at ``n - 1 - i``.  The bounds, the step and the length are
evaluated once, before the loop, as CPython evaluates them."""
from __future__ import annotations

import ast

from ..ir import nodes as N


def _temp(b, pre, value, hint):
    if isinstance(value, N.Const):
        return value
    name = b.tmp(hint)
    b.locals.add(name)
    pre.append(N.Assign(target=name, value=value))
    return N.Var(name)


def _range_length(start, stop, step):
    """``len(range(start, stop, step))`` as a Python expression (step != 0)."""
    one = N.Const(1)
    up = N.PyBinOp("floordiv", N.PyBinOp("sub", N.PyBinOp("add", N.PyBinOp(
        "sub", stop, start), step), one), step)
    down = N.PyBinOp("floordiv", N.PyBinOp("sub", N.PyBinOp("sub", N.PyBinOp(
        "sub", start, stop), step), one), N.PyUnOp("neg", step))
    if isinstance(step, N.Const):
        span = up if step.value > 0 else down
    else:
        span = N.PyIfExp(N.PyCompare(["gt"], [step, N.Const(0)]), up, down)
    return N.PyCall(callee=max, args=[N.Const(0), span], name="max")


def reversed_parts(b, args, pre):
    """(length, item(i)) of ``reversed(args[0])``."""
    if len(args) != 1:
        b.fail(args[0] if args else None, "reversed() call", "reversed() takes one sequence")
    seq = args[0]
    if isinstance(seq, ast.Call) and isinstance(seq.func, ast.Name) and not seq.keywords \
            and getattr(b.expr(seq.func), "obj", None) is range and 1 <= len(seq.args) <= 3:
        vals = [b.expr(a) for a in seq.args]
        if len(vals) == 1:
            vals = [N.Const(0)] + vals
        start = _temp(b, pre, vals[0], "start")
        stop = _temp(b, pre, vals[1], "stop")
        step = _temp(b, pre, vals[2] if len(vals) == 3 else N.Const(1), "step")
        if not (isinstance(step, N.Const) and step.value != 0):
            pre.append(N.If(cond=N.PyCompare(["eq"], [step, N.Const(0)]), then=[N.Raise(
                exc=ValueError, message="range() arg 3 must not be zero")]))
        n = _temp(b, pre, _range_length(start, stop, step), "len")
        return n, lambda i: N.PyBinOp("add", start, N.PyBinOp("mul", N.PyBinOp(
            "sub", N.PyBinOp("sub", n, N.Const(1)), i), step))
    length, item = b.iter_parts(seq, pre)
    n = _temp(b, pre, length, "len")
    return n, lambda i: item(N.PyBinOp("sub", N.PyBinOp("sub", n, N.Const(1)), i))
