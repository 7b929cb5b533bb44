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
``nanstd`` is the square root.  Here each lane (the whole array in the memory
order of NumPy's copy, or a row) is one scratch array holding the replaced
values, then their squared deviations: the same operations in the same order.

Compiled only where NumPy's summation order is the pairwise sum of such a lane:
1-D arrays (any stride), C- or Fortran-contiguous ones as a whole, and the last
axis of C-contiguous ones; other layouts, axes, ``dtype=``, ``out=`` and complex
arrays fall back.  NumPy also warns "Degrees of freedom <= 0 for slice." where
``dof <= 0``; compiled code gives the NaN without the warning (no RuntimeWarning
comes from compiled code: docs/limitations.md).
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


def _order_known(t: T.ArrayType, axis) -> bool:
    """Does NumPy sum the lanes of ``t`` reduced over ``axis`` pairwise, each
    lane whole (its copy keeps ``t``'s memory order)?"""
    if t.ndim == 1:
        return True
    if axis is None:
        return t.layout in ("C", "F")
    return t.layout == "C" and axis % t.ndim == t.ndim - 1


class NanVarStd(VarStd):
    """``np.nanvar`` / ``np.nanstd``: ``VarStd`` whose lanes skip NaNs."""

    def typer(self, inf, call, args, kwargs):
        a = args[0] if args else None
        if isinstance(a, T.ArrayType) and (a.dtype.is_float or a.dtype.is_complex):
            if a.dtype.is_complex:
                raise Incompatible(f"np.nan{self.name}() of complex arrays")
            axis, _ = axis_arg(call)
            if isinstance(axis, tuple):
                raise Incompatible(f"np.nan{self.name}() over several axes")
            if axis is not None and not -a.ndim <= axis < a.ndim:
                raise Incompatible(
                    f"axis {axis} is out of bounds for array of dimension {a.ndim}")
            if not _order_known(a, axis):
                raise Incompatible(
                    f"np.nan{self.name}() of a {a.ndim}-D {a.layout} array along axis "
                    f"{axis}: NumPy's summation order there is not reproduced")
        return super().typer(inf, call, args, kwargs)

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
        if axis is None:
            flat = NanReduction.memory_order(L, arr)
            v = tpl.pairwise(L, flat, st)
            return kept_array(L, v, rt, arr.type.ndim) if keep else v
        return tpl.lower_pairwise(L, arr, rt, st, axis, keep)

    def pairwise(self, L, lane, st, scratch=True):
        """NumPy's nanvar of one lane (see the module's docstring)."""
        if self.buffered:           # an integer array's float64 copy: np.var's
            return super().pairwise(L, lane, st, scratch)
        from . import pairwise_sum as hs
        from ..arrays.creation import allocate, fill
        n = L.let(N.ArrayAttr(lane, "shape", 0, I))

        def divide(total, count):
            q = N.BinOp("fdiv", ops.convert(L, total, F), ops.convert(L, count, F), F)
            return q if st == F else N.Cast(q, st)

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
        mean = L.let(divide(L.call_helper(hs.pairwise, [work, C(0.0, st)]), count))

        def square(idx):
            x = element(idx[0])
            d = L.let(N.Select(isnan(x), ops.zero(st), N.BinOp("sub", x, mean, st), st))
            return N.BinOp("mul", d, d, st)
        fill(L, work, [n], square)
        total = L.call_helper(hs.pairwise, [work, C(0.0, st)])
        ct = F if self.ddof is not None and not (self.ddof.type.is_int
                                                 or self.ddof.type.is_bool) else I
        ddof = ops.convert(L, self.ddof, ct) if self.ddof is not None else C(0, I)
        dof = L.let(N.BinOp("sub", ops.convert(L, count, ct), ddof, ct))
        var = L.let(divide(total, dof))
        var = L.let(N.Select(N.Cmp("le", dof, ops.zero(ct), T.BOOL),
                             C(float("nan"), st), var, st))
        if self.name == "std":
            return N.Intrinsic("sqrt", [var], st)
        return var


register(NanVarStd("var", ("nanvar",)))
register(NanVarStd("std", ("nanstd",)))
