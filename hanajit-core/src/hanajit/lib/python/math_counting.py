"""``math.factorial(n)``, ``math.comb(n, k)`` and ``math.perm(n, k=None)``: typed
here, computed by ``math_counting_algorithms`` (Python ints in, a Python int out;
NumPy integer scalars and bools are taken by value, as ``__index__`` does; a float
argument falls back, as CPython raises TypeError for it; a result beyond int64
re-runs in the interpreter)."""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register
from . import operators as ops
from .math_ints import integers_only


class Counting(CallTemplate):
    """``math.<name>(*params)``: integer arguments, positional only (CPython takes
    no keywords); ``perm``'s ``k`` may be left out or None."""

    def __init__(self, name, params):
        self.name, self.params = name, params
        self.paths = (f"math.{name}",)

    def arguments(self, args, kwargs) -> list:
        if kwargs:
            raise Incompatible(f"math.{self.name}() takes no keyword arguments")
        if not (1 if self.name == "perm" else len(self.params)) <= len(args) \
                <= len(self.params):
            raise Incompatible(f"math.{self.name}({', '.join(self.params)})")
        return list(args)

    def typer(self, inf, call, args, kwargs):
        given = self.arguments(args, kwargs)
        if len(given) == 2 and given[1] == T.NONE:
            given = given[:1]                       # perm(n, None) is perm(n)
        integers_only(self.name, given)
        return T.INT64

    def lower(self, L, call, args, kwargs):
        from . import math_counting_algorithms as alg
        given = self.arguments(args, kwargs)
        if len(given) == 2 and given[1].type == T.NONE:
            given = given[:1]
        vals = [L.let(ops.convert_wrap(a, T.INT64)) for a in given]
        if self.name == "perm" and len(vals) == 1:
            return L.call_helper(alg.factorial, vals)
        return L.call_helper(getattr(alg, self.name), vals)


register(Counting("factorial", ("n",)))
register(Counting("comb", ("n", "k")))
register(Counting("perm", ("n", "k")))
