"""``np.histogram2d(x, y, bins=10)`` with an integer ``bins`` and no range,
density or weights: NumPy's ``histogramdd`` steps (``histogram2d_algorithms``),
bit for bit -- edges by ``linspace`` from the columns' min and max, bins by
``searchsorted(side='right')``, points on the last edge in the last bin, the
counts as float64.

``x`` and ``y`` are 1-D; NumPy stacks them (``np.array([x, y])``) in their
common dtype, which must be float64 or an integer type other than uint64 (the
columns are then converted to float64 exactly; int64 values beyond 2**53 re-run
in the interpreter).  NumPy's ValueErrors for lengths that differ, ``bins < 1``
and a NaN or infinite value.  float32, complex and boolean samples, array or
pair ``bins``, ``range``, ``density`` and ``weights`` fall back."""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register, typed_helper
from . import histogram2d_algorithms as ha

F8 = T.FLOAT64
PARAMS = ("x", "y", "bins", "range", "density", "weights")


def _absent(node) -> bool:
    return node is None or (isinstance(node, N.Const) and node.value is None)


def _common(x, y):
    """The dtype of NumPy's ``np.array([x, y])`` of two arrays."""
    return np.result_type(T.numpy_name(x.dtype), T.numpy_name(y.dtype))


@register
class Histogram2d(CallTemplate):
    paths = ("numpy.histogram2d",)
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.histogram2d", PARAMS, args, kwargs)
        nodes = bind_arguments("np.histogram2d", PARAMS, call.args, call.kwargs)
        for k in ("range", "density", "weights"):
            if not _absent(nodes.get(k)):
                raise Incompatible(f"np.histogram2d() with {k}= (only x, y and an "
                                   "integer bins compile)")
        if "x" not in b or "y" not in b:
            raise Incompatible("np.histogram2d() missing x or y")
        x, y = b["x"], b["y"]
        for t in (x, y):
            if not (isinstance(t, T.ArrayType) and t.ndim == 1
                    and isinstance(t.dtype, T.Scalar)):
                raise Incompatible(f"np.histogram2d() of {t} (1-D arrays only)")
        common = _common(x, y)
        if not (common == np.float64 or (common.kind in "iu" and common != np.uint64)):
            raise Incompatible(f"np.histogram2d() of {common} samples (float64 and "
                               "integers only)")
        bins = b.get("bins", T.INT64)
        if not (isinstance(bins, T.Scalar) and bins.is_int):
            raise Incompatible(f"np.histogram2d() with bins of {bins} (an int only)")
        col = T.ArrayType(F8, 1, "C")
        return typed_helper(inf, ha.histogram2d_bins, [col, col, T.INT64, T.BOOL]).return_type

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.histogram2d", PARAMS, args, kwargs)
        cols = []
        for k in ("x", "y"):
            z = ew.to_lazy(L, b[k])
            t = T.ArrayType(F8, 1, "C")
            cols.append(L.let(ew.materialize(L, ew.Lazy(
                t, z.dims, lambda idx, z=z: ops.convert(L, z.elem(idx), F8)))))
        bins = L.let(ops.convert(L, b["bins"], T.INT64) if "bins" in b else C(10, T.INT64))
        big = C(bool(_common(b["x"].type, b["y"].type) == np.int64), T.BOOL)
        return L.call_helper(ha.histogram2d_bins, cols + [bins, big])
