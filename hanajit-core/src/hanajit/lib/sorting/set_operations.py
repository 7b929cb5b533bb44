"""``np.union1d(ar1, ar2)``, ``np.intersect1d(ar1, ar2, assume_unique=False)``,
``np.setdiff1d(ar1, ar2, assume_unique=False)`` and ``np.setxor1d(ar1, ar2,
assume_unique=False)`` of real (and bool) arrays, N-D ones raveled, NumPy's steps
one by one (``numpy/lib/_arraysetops_impl.py``):

* ``union1d``: ``unique(concatenate((ar1, ar2), axis=None))``;
* ``intersect1d``: each array's ``unique`` (raveled with ``assume_unique=True``),
  concatenated, sorted with NumPy's sort (``sort.sort_values``), then the first
  of each pair of equal neighbours (``set_algorithms.equal_neighbours``);
* ``setxor1d``: each array's ``unique``, concatenated and sorted, then the values
  equal to neither neighbour (two NaNs both stay, as NumPy's ``!=`` says);
* ``setdiff1d``: the values of ``unique(ar1)`` (its dtype) equal to no value of
  ``unique(ar2)``, compared in the common dtype -- what NumPy's ``isin`` finds.

``np.unique`` is :func:`sort.unique_values` (NaNs collapse into one), the
concatenation is in NumPy's promoted dtype (``np.result_type``).  Complex arrays,
numbers (not arrays), ``return_indices=True``, a non-constant ``assume_unique``,
``setdiff1d(assume_unique=True)`` (NumPy's answer then depends on its algorithm
for repeated values), and ``setdiff1d`` of a 64-bit integer array with a float
one or uint64 with a signed integer array (ditto, for values the cast makes
equal) fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..registry import CallTemplate, register
from . import set_algorithms as hz
from .digitize import bind, flat_values
from .sort import sort_values, unique_values

I = T.INT64


def _common(d1: T.Scalar, d2: T.Scalar) -> T.Scalar:
    import numpy as np
    return T.from_numpy_dtype(np.result_type(np.dtype(d1.name), np.dtype(d2.name)))


def _length(L, a):
    return L.let(N.ArrayAttr(a, "shape", 0, I))


class SetOperation(CallTemplate):
    """The typing shared by the four functions: two arrays of real numbers or
    bools, and a constant ``assume_unique``; ``names`` the parameters."""

    names = ("ar1", "ar2", "assume_unique")
    array_like = (0, 1, "ar1", "ar2")           # (a list display too)
    accepts_lazy = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def signature(self):
        return f"np.{self.name}({', '.join(self.names)})"

    def typer(self, inf, call, args, kwargs):
        b = bind(call, args, kwargs, self.names, f"{self.signature()} only")
        for k in ("ar1", "ar2"):
            t = b[k]
            if not isinstance(t, T.ArrayType):
                raise Incompatible(f"np.{self.name}() of {t} (arrays only here)")
            if not isinstance(t.dtype, T.Scalar) or t.dtype.is_complex:
                raise Incompatible(f"np.{self.name}() of {t.dtype} arrays "
                                   "(real numbers and bools only)")
        self.check(call, b)
        call.set_assume_unique = self.assume_unique(call)
        return T.ArrayType(self.result(b["ar1"].dtype, b["ar2"].dtype), 1, "C")

    def assume_unique(self, call):
        if "assume_unique" not in self.names:
            return False
        node = call.kwargs.get("assume_unique",
                               call.args[2] if len(call.args) > 2 else None)
        if node is None:
            return False
        if not isinstance(node, N.Const):
            raise Incompatible(f"np.{self.name}(): assume_unique must be a constant")
        return bool(node.value)

    def check(self, call, b):
        """Refuse (Incompatible) what this function does not compile."""

    def result(self, d1, d2):
        return _common(d1, d2)

    def lower(self, L, call, args, kwargs):
        b = bind(call, args, kwargs, self.names, "")
        return self.compute(L, b["ar1"], b["ar2"], call.type.dtype,
                            call.set_assume_unique)

    def uniques(self, L, a1, a2, dtype, assume_unique):
        """``unique(ar1)``, ``unique(ar2)`` (raveled only with ``assume_unique``)
        in ``dtype``, 1-D C-contiguous arrays."""
        if assume_unique:
            return flat_values(L, a1, dtype)[1], flat_values(L, a2, dtype)[1]
        u1, u2 = L.let(unique_values(L, a1)), L.let(unique_values(L, a2))
        return flat_values(L, u1, dtype)[1], flat_values(L, u2, dtype)[1]


class Union1d(SetOperation):
    names = ("ar1", "ar2")

    def compute(self, L, a1, a2, dtype, assume_unique):
        _, f1 = flat_values(L, a1, dtype)
        _, f2 = flat_values(L, a2, dtype)
        return unique_values(L, L.call_helper(hz.join, [f1, f2]))


class Intersect1d(SetOperation):
    names = ("ar1", "ar2", "assume_unique", "return_indices")

    def check(self, call, b):
        node = call.kwargs.get("return_indices",
                               call.args[3] if len(call.args) > 3 else None)
        if node is not None and not (isinstance(node, N.Const) and node.value is False):
            raise Incompatible("np.intersect1d() with return_indices=True")

    def compute(self, L, a1, a2, dtype, assume_unique):
        u1, u2 = self.uniques(L, a1, a2, dtype, assume_unique)
        aux = L.let(L.call_helper(hz.join, [u1, u2]))
        sort_values(L, aux, _length(L, aux), "quick")
        return L.call_helper(hz.equal_neighbours, [aux])


class Setxor1d(SetOperation):
    def compute(self, L, a1, a2, dtype, assume_unique):
        u1, u2 = self.uniques(L, a1, a2, dtype, assume_unique)
        aux = L.let(L.call_helper(hz.join, [u1, u2]))
        sort_values(L, aux, _length(L, aux), "quick")
        return L.call_helper(hz.lone_values, [aux])


class Setdiff1d(SetOperation):
    def check(self, call, b):
        if self.assume_unique(call):
            raise Incompatible("np.setdiff1d() with assume_unique=True (NumPy's answer "
                               "then depends on its algorithm for repeated values)")
        d1, d2 = b["ar1"].dtype, b["ar2"].dtype
        kinds = {d1.kind, d2.kind}
        wide = 64 in (d1.bits if d1.kind in "iu" else 0, d2.bits if d2.kind in "iu" else 0)
        if (wide and "f" in kinds) or ("u" in kinds and "i" in kinds and (
                (d1.kind == "u" and d1.bits == 64) or (d2.kind == "u" and d2.bits == 64))):
            raise Incompatible(f"np.setdiff1d() of {d1} and {d2} (values the common "
                               "type makes equal give NumPy's algorithm's answer)")

    def result(self, d1, d2):
        return d1

    def compute(self, L, a1, a2, dtype, assume_unique):
        u1, u2 = L.let(unique_values(L, a1)), L.let(unique_values(L, a2))
        common = _common(a1.type.dtype, a2.type.dtype)
        c1, c2 = flat_values(L, u1, common)[1], flat_values(L, u2, common)[1]
        return L.call_helper(hz.not_in_sorted, [u1, c1, c2])


register(Union1d("union1d"))
register(Intersect1d("intersect1d"))
register(Setdiff1d("setdiff1d"))
register(Setxor1d("setxor1d"))
