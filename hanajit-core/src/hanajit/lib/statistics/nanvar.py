"""``np.nanvar`` / ``np.nanstd(a, axis=None, ddof=0, keepdims=False)`` as
``numpy/lib/_nanfunctions_impl.py`` computes them.

An integer or bool array has no NaN: NumPy calls ``np.var``/``np.std``, and so does
hanajit (``var_std_norm.VarStd``).  For a float array NumPy works on a copy with
the NaNs replaced by 0 (``_replace_nan``): the count of the others (an ``intp``
sum), the copy's sum (pairwise) divided by that count (in float64, rounded back
to float32 data's type, as ``np.divide`` of the float array by the ``intp``
count), the deviations ``arr - avg`` with the NaN places set back to 0, their
squares, the squares' pairwise sum divided by ``dof = cnt - ddof`` (float64
again; ``ddof`` a float makes ``dof`` one), and NaN wherever ``dof <= 0``.
``nanstd`` is the square root.  Where NumPy sums lanes whole (the whole array in
the memory order of its copy, or the rows of a C-contiguous one) each lane is one
scratch array holding the replaced values, then their squared deviations; along
other axes of a C-contiguous array (one, or a tuple) the copy, means and squares
are whole arrays as in NumPy, summed by ``np.sum``'s own lowering (NumPy's order
there: ``arrays/sum_order.py``, ``arrays/axis_reduce.py``).  The same operations
in the same order either way.

Compiled where hanajit knows NumPy's order: 1-D arrays (any stride), C- or
Fortran-contiguous ones as a whole, C-contiguous ones along any axis or tuple of
axes; other layouts, ``dtype=``, ``out=``, ``where=``, ``mean=``, ``correction=``
and complex arrays fall back.  NumPy also warns "Degrees of freedom <= 0 for
slice." where ``dof <= 0``; compiled code gives the NaN without the warning (no
RuntimeWarning comes from compiled code: docs/limitations.md).
"""
from __future__ import annotations

import copy

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.reductions import axis_arg, kept_array, loops
from ..python import operators as ops
from ..python.math_functions import numpy_predicate
from ..python.operators import C
from ..registry import register
from .nanfuncs import NanReduction
from .var_std_norm import VarStd

I = T.INT64
F = T.FLOAT64


def _axes(t: T.ArrayType, axis):
    """The sorted, normalised axes of a constant ``axis`` (None: all)."""
    if axis is None:
        return None
    axes = []
    for a in (axis if isinstance(axis, tuple) else (axis,)):
        if not -t.ndim <= a < t.ndim:
            raise Incompatible(f"axis {a} is out of bounds for array of dimension {t.ndim}")
        axes.append(a % t.ndim)
    if len(set(axes)) != len(axes):
        raise Incompatible("repeated axis")
    return sorted(axes)


def _order_known(t: T.ArrayType, axes) -> bool:
    """Does hanajit know NumPy's summation order of ``t``'s NaN-free copy (order
    ``'K'``: ``t``'s own memory order) reduced over ``axes``?  Pairwise over the
    whole of a 1-D, C- or F-contiguous array; along axes of a C-contiguous one,
    ``np.sum``'s own order (``arrays/sum_order.py``, ``axis_reduce``)."""
    if t.ndim == 1:
        return True
    if axes is None:
        return t.layout in ("C", "F")
    return t.layout == "C"


