"""Complex sums and means in NumPy's order (a mixin of ``reductions.Reduction``):
a 1-D complex array of any stride is NumPy's complex pairwise sum
(``statistics/complex_pairwise.py``), an N-D one along an axis goes lane by
lane (``sum_order.array_axis``), and a mean divides the sum as NumPy's
complex division divides by the count."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from ..python.operators import C

I = T.INT64


def numpys_order_kept(L) -> bool:
    """May sums follow NumPy's order here?  On targets with the ``allocation``
    capability, without ``reduce_reassoc`` or ``fastmath`` (which keep the order
    that vectorises)."""
    ctx = L.ctx
    return ctx is None or (ctx.capabilities.allocation
                           and not ctx.options.get("reduce_reassoc")
                           and not ctx.options.get("fastmath"))


class ComplexSums:
    def complex_lane(self, L, arg, st, axis):
        """Whether ``np.sum``/``np.mean`` of ``arg`` is of a 1-D complex array of
        the sum's own dtype (any stride): NumPy's complex pairwise sum
        (``statistics/complex_pairwise.py``); other complex sums add in order."""
        t = arg.type
        ctx = L.ctx
        return (self.name in ("sum", "mean") and not isinstance(arg, ew.Lazy)
                and isinstance(t, T.ArrayType) and t.ndim == 1 and t.dtype == st
                and st.is_complex and axis in (None, 0, -1)
                and not (ctx is not None and (ctx.options.get("reduce_reassoc")
                                              or ctx.options.get("fastmath"))))

    def complex_temporary(self, L, arg, st):
        """For ``np.sum``/``np.mean`` of a complex expression of the sum's own
        dtype, NumPy's temporary of it (``sum_order.numpy_temporary``: its
        memory order decides NumPy's lanes), which the complex array paths
        then sum as NumPy sums it; else ``arg``."""
        if (self.name in ("sum", "mean") and isinstance(arg, ew.Lazy)
                and arg.type.dtype == st and st.is_complex and numpys_order_kept(L)):
            from .sum_order import numpy_temporary
            return numpy_temporary(L, arg)
        return arg

    def complex_pairwise(self, L, lane, st):
        """NumPy's sum of the complex ``lane``, or its mean (the sum divided by
        the count as NumPy's complex division divides)."""
        from ..statistics import complex_pairwise as cp
        c = st.component
        parts = L.let(L.call_helper(cp.complex_parts_sum, [lane, C(0.0, c)]))
        total = L.let(N.MakeComplex(N.TupleGet(parts, 0, c), N.TupleGet(parts, 1, c), st))
        return self.complex_mean_of(L, total, N.ArrayAttr(lane, "shape", 0, I), st)

    def complex_mean_of(self, L, total, n, st):
        """The complex ``total`` for a sum; for a mean ``total / n`` as NumPy
        divides: by an ``intp`` count, complex64 in complex128, rounded back."""
        if self.name == "sum":
            return total
        D, F = T.COMPLEX128, T.FLOAT64
        n = N.Cast(n, F)
        q = ew.np_complex_div(L, ops.convert(L, total, D), N.MakeComplex(n, C(0.0, F), D), D)
        if st == D:
            return q
        q, c = L.let(q), st.component
        return N.MakeComplex(N.Cast(N.ComplexPart(q, "real", F), c),
                             N.Cast(N.ComplexPart(q, "imag", F), c), st)

    def complex_order(self, L, arg, st):
        """Does the sum or mean of the N-D complex array ``arg`` along an axis
        follow NumPy's order (``sum_order.array_axis``)?  As
        :meth:`exact_order`, for an array of the sum's own complex dtype."""
        if not numpys_order_kept(L):
            return False
        t = arg.type
        return (self.name in ("sum", "mean") and not isinstance(arg, ew.Lazy)
                and isinstance(t, T.ArrayType) and t.ndim >= 2 and t.dtype == st
                and st.is_complex)
