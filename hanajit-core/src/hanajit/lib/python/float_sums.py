"""Which additions of a ``sum`` CPython compensates.

From 3.12, CPython's ``sum`` adds Python floats with Neumaier's compensated
summation: a running correction collects the rounding error of each addition and
is added once at the end (``sum([0.1] * 10)`` is ``1.0``, not
``0.9999999999999999``).  NumPy scalars (``np.float64`` is a float subclass, not
a float) and ints take the plain ``+``.  The loop that
``frontend/comprehensions.py`` builds for a ``sum`` asks, at each addition,
``compensates(total, item)``: true when both are Python floats (float64 values
that are not NumPy scalars).  Types decide it while inferring (the template sets
``PyCall.plan``, which ``infer.static_truth`` reads), so the branch not taken is
neither typed nor compiled.  A start that is a Python int (the default 0) keeps
CPython's int path until the first float: that addition is the plain ``+``
(``python_int``), the ones after it are compensated.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register


class _Compensates:
    """``compensates(total, item)`` in compiled code; not callable from Python."""

    __name__ = "compensates"

    def __call__(self, total, item):
        raise TypeError("compensates is only compiled")


compensates = _Compensates()


@register
class Compensates(CallTemplate):
    paths = ("hanajit.lib.python.float_sums.compensates",)
    static = True           # decided by types: ``call.plan`` is the answer

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible("compensates(total, item)")
        call.plan = all(t == T.FLOAT64 and inf.weak(a) for t, a in zip(args, call.args))
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        return N.Const(bool(call.plan), T.BOOL)


class _PythonInt:
    """``python_int(x)`` in compiled code; not callable from Python."""

    __name__ = "python_int"

    def __call__(self, x):
        raise TypeError("python_int is only compiled")


python_int = _PythonInt()


@register
class PythonInt(CallTemplate):
    """``python_int(start)``: is a ``sum``'s start a Python int (or bool)?  CPython
    then adds exactly, as ints, and the first float item with the plain ``+``
    (an int plus a float); only the additions after it are compensated."""

    paths = ("hanajit.lib.python.float_sums.python_int",)
    static = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("python_int(x)")
        call.plan = args[0] in (T.INT64, T.BOOL) and inf.weak(call.args[0])
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        return N.Const(bool(call.plan), T.BOOL)
