"""NumPy's NaN-ignoring reductions over a whole array (no ``axis``; with it:
``nanfuncs_axis``), as
``numpy/lib/_nanfunctions_impl.py`` defines them for float arrays (integer and
bool arrays have no NaN: the plain reduction):

* ``np.nansum`` / ``np.nanprod``: NaNs replaced by 0 / 1, then ``np.sum`` /
  ``np.prod``: float sums pairwise in the order of NumPy's copy, bit for bit
  (an N-D array neither C- nor Fortran-contiguous: in index order);
* ``np.nanmax`` / ``np.nanmin``: ``np.fmax.reduce`` / ``np.fmin.reduce`` -- NaN
  only when every element is NaN (NumPy warns); ValueError when empty;
* ``np.nanmean``: that sum over the count of the non-NaN elements, divided in
  float64 (0/0 is NaN);
* ``np.nanargmax`` / ``np.nanargmin``: NaNs replaced by -inf / +inf, then
  ``argmax``/``argmin`` (so ``[nan, -inf]`` gives 0, as NumPy); ValueError
  "All-NaN slice encountered" when every element is NaN.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.math_functions import numpy_predicate
from ..python.operators import C
from ..arrays.reductions import loops, sum_dtype, total_size
from ..registry import CallTemplate, register

I = T.INT64


class NanReduction(CallTemplate):
    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def typer(self, inf, call, args, kwargs):
        from . import nanfuncs_axis
        if nanfuncs_axis.wanted(self.name, call, args, kwargs):
            return nanfuncs_axis.typer(self.name, inf, call, args, kwargs)
        if len(args) != 1 or kwargs or not isinstance(args[0], T.ArrayType):
            raise Incompatible(f"np.{self.name}(a) of an array, without axis")
        t = args[0].dtype
        if t.is_complex:
            raise Incompatible(f"np.{self.name}() of complex arrays")
        if self.name in ("nansum", "nanprod"):
            return sum_dtype(t)
        if self.name == "nanmean":
            return t if t.is_float else T.FLOAT64
        if self.name in ("nanargmax", "nanargmin"):
            return I
        if t.is_bool:
            raise Incompatible(f"np.{self.name}() of booleans")
        return t

    @staticmethod
    def lanes(L, arr):
        """Whether ``arr`` is read as one contiguous lane (C-contiguous) on a
        target with the ``allocation`` capability (the lanes' scratch)."""
        ctx = L.ctx
        return arr.type.layout == "C" and (ctx is None or ctx.capabilities.allocation)

    @staticmethod
    def memory_order(L, arr):
        """``arr``'s elements as a 1-D array in the order of NumPy's copy
        (``np.array(a, copy=True)``, order ``'K'``): a 1-D array itself, a C- or
        Fortran-contiguous one flattened in its memory order; None for other
        layouts of more dimensions (their order is known only at run time)."""
        from ..arrays.shape import reshape_view
        t = arr.type
        if t.ndim == 1:
            return arr
        if t.layout == "F":     # its transpose is C-contiguous
            nd = t.ndim
            arr = L.let(N.ArrayView(arr, C(0, I),
                                    [N.ArrayAttr(arr, "shape", k, I) for k in range(nd)][::-1],
                                    [N.ArrayAttr(arr, "stride", k, I) for k in range(nd)][::-1],
                                    t.copy(layout="C")))
        elif t.layout != "C":
            return None
        return L.let(reshape_view(L, arr, [C(-1, I)], t.copy(ndim=1, layout="C")))

    @staticmethod
    def pairwise(L, flat, et, name):
        """``np.nansum``/``np.nanmean`` of float data as NumPy computes them: the
        NaNs replaced by 0 in a copy that ``np.sum`` adds pairwise, here the
        replaced values computed on the fly in the same tree
        (``Reduction.fused_pairwise``); the mean divides by the count of the
        others in float64 and rounds back to the data's type."""
        from ..arrays import elementwise as ew
        from ..arrays.reductions import REDUCTIONS
        n = L.let(N.ArrayAttr(flat, "shape", 0, I))

        def replaced(idx):
            x = L.let(N.Load(flat, [idx[0]], et))
            return N.Select(numpy_predicate(L, "isnan", x), ops.zero(et), x, et)
        z = ew.Lazy(T.ArrayType(et, 1, "C"), [n], replaced)
        total = L.let(REDUCTIONS["sum"].fused_pairwise(L, z, et))
        if name == "nansum":
            return total
        cnt = L.temp(I, "cnt")
        L.emit(N.Assign(target=cnt, value=C(0, I)))
        loops(L, [n], lambda idx: L.emit(N.Assign(target=cnt, value=N.BinOp(
            "add", N.Var(cnt, I), ops.convert(L, ops.logical_not(numpy_predicate(
                L, "isnan", N.Load(flat, [idx[0]], et))), I), I))))
        f64 = T.FLOAT64
        mean = N.BinOp("fdiv", ops.convert(L, total, f64), N.Cast(N.Var(cnt, I), f64), f64)
        return ops.convert(L, mean, et)

    def lower(self, L, call, args, kwargs):
        from . import nanfuncs_axis
        if nanfuncs_axis.wanted(self.name, call, [a.type for a in args], kwargs):
            return nanfuncs_axis.lower(self.name, L, call, args, kwargs)
        arr = L.let(args[0])
        et = arr.type.dtype
        dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(arr.type.ndim)]
        rt = call.type
        name = self.name

        def elem(idx):
            return N.Load(arr, list(idx), et)

        def isnan(x):
            return numpy_predicate(L, "isnan", x)

        flat = self.memory_order(L, arr)
        if name in ("nansum", "nanmean") and et.is_float and flat is not None:
            return self.pairwise(L, flat, et, name)
        if name in ("nansum", "nanprod", "nanmean"):
            at = rt if name != "nanmean" else (et if et.is_float else T.FLOAT64)
            acc, cnt = L.temp(at, "acc"), L.temp(I, "cnt")
            L.emit(N.Assign(target=acc, value=ops.zero(at) if name != "nanprod"
                            else C(1 if at.is_int else 1.0, at)))
            L.emit(N.Assign(target=cnt, value=C(0, I)))
            op = "mul" if name == "nanprod" else "add"

            def body(idx):
                x = L.let(elem(idx))
                nan = L.let(isnan(x))
                neutral = C(1.0, et) if name == "nanprod" else ops.zero(et)
                v = ops.convert(L, N.Select(nan, neutral, x, et), at)
                L.emit(N.Assign(target=acc, value=N.BinOp(op, N.Var(acc, at), v, at)))
                L.emit(N.Assign(target=cnt, value=N.BinOp(
                    "add", N.Var(cnt, I), N.Select(nan, C(0, I), C(1, I), I), I)))
            loops(L, dims, body)
            if name != "nanmean":
                return N.Var(acc, at)
            # NumPy divides the sum by the count in float64, then casts back
            f64 = T.FLOAT64
            mean = N.BinOp("fdiv", ops.convert(L, N.Var(acc, at), f64),
                           N.Cast(N.Var(cnt, I), f64), f64)
            return ops.convert(L, mean, at)
        size = L.let(total_size(dims))
        if name in ("nanmax", "nanmin"):
            op = ("fmax" if name == "nanmax" else "fmin") if et.is_float else (
                "maximum" if name == "nanmax" else "minimum")
            L.raise_if(N.Cmp("eq", size, C(0, I), T.BOOL), ValueError,
                       f"zero-size array to reduction operation {op} which has no identity")
            best = L.temp(et, "best")
            keep = "ge" if name == "nanmax" else "le"

            def in_order():
                first = L.sub_block(lambda: elem([C(0, I)] * len(dims)))
                L.out.extend(first[0])
                L.emit(N.Assign(target=best, value=first[1]))

                def body(idx):
                    x = L.let(elem(idx))
                    b = N.Var(best, et)
                    # fmax(b, x): b when b >= x or x is NaN; else x (NaN b loses)
                    stays = ops.bor(N.Cmp(keep, b, x, T.BOOL), isnan(x))
                    L.emit(N.Assign(target=best, value=N.Select(stays, b, x, et)))
                loops(L, dims, body)
            if not (et.is_float and self.lanes(L, arr)):
                in_order()
                return N.Var(best, et)
            # vector lanes; their infinity (no value but NaNs, or few values) and
            # a zero (which one is the first) are found in order
            from ..arrays import extreme_lanes
            from ..arrays.shape import reshape_view
            flat = arr if arr.type.ndim == 1 else L.let(reshape_view(
                L, arr, [C(-1, I)], arr.type.copy(ndim=1)))
            L.emit(N.Assign(target=best, value=L.call_helper(
                extreme_lanes.nan_extreme, [flat, C(name == "nanmax", T.BOOL)])))
            b = N.Var(best, et)
            again = ops.bor(N.Cmp("eq", b, C(0.0, et), T.BOOL), N.Cmp(
                "eq", b, C(float("-inf") if name == "nanmax" else float("inf"), et), T.BOOL))
            slow, _ = L.sub_block(in_order)
            L.emit(N.If(cond=again, then=slow, orelse=[]))
            return N.Var(best, et)
        # nanargmax / nanargmin: NaN -> -inf / +inf, then the first extreme
        fill = float("-inf") if name == "nanargmax" else float("inf")
        best, pos, k, seen = (L.temp(et, "best"), L.temp(I, "pos"), L.temp(I, "k"),
                              L.temp(T.BOOL, "seen"))
        L.emit(N.Assign(target=pos, value=C(0, I)))
        L.emit(N.Assign(target=k, value=C(0, I)))
        L.emit(N.Assign(target=seen, value=C(False, T.BOOL)))
        L.raise_if(N.Cmp("eq", size, C(0, I), T.BOOL), ValueError,
                   f"attempt to get {name[3:]} of an empty sequence")
        L.emit(N.Assign(target=best, value=C(fill, et) if et.is_float else
                        N.Load(arr, [C(0, I)] * len(dims), et)))
        better_op = "gt" if name == "nanargmax" else "lt"

        def body(idx):
            x = L.let(elem(idx))
            nan = L.let(isnan(x))
            v = L.let(N.Select(nan, C(fill, et), x, et) if et.is_float else x)
            first = N.Cmp("eq", N.Var(k, I), C(0, I), T.BOOL)
            better = L.let(ops.bor(first, N.Cmp(better_op, v, N.Var(best, et), T.BOOL)))
            L.emit(N.Assign(target=best, value=N.Select(better, v, N.Var(best, et), et)))
            L.emit(N.Assign(target=pos, value=N.Select(better, N.Var(k, I), N.Var(pos, I), I)))
            L.emit(N.Assign(target=seen, value=ops.bor(N.Var(seen, T.BOOL),
                                                        ops.logical_not(nan))))
            L.emit(N.Assign(target=k, value=N.BinOp("add", N.Var(k, I), C(1, I), I)))
        loops(L, dims, body)
        L.raise_if(ops.logical_not(N.Var(seen, T.BOOL)), ValueError,
                   "All-NaN slice encountered")
        return N.Var(pos, I)


for _name in ("nansum", "nanprod", "nanmean", "nanmax", "nanmin", "nanargmax",
              "nanargmin"):
    register(NanReduction(_name))
