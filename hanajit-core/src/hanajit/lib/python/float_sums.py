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

from ...ir import types as T
from ..registry import CompiledOnly, StaticQuestion, register

compensates = CompiledOnly("compensates")
python_int = CompiledOnly("python_int")


@register
class Compensates(StaticQuestion):
    """``compensates(total, item)``: are both Python floats?"""

    paths = ("hanajit.lib.python.float_sums.compensates",)
    arity = 2

    def answer(self, inf, call, args):
        return all(t == T.FLOAT64 and inf.weak(a) for t, a in zip(args, call.args))


@register
class PythonInt(StaticQuestion):
    """``python_int(start)``: is a ``sum``'s start a Python int (or bool)?  CPython
    then adds exactly, as ints, and the first float item with the plain ``+``
    (an int plus a float); only the additions after it are compensated."""

    paths = ("hanajit.lib.python.float_sums.python_int",)

    def answer(self, inf, call, args):
        return args[0] in (T.INT64, T.BOOL) and inf.weak(call.args[0])
