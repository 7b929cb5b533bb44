"""``np.median(a, axis=None, keepdims=False)`` and ``np.nanmedian`` of real
arrays, ``axis`` None or a constant int: NumPy's ``_median`` and
``_nanmedian`` step by step, in their types (the data's float type; float64
for integers and booleans):

* each lane is partitioned by NumPy's own algorithm at ``_median``'s kth's
  (``median_algorithms``), so a NaN result is the NaN NumPy finds last;
* the result is ``mean`` of the middle one or two: NumPy's sum starts at +0.0
  (so a zero median is never -0.0) and the sum of two is halved in the data's
  float type;
* ``median``: a NaN in a lane gives that NaN (``_median_nancheck``);
* ``nanmedian`` of the whole array, of a 1-D array, or along an axis of 600
  or more: NaNs dropped as ``_remove_nan_1d`` drops them, then ``_median``;
  an all-NaN lane gives its last element.  Along a shorter axis of a 2-D or
  wider array NumPy takes ``np.ma.median``: the middle element is summed
  with itself and halved (inf for a finite float beyond half the maximum),
  and an all-NaN lane gives ``np.nan``;
* an empty lane gives the NaN of ``0.0 / 0`` (negative on x86), as ``mean``
  and ``nanmean`` of nothing do (NumPy warns).

``out=``, ``overwrite_input=True``, a tuple ``axis`` and complex data fall
back to the interpreter.
"""
from __future__ import annotations

import math

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from . import median_algorithms as hm
from .quantile import Quantile
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, bound_const, register

I = T.INT64
_PARAMS = ("a", "axis", "out", "overwrite_input", "keepdims")
_UNSET = object()
EMPTY_NAN = -math.nan          # 0.0 / 0 on x86: the sign bit set


class Plan:
    """What a call computes, decided from the types alone."""

    def __init__(self, name, a, axis, keepdims):
        A = self.A = a.dtype
        if not isinstance(A, T.Scalar) or A.is_complex:
            what = "a complex array" if getattr(A, "is_complex", False) else str(a)
            raise Incompatible(f"np.{name}() of {what} (real arrays only)")
        self.R = A if A.is_float else T.FLOAT64
        nd = self.nd = a.ndim
        if axis is not None:
            if type(axis) is not int or not -nd <= axis < nd:
                raise Incompatible(f"np.{name}() axis={axis!r} for a {nd}-D array "
                                   "(a constant int in range or None only)")
            axis %= nd
        self.axis, self.keepdims = axis, keepdims
        # nanmedian: np.ma.median (when the axis is short) only along an axis of
        # a 2-D or wider array; integers and booleans have no NaN: median
        self.nan = name == "nanmedian" and A.is_float
        self.may_be_small = self.nan and axis is not None and nd > 1
        rest = 0 if axis is None else nd - 1
        self.ndim = nd if keepdims else rest
        self.array = keepdims or self.ndim > 0    # keepdims of a 0-d array: 0-d

    def result_type(self):
        return T.ArrayType(self.R, self.ndim, "C") if self.array else self.R


class Median(CallTemplate):
    """``np.median`` / ``np.nanmedian`` (see the module docstring)."""

    accepts_lazy = True
    copies_elements = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def plan(self, call, args, kwargs):
        name = f"np.{self.name}"
        if not args and "a" not in kwargs:
            raise Incompatible(f"{name}(a, axis=None, keepdims=False)")
        nodes = bind_arguments(name, _PARAMS, call.args, call.kwargs)
        types = bind_arguments(name, _PARAMS, args, kwargs)
        for k, ok in (("out", None), ("overwrite_input", False)):
            if k in nodes and bound_const(call, nodes, k, _UNSET) is not ok:
                raise Incompatible(f"{name}() with {k}= (no out/overwrite_input)")
        keep = bound_const(call, nodes, "keepdims", False)
        if type(keep) is not bool:
            raise Incompatible(f"{name}() keepdims must be a constant bool")
        axis = bound_const(call, nodes, "axis", None)
        a = types["a"]
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"{name}() of {a} (an array only)")
        return Plan(self.name, a, axis, keep)

    def typer(self, inf, call, args, kwargs):
        p = self.plan(call, args, kwargs)
        call.median_plan = p
        return p.result_type()

    def lower(self, L, call, args, kwargs):
        p = call.median_plan
        a = bind_arguments(f"np.{self.name}", _PARAMS, args, kwargs)["a"]
        flat, n, other = Quantile.lanes(L, p, a)
        rt = call.type
        out = L.temp(rt, "median")
        empty = N.Cmp("eq", n, C(0, I), T.BOOL)
        none, v0 = L.sub_block(lambda: self.result(L, p, other, lambda lane: C(
            EMPTY_NAN, p.R)))
        some, v1 = L.sub_block(lambda: self.lanes_median(L, p, flat, n, other))
        L.emit(N.If(cond=empty, then=none + [N.Assign(target=out, value=v0)],
                    orelse=some + [N.Assign(target=out, value=v1)]))
        return N.Var(out, rt)

    def lanes_median(self, L, p, flat, n, other):
        """The medians of the ``n >= 1``-item lanes of ``flat``."""
        size = N.ArrayAttr(flat, "shape", 0, I)
        count = L.let(N.BinOp("sdiv", size, n, I))
        lo, hi, code = (allocate(L, T.ArrayType(I, 1, "C"), [count]) for _ in range(3))
        if p.nan:
            small = C(False, T.BOOL)
            if p.may_be_small:
                small = N.Cmp("lt", n, C(hm.SMALL, I), T.BOOL)
            L.call_helper(hm.nanmedian_rows, [flat, n, small, lo, hi, code])
        else:
            L.call_helper(hm.median_rows, [flat, n, C(p.A.is_float, T.BOOL), lo, hi,
                                           code])
        R = p.R

        def value(lane):
            x = L.let(ops.convert(L, N.Load(flat, [N.Load(lo, [lane], I)], p.A), R))
            y = ops.convert(L, N.Load(flat, [N.Load(hi, [lane], I)], p.A), R)
            k = L.let(N.Load(code, [lane], I))
            one = L.let(N.BinOp("add", C(0.0, R), x, R))
            two = N.BinOp("fdiv", N.BinOp("add", one, y, R), C(2.0, R), R)
            r = N.Select(N.Cmp("eq", k, C(hm.TWO, I), T.BOOL), two, one, R)
            r = N.Select(N.Cmp("eq", k, C(hm.RAW, I), T.BOOL), x, r, R)
            return N.Select(N.Cmp("eq", k, C(hm.NAN, I), T.BOOL), C(math.nan, R), r, R)
        return self.result(L, p, other, value)

    @staticmethod
    def result(L, p, other, value):
        """The result: the other axes (1 for the reduced ones with keepdims),
        each element ``value(lane)``."""
        def elem(idx):
            rest = list(idx)
            if p.keepdims:
                rest = [] if p.axis is None else rest[:p.axis] + rest[p.axis + 1:]
            lane = C(0, I)
            for i, d in zip(rest, other):
                lane = N.BinOp("add", N.BinOp("mul", lane, d, I), i, I)
            return value(L.let(lane))
        if not p.array:
            return elem([])
        if p.axis is None:
            dims = [C(1, I)] * p.nd
        else:
            dims = list(other)
            if p.keepdims:
                dims.insert(p.axis, C(1, I))
        return ew.materialize(L, ew.Lazy(T.ArrayType(p.R, p.ndim, "C"), dims, elem))


register(Median("median"))
register(Median("nanmedian"))