class NanVarStd(VarStd):
    """``np.nanvar`` / ``np.nanstd``: ``VarStd`` whose lanes skip NaNs."""

    def typer(self, inf, call, args, kwargs):
        a = args[0] if args else None
        if not (isinstance(a, T.ArrayType) and (a.dtype.is_float or a.dtype.is_complex)):
            return super().typer(inf, call, args, kwargs)   # np.var's (ints, bools)
        if a.dtype.is_complex:
            raise Incompatible(f"np.nan{self.name}() of complex arrays")
        extra = set(kwargs) - {"axis", "keepdims", "ddof"}
        if extra or len(args) > 2:
            raise Incompatible(f"np.nan{self.name}() arguments {sorted(extra)} "
                               "(or more than a and axis by position)")
        ddof = kwargs.get("ddof")
        if ddof is not None and not (isinstance(ddof, T.Scalar) and not ddof.is_complex):
            raise Incompatible("ddof must be a number")
        axis, keep = axis_arg(call)
        axes = _axes(a, axis)
        if not _order_known(a, axes):
            raise Incompatible(
                f"np.nan{self.name}() of a {a.ndim}-D {a.layout} array along axis "
                f"{axis}: NumPy's summation order there is not reproduced")
        ndim = a.ndim if keep or axes is None else a.ndim - len(axes)
        if axes is None and not keep or ndim == 0:
            return a.dtype
        return T.ArrayType(a.dtype, ndim, "C")

    def lower(self, L, call, args, kwargs):
        a = args[0]
        if not a.type.dtype.is_float:
            return super().lower(L, call, args, kwargs)     # np.var / np.std
        tpl = copy.copy(self)
        tpl.ddof = kwargs.get("ddof")
        arr = L.let(ew.materialize(L, a))
        axis, keep = axis_arg(call)
        rt = call.type
        st = rt.dtype if isinstance(rt, T.ArrayType) else rt
        nd = arr.type.ndim
        axes = _axes(arr.type, axis)
        if axes is None:
            flat = NanReduction.memory_order(L, arr)
            v = tpl.pairwise(L, flat, st)
            return kept_array(L, v, rt, nd) if keep else v
        if nd == 1 or axes == [nd - 1]:
            return tpl.lower_pairwise(L, arr, rt, st, axes[0], keep)
        return tpl.along_axes(L, arr, rt, st, axes, keep)

    def along_axes(self, L, arr, rt, st, axes, keep):
        """NumPy's nanvar of a C-contiguous ``arr`` along ``axes`` (not the last
        alone), with whole arrays as NumPy has them: the NaN-free copy, the
        counts, sums, means and squared deviations, each sum ``np.sum``'s own
        (``Reduction.lower_axis``, ``axis_reduce.over_axes``: NumPy's order)."""
        from ..arrays.axis_reduce import over_axes
        from ..arrays.creation import allocate, fill
        from ..arrays.reductions import REDUCTIONS
        total = REDUCTIONS["sum"]
        nd = arr.type.ndim
        dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(nd)]
        kept = [C(1, I) if k in axes else d for k, d in enumerate(dims)]

        def summed(x, t):           # kept dims
            if len(axes) == 1:
                return L.let(total.lower_axis(L, [x], t, t.dtype, axes[0], True))
            return L.let(over_axes(total, L, x, t, t.dtype, tuple(axes), True))
        full_t = kept_t = T.ArrayType(st, nd, "C")

        def element(idx):
            return L.let(N.Load(arr, list(idx), st))

        def isnan(x):
            return numpy_predicate(L, "isnan", x)

        def at_kept(idx):           # the kept-dims index of an element's lane
            return [C(0, I) if k in axes else i for k, i in enumerate(idx)]
        work = allocate(L, full_t, dims)
        fill(L, work, dims, lambda idx: (lambda x: N.Select(
            isnan(x), ops.zero(st), x, st))(element(idx)))
        counted = ew.Lazy(T.ArrayType(I, nd, "C"), dims, lambda idx: ops.convert(
            L, ops.logical_not(isnan(element(idx))), I))
        cnt = summed(counted, T.ArrayType(I, nd, "C"))
        mean = summed(work, kept_t)
        fill(L, mean, kept, lambda idx: _divide(
            L, N.Load(mean, list(idx), st), N.Load(cnt, list(idx), I), st))

        def square(idx):
            x = element(idx)
            m = N.Load(mean, at_kept(idx), st)
            d = L.let(N.Select(isnan(x), ops.zero(st), N.BinOp("sub", x, m, st), st))
            return N.BinOp("mul", d, d, st)
        fill(L, work, dims, square)
        sq = summed(work, kept_t)

        def result(idx):
            idx = list(idx)
            if not keep:
                for a in axes:
                    idx.insert(a, C(0, I))
            return self.finish(L, N.Load(sq, idx, st), N.Load(cnt, idx, I), st)
        if not isinstance(rt, T.ArrayType):         # every axis, keepdims=False
            return result([])
        out_dims = kept if keep else [d for k, d in enumerate(dims) if k not in axes]
        out = allocate(L, rt, out_dims)
        fill(L, out, out_dims, result)
        return out

    def finish(self, L, total, count, st):
        """The squares' ``total`` over ``dof = count - ddof`` (NaN where
        ``dof <= 0``); its square root for ``nanstd``."""
        ct = F if self.ddof is not None and not (self.ddof.type.is_int
                                                 or self.ddof.type.is_bool) else I
        ddof = ops.convert(L, self.ddof, ct) if self.ddof is not None else C(0, I)
        dof = L.let(N.BinOp("sub", ops.convert(L, count, ct), ddof, ct))
        var = L.let(_divide(L, total, dof, st))
        var = L.let(N.Select(N.Cmp("le", dof, ops.zero(ct), T.BOOL),
                             C(float("nan"), st), var, st))
        if self.name == "std":
            return N.Intrinsic("sqrt", [var], st)
        return var

    def pairwise(self, L, lane, st, scratch=True):
        """NumPy's nanvar of one lane (see the module's docstring)."""
        if self.buffered:           # an integer array's float64 copy: np.var's
            return super().pairwise(L, lane, st, scratch)
        from . import pairwise_sum as hs
        from ..arrays.creation import allocate, fill
        n = L.let(N.ArrayAttr(lane, "shape", 0, I))

        def element(i):
            return L.let(N.Load(lane, [i], st))

        def isnan(x):
            return numpy_predicate(L, "isnan", x)
        work = allocate(L, T.ArrayType(st, 1, "C"), [n])
        fill(L, work, [n], lambda idx: (lambda x: N.Select(
            isnan(x), ops.zero(st), x, st))(element(idx[0])))
        cnt = L.temp(I, "cnt")
        L.emit(N.Assign(target=cnt, value=C(0, I)))
        loops(L, [n], lambda idx: L.emit(N.Assign(target=cnt, value=N.BinOp(
            "add", N.Var(cnt, I), ops.convert(L, ops.logical_not(isnan(element(idx[0]))), I),
            I))))
        count = L.let(N.Var(cnt, I))
        mean = L.let(_divide(L, L.call_helper(hs.pairwise, [work, C(0.0, st)]), count, st))

        def square(idx):
            x = element(idx[0])
            d = L.let(N.Select(isnan(x), ops.zero(st), N.BinOp("sub", x, mean, st), st))
            return N.BinOp("mul", d, d, st)
        fill(L, work, [n], square)
        return self.finish(L, L.call_helper(hs.pairwise, [work, C(0.0, st)]), count, st)


def _divide(L, total, count, st):
    """``total / count`` as NumPy's ``np.divide`` of a float array by an ``intp``
    (or float64) one: in float64, rounded back to ``st``."""
    q = N.BinOp("fdiv", ops.convert(L, total, F), ops.convert(L, count, F), F)
    return q if st == F else N.Cast(q, st)


register(NanVarStd("var", ("nanvar",)))
register(NanVarStd("std", ("nanstd",)))
