"""``np.bincount(x, weights=None, minlength=0)`` for 1-D integer (or bool) ``x``:
counts as int64, weighted sums as float64 (NumPy's result types), ValueError for
negative values, mismatched weights or a negative ``minlength``.  An empty ``x``
with weights deoptimises: NumPy returns int64 zeros there, not float64."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import bincount_algorithms as hb
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register

_PARAMS = ("x", "weights", "minlength")


def _bind(args, kwargs):
    return bind_arguments("np.bincount", _PARAMS, args, kwargs)


@register
class Bincount(CallTemplate):
    paths = ("numpy.bincount",)

    def typer(self, inf, call, args, kwargs):
        a = _bind(args, kwargs)
        x = a.get("x")
        if not (isinstance(x, T.ArrayType) and x.ndim == 1
                and (x.dtype.is_int or x.dtype.is_bool)):
            raise Incompatible("np.bincount() takes a 1-D array of non-negative ints")
        w = a.get("weights", T.NONE)
        if w != T.NONE and not (isinstance(w, T.ArrayType) and w.ndim == 1
                                and not w.dtype.is_complex):
            raise Incompatible("np.bincount() weights must be a 1-D real array")
        m = a.get("minlength", T.INT64)
        if not (isinstance(m, T.Scalar) and (m.is_int or m.is_bool)):
            raise Incompatible("np.bincount() minlength must be an int")
        return T.ArrayType(T.INT64 if w == T.NONE else T.FLOAT64, 1, "C")

    def lower(self, L, call, args, kwargs):
        a = _bind(args, kwargs)
        x = a["x"]
        m = L.let(ops.convert_wrap(a.get("minlength", C(0, T.INT64)), T.INT64))
        L.raise_if(N.Cmp("lt", m, C(0, T.INT64), T.BOOL), ValueError,
                   "'minlength' must not be negative")
        w = a.get("weights")
        if w is None or w.type == T.NONE:
            return L.call_helper(hb.bincount, [x, m])
        return L.call_helper(hb.bincount_weights, [x, w, m])
