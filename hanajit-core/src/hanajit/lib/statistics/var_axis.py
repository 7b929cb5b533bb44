"""``np.var``/``np.std`` along one axis of an N-D array, as NumPy's ``_var``
computes it, step by step, so that the result is NumPy's bit for bit:

1. the mean along the axis, with ``keepdims`` -- ``np.mean``'s own path
   (``arrays/sum_order.array_axis`` for floats, the float64 cast sum of
   ``arrays/reduce_dtype`` for integers and bools, in index order where that
   does not know NumPy's);
2. the squared deviations ``(a - mean) ** 2`` (``x * x``; of complex data each
   part squared, then the two added), which NumPy keeps in a temporary laid out
   as ``a`` is (C for a C-ordered or stepped ``a``, F for a transposed or
   F-ordered one);
3. their sum along the axis in NumPy's order for that temporary -- each lane
   pairwise where the axis is the temporary's innermost, else in index order
   (``arrays/sum_order.expression_axis``, fused: no temporary);
4. divided by ``max(n - ddof, 0)`` (in float64, as NumPy divides by its
   ``intp`` count, rounded to float32 data's type); ``std`` is its square root.

The layout of ``a`` alone decides the temporary's: NumPy's mean, kept with
``keepdims``, is laid out in ``a``'s axis order, so the two operands agree.  Of
more than two dimensions, whether the axis is the temporary's innermost is
NumPy's iterator's choice for ``a`` (``sum_lanes.innermost_axis``, at run time).
Targets without allocation (or with ``reduce_reassoc``/``fastmath``) keep the
in-order loops (``Reduction.reduce``; documented in docs/semantics.md).
"""
from __future__ import annotations

from types import SimpleNamespace

from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays import reduce_dtype, sum_order
from ..arrays.complex_sums import numpys_order_kept
from ..arrays.reductions import Reduction
from ..python import operators as ops
from ..python.operators import C

I = T.INT64
_SUM, _MEAN = Reduction("sum", ()), Reduction("mean", ())


def applies(tpl, L, a, st, axis) -> bool:
    t = a.type
    return (numpys_order_kept(L) and axis is not None and not isinstance(a, ew.Lazy)
            and isinstance(t, T.ArrayType) and t.ndim >= 2 and st.is_float
            and (t.dtype == st or not t.dtype.is_float
                 or t.dtype.is_complex and t.dtype.component == st)
            and not tpl.pairwise_lane(L, a, st, axis))


def two_passes(tpl, L, a, rt, st, axis, keep):
    """The var (``tpl.name`` ``"var"``) or std of the N-D array ``a`` along
    ``axis`` into ``rt``."""
    a = L.let(a)
    nd = a.type.ndim
    axis %= nd
    et = a.type.dtype
    mt = et if et.is_complex else st            # the mean's type
    mean_t = T.ArrayType(mt, nd, "C")
    # NumPy's mean of integers is its mean with dtype=float64 (None: the
    # ordinary one, as np.mean's own; docs/semantics.md)
    mean = None if et in (st, mt) else reduce_dtype.lower(
        _MEAN, L, SimpleNamespace(), [a], mean_t, axis, True)
    if mean is None:
        mean = _MEAN.lower_axis(L, [a], mean_t, mt, axis, True)
    mean = L.let(mean)
    za = ew.to_lazy(L, a)
    dims = list(za.dims)

    def squared(idx):
        m = L.let(N.Load(mean, [C(0, I) if k == axis else i for k, i in enumerate(idx)],
                         mt))
        if mt.is_complex:       # each part squared, then added (NumPy's float view)
            x = L.let(za.elem(idx))
            dr = L.let(N.BinOp("sub", N.ComplexPart(x, "real", st),
                               N.ComplexPart(m, "real", st), st))
            di = L.let(N.BinOp("sub", N.ComplexPart(x, "imag", st),
                               N.ComplexPart(m, "imag", st), st))
            return N.BinOp("add", N.BinOp("mul", dr, dr, st), N.BinOp("mul", di, di, st), st)
        d = L.let(N.BinOp("sub", ops.convert(L, za.elem(idx), st), m, st))
        return N.BinOp("mul", d, d, st)
    # (the mean is read along the lane: ``a``'s layout is the temporary's)
    z = ew.Lazy(T.ArrayType(st, nd, "C"), dims, squared, leaves=[a])
    out_axes = [k for k in range(nd) if k != axis]
    out_dims = ([d if k != axis else C(1, I) for k, d in enumerate(dims)] if keep
                else [dims[k] for k in out_axes])
    lanes = sum_order.array_axis_lanes(L, a, axis) if nd > 2 else None
    total = L.let(sum_order.expression_axis(_SUM, L, z, st, rt, axis, keep, out_dims,
                                            out_axes, lanes))
    count = L.let(tpl.dof(L, dims[axis]))
    from ..arrays.creation import fill

    def result(idx):
        return tpl.var_of(L, N.Load(total, list(idx), st), count, st)
    fill(L, total, out_dims, result)
    return total


def complex_whole_applies(L, a, st, axis) -> bool:
    t = a.type
    return (numpys_order_kept(L) and axis is None and not isinstance(a, ew.Lazy)
            and isinstance(t, T.ArrayType) and t.ndim >= 1 and t.dtype.is_complex
            and t.dtype.component == st)


def complex_whole(tpl, L, a, st):
    """``np.var``/``np.std`` of the whole complex array ``a`` as NumPy's ``_var``
    computes it: the complex mean (``np.mean``'s own path: NumPy's complex
    sum, divided as its complex division divides), the deviations in a
    temporary laid out as NumPy's ufunc lays it out for ``a``
    (``sum_order.numpy_temporary``), each part squared and the two added into
    its real view -- one lane of memory to the reduction, summed pairwise --
    divided by ``max(n - ddof, 0)``."""
    from ..arrays.sum_order import memory_view, numpy_temporary
    from . import pairwise_sum as hs
    a = L.let(a)
    nd = a.type.ndim
    ct = a.type.dtype
    mean = L.let(_MEAN.lower_axis(L, [a], ct, ct, None, False))
    za = ew.to_lazy(L, a)
    dims = list(za.dims)
    mr = L.let(N.ComplexPart(mean, "real", st))
    mi = L.let(N.ComplexPart(mean, "imag", st))

    def squared(idx):
        x = L.let(za.elem(idx))
        dr = L.let(N.BinOp("sub", N.ComplexPart(x, "real", st), mr, st))
        di = L.let(N.BinOp("sub", N.ComplexPart(x, "imag", st), mi, st))
        return N.BinOp("add", N.BinOp("mul", dr, dr, st), N.BinOp("mul", di, di, st), st)
    z = ew.Lazy(T.ArrayType(st, nd, "C"), dims, squared, leaves=[a])
    z.tree = (a,)
    tmp = L.let(numpy_temporary(L, z))
    mem, _ = memory_view(L, tmp, f"np.{tpl.name}()")
    total = L.call_helper(hs.pairwise, [mem, C(0.0, st)])
    n = L.let(N.ArrayAttr(mem, "shape", 0, I))
    return tpl.var_of(L, total, tpl.dof(L, n), st)
