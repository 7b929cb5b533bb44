"""``np.percentile(a, q)`` and ``np.quantile(a, q)`` with NumPy's default
``method='linear'``, for real arrays: ``axis=None`` or a constant int,
``keepdims``; ``q`` a number, a 0-d or 1-D array, or a tuple/list display of
numbers.  NumPy's ``_quantile`` operation by operation, in its types:

* ``percentile`` divides q by 100 in q's float type (float64 for integers);
  q's out of [0, 1] raise NumPy's ValueError;
* the virtual index ``(n - 1) * q`` in that type, its floor and the next index
  (both the last index from ``n - 1`` on), gamma and ``_lerp``'s two formulas
  (``b - (b - a) * (1 - t)`` when ``t >= 0.5``), ``b - a`` in the data's type
  (integers wrap as in NumPy), the rest in the result type: the data's float
  type for a Python number q (NEP 50 weak), else NumPy's promotion of the
  data's type with q's; a NaN anywhere in a lane gives that NaN;
* an integer q (``np.quantile(a, 1)``, ``[0, 1]``) reads the values: the
  data's type;
* the values come from NumPy's own partition algorithm
  (``quantile_algorithms.introselect``), so which of ``-0.0``/``0.0`` is read
  is NumPy's choice too;
* an empty lane raises IndexError as NumPy does.

``np.nanpercentile``/``np.nanquantile`` drop the NaNs as NumPy's
``_remove_nan_1d`` does, then take the same steps: of one lane (``axis=None``
or 1-D data), or along an axis lane by lane, each lane's NaNs on its own (NumPy's
``apply_along_axis``); an empty array or an all-NaN lane re-runs in the
interpreter (NumPy warns).

Other methods, ``weights=``, ``out=``, ``overwrite_input=True``, a tuple
``axis``, 2-D q's, complex data (NumPy: TypeError) and boolean data with a
float q (TypeError) fall back to the interpreter.
"""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from . import order_stats
from . import quantile_algorithms as hq
from ..arrays.creation import allocate
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, bound_const, register

I = T.INT64
F = T.FLOAT64
_PARAMS = ("a", "q", "axis", "out", "overwrite_input", "method", "keepdims",
           "weights")
_UNSET = object()


class Plan:
    """What a call computes, decided from the types alone."""

    def __init__(self, name, a, q, weak, axis, keepdims):
        self.name = name
        self.percentile = name == "percentile"
        A = self.A = a.dtype
        if not isinstance(A, T.Scalar) or A.is_complex:
            raise Incompatible(f"np.{name}() of {a} (NumPy: TypeError for complex)")
        if isinstance(q, T.TupleType):
            if not all(isinstance(t, T.Scalar) and t in (T.BOOL, I, F) for t in q.items):
                raise Incompatible(f"np.{name}() with q {q} (numbers only)")
            kinds = {t.kind for t in q.items}
            qd = F if "f" in kinds or not kinds else (I if "i" in kinds else T.BOOL)
            self.q_dims = 1
            weak = False
        elif isinstance(q, T.ArrayType):
            if q.ndim > 1:
                raise Incompatible(f"np.{name}() with a {q.ndim}-D q")
            qd, self.q_dims = q.dtype, q.ndim
            weak = False
        elif isinstance(q, T.Scalar):
            qd, self.q_dims = q, 0
            weak = weak and q in (I, F)
        else:
            raise Incompatible(f"np.{name}() with q of type {q}")
        if qd.is_complex:
            raise Incompatible(f"np.{name}() with complex q")
        # q as NumPy holds it: percentile's np.true_divide(q, 100)
        if self.percentile:
            self.Q = T.FLOAT32 if qd == T.FLOAT32 else F
        elif qd.is_float:
            self.Q = qd
        elif qd in (T.BOOL, I, T.UINT64):
            self.Q = I           # (n - 1) * q: int64 for bools; values 0 and 1
        else:
            raise Incompatible(f"np.quantile() with {qd} q (NumPy: OverflowError "
                               "for n - 1 out of its range)")
        self.take = self.Q.is_int
        if self.take:
            self.R = A
        elif A.is_bool:
            raise Incompatible(f"np.{name}() of a boolean array (NumPy: TypeError)")
        elif weak:
            self.R = A if A.is_float else F
        else:
            self.R = promote(A, self.Q)
        nd = a.ndim
        if axis is not None:
            if type(axis) is not int or not -nd <= axis < nd:
                raise Incompatible(f"np.{name}() axis={axis!r} for a {nd}-D array")
            axis %= nd
        self.axis, self.keepdims, self.nd = axis, keepdims, nd
        inner_scalar = self.q_dims == 0 and (axis is None or nd == 1)
        if inner_scalar and A.is_float and self.R != A:
            # NumPy returns the data's NaN itself here: the type would depend on it
            raise Incompatible(f"np.{name}() of a {A} array with a {qd} NumPy scalar q "
                               "(NumPy's type depends on a NaN)")
        if axis is None:
            rest = nd if keepdims else 0
        else:
            rest = nd if keepdims else nd - 1
        self.ndim = self.q_dims + rest

    def result_type(self):
        return self.R if self.ndim == 0 else T.ArrayType(self.R, self.ndim, "C")


class Quantile(CallTemplate):
    """``np.quantile`` / ``np.percentile`` (see the module docstring)."""

    accepts_lazy = True
    copies_elements = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)
        # np.nanpercentile/np.nanquantile: NaNs dropped first, as NumPy's
        # _remove_nan_1d drops them, then the same steps
        self.nan = name.startswith("nan")
        self.base = name[3:] if self.nan else name

    def plan(self, inf, call, args, kwargs):
        if len(args) < 2 and "q" not in kwargs:
            raise Incompatible(f"np.{self.name}(a, q, ...)")
        nodes = bind_arguments(f"np.{self.name}", _PARAMS, call.args, call.kwargs)
        types = bind_arguments(f"np.{self.name}", _PARAMS, args, kwargs)
        call_name = f"np.{self.name}"
        for k, ok in (("out", (None,)), ("overwrite_input", (False,)),
                      ("method", ("linear",)), ("weights", (None,))):
            if k in nodes and bound_const(call, nodes, k, _UNSET) not in ok:
                raise Incompatible(f"{call_name}() with {k}= (only method='linear', "
                                   "no out/overwrite_input/weights)")
        keep = bound_const(call, nodes, "keepdims", False)
        if type(keep) is not bool:
            raise Incompatible(f"{call_name}() keepdims must be a constant bool")
        axis = bound_const(call, nodes, "axis", None)
        a = types["a"]
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"{call_name}() of {a} (an array only)")
        weak = inf.weak(nodes["q"]) if inf is not None else False
        p = Plan(self.base, a, types["q"], weak, axis, keep)
        return p, nodes

    def typer(self, inf, call, args, kwargs):
        p, _ = self.plan(inf, call, args, kwargs)
        call.plan = p
        return p.result_type()

    def lower(self, L, call, args, kwargs):
        p = call.plan
        b = bind_arguments(f"np.{self.name}", _PARAMS, args, kwargs)
        qarr, m = self.q_values(L, p, b["q"])
        msg = ("Percentiles must be in the range [0, 100]" if p.percentile
               else "Quantiles must be in the range [0, 1]")
        ok = L.call_helper(hq.valid_quantiles, [qarr])
        L.raise_if(ops.logical_not(ok), ValueError, msg)
        flat, n, other = self.lanes(L, p, b["a"])
        inexact = p.A.is_float
        if self.nan and inexact and p.axis is not None and p.nd > 1:
            return self.nan_lanes(L, p, flat, n, other, qarr, m)
        if self.nan:
            flat, n = self.without_nans(L, p, flat, n)
        empty = N.Cmp("eq", n, C(0, I), T.BOOL)
        if not inexact:
            empty = ops.band(empty, N.Cmp("gt", m, C(0, I), T.BOOL))
        L.raise_if(empty, IndexError, "index -1 is out of bounds for axis 0 with size 0")
        value = self.partitioned(L, p, flat, n, qarr, m)
        return self.result(L, p, flat, n, other, m, value)

    def partitioned(self, L, p, flat, n, qarr, m):
        """Partition the lanes of ``n`` values of ``flat`` at the ranks q
        reads (``order_stats.partition_lanes``); return ``value(j, base)``,
        q[j]'s result of the lane from ``base``."""
        inexact = C(p.A.is_float, T.BOOL)
        if p.take:
            idx = L.let(allocate(L, T.ArrayType(I, 1, "C"), [m]))
            kth = L.call_helper(hq.take_plan, [qarr, n, idx, inexact])
            value = self.taker(L, p, flat, n, idx)
            read = [idx, idx]
        else:
            value = self.lerper(L, p, flat, n, qarr, m)
            kth = value.kth
            read = value.read
        L.call_helper(order_stats.partition_lanes, [flat, n, kth, inexact] + read)
        return value

    def without_nans(self, L, p, flat, n):
        """``flat``'s one lane with its NaNs dropped (``median_algorithms.
        drop_nans``, NumPy's order), and its length.  An empty or all-NaN array
        is left to the interpreter: NumPy then warns, and answers in the data's
        dtype (or ``np.nanmean``'s)."""
        from ..python.helpers import Deopt
        from . import median_algorithms as hm
        L.raise_if(N.Cmp("eq", n, C(0, I), T.BOOL), Deopt,
                   f"np.{self.name}() of an empty array")
        if not p.A.is_float:
            return flat, n
        left = L.let(L.call_helper(hm.drop_nans, [flat, n]))
        L.raise_if(N.Cmp("eq", left, C(0, I), T.BOOL), Deopt,
                   f"np.{self.name}() of an all-NaN array")
        item = C(p.A.bits // 8, I)
        return L.let(N.ArrayView(flat, C(0, I), [left], [item], flat.type)), left

    def nan_lanes(self, L, p, flat, n, other, qarr, m):
        """``np.nanpercentile`` along an axis of float data: NumPy applies its
        1-D function lane by lane (``np.apply_along_axis``), so each lane of
        ``flat`` (``n`` values, one per combination of the ``other`` axes) has
        its own NaNs dropped (``median_algorithms.drop_nans``), its own plan
        of ranks and its own partition.  An all-NaN lane or an empty array
        re-runs in the interpreter: NumPy warns (and answers in the data's
        dtype, or ``np.nanmean``'s shape)."""
        from ..python.helpers import Deopt
        from ..arrays.reductions import loops
        from ..arrays.shape import reshape_view
        from . import median_algorithms as hm
        R = p.R
        count = C(1, I)
        for d in other:
            count = N.BinOp("mul", count, d, I)
        count = L.let(count)
        L.raise_if(ops.bor(N.Cmp("eq", n, C(0, I), T.BOOL),
                           N.Cmp("eq", count, C(0, I), T.BOOL)),
                   Deopt, f"np.{self.name}() of an empty array")
        out = L.let(allocate(L, T.ArrayType(R, 1, "C"), [N.BinOp("mul", m, count, I)]))
        item = C(p.A.bits // 8, I)

        def lane(idx):
            i = idx[0]
            at = N.BinOp("mul", N.BinOp("mul", i, n, I), item, I)
            whole = L.let(N.ArrayView(flat, at, [n], [item], flat.type))
            left = L.let(L.call_helper(hm.drop_nans, [whole, n]))
            L.raise_if(N.Cmp("eq", left, C(0, I), T.BOOL), Deopt,
                       f"np.{self.name}() of an all-NaN slice")
            v = L.let(N.ArrayView(whole, C(0, I), [left], [item], flat.type))
            value = self.partitioned(L, p, v, left, qarr, m)
            loops(L, [m], lambda j: L.emit(N.Store(
                array=out, indices=[N.BinOp("add", N.BinOp("mul", j[0], count, I), i, I)],
                value=ops.convert(L, value(j[0], C(0, I)), R))), short=True)
        loops(L, [count], lane, short=True)
        # q's axis first, then the other axes in order (1 for the reduced one
        # with keepdims): C order, as ``out`` is filled
        dims = ([m] if p.q_dims else []) + list(other)
        if p.keepdims:
            dims.insert(p.q_dims + p.axis, C(1, I))
        if p.ndim == 0:
            return N.Load(out, [C(0, I)], R)
        return reshape_view(L, out, dims, T.ArrayType(R, p.ndim, "C"))

    @staticmethod
    def q_values(L, p, q):
        """q as a 1-D array of ``p.Q`` (divided by 100 for percentile), and its
        length."""
        Q = p.Q

        def conv(x):
            v = ops.convert(L, x, Q)
            return N.BinOp("fdiv", v, C(100.0, Q), Q) if p.percentile else v
        if isinstance(q.type, T.TupleType):
            items = q.type.items
            out = allocate(L, T.ArrayType(Q, 1, "C"), [C(len(items), I)])
            tup = L.let(q)
            for i, t in enumerate(items):
                L.emit(N.Store(array=out, indices=[C(i, I)],
                               value=conv(N.TupleGet(tup, i, t))))
            return out, C(len(items), I)
        if isinstance(q.type, T.ArrayType) or isinstance(q, ew.Lazy):
            z = ew.to_lazy(L, q)
            if len(z.dims) == 0:
                dims = [C(1, I)]
                elem = (lambda idx: conv(z.elem([])))
            else:
                dims = z.dims
                elem = (lambda idx: conv(z.elem(idx)))
            out = ew.materialize(L, ew.Lazy(T.ArrayType(Q, 1, "C"), dims, elem))
            return L.let(out), dims[0]
        out = allocate(L, T.ArrayType(Q, 1, "C"), [C(1, I)])
        L.emit(N.Store(array=out, indices=[C(0, I)], value=conv(q)))
        return out, C(1, I)

    @staticmethod
    def lanes(L, p, a):
        """A C-contiguous copy of ``a`` with the reduced axis last, flat; the lane
        length; the other axes' lengths (in order)."""
        from ..arrays.shape import reshape_view
        from ..sorting.sort import fresh_copy
        if p.axis is None:
            out, flat = fresh_copy(L, a)
            size = C(1, I)
            for k in range(p.nd):
                size = N.BinOp("mul", size, N.ArrayAttr(out, "shape", k, I), I)
            return flat, L.let(size), []
        z = ew.to_lazy(L, a)
        perm = [k for k in range(p.nd) if k != p.axis] + [p.axis]
        t = T.ArrayType(p.A, p.nd, "C")

        def elem(idx):
            src = [None] * p.nd
            for k, i in zip(perm, idx):
                src[k] = i
            return z.elem(src)
        moved = L.let(ew.materialize(L, ew.Lazy(t, [z.dims[k] for k in perm], elem)))
        flat = L.let(reshape_view(L, moved, [C(-1, I)], t.copy(ndim=1)))
        return flat, z.dims[p.axis], [z.dims[k] for k in perm[:-1]]

    @staticmethod
    def taker(L, p, flat, n, idx):
        def value(j, base):
            pos = N.BinOp("add", base, N.Load(idx, [j], I), I)
            return N.Load(flat, [pos], p.A)
        return value

    @staticmethod
    def lerper(L, p, flat, n, qarr, m):
        A, R, Q = p.A, p.R, p.Q
        vec = (lambda t: allocate(L, T.ArrayType(t, 1, "C"), [m]))
        prev, nxt, gam, tr, omtr, cond = (L.let(vec(t)) for t in (I, I, Q, R, R, T.BOOL))
        top = L.let(ops.convert(L, N.BinOp("sub", n, C(1, I), I), Q))
        kth = L.call_helper(hq.linear_plan, [qarr, top, n, prev, nxt, gam, tr, omtr, cond])

        def value(j, base):
            a = L.let(N.Load(flat, [N.BinOp("add", base, N.Load(prev, [j], I), I)], A))
            b = L.let(N.Load(flat, [N.BinOp("add", base, N.Load(nxt, [j], I), I)], A))
            d = L.let(ops.convert(L, N.BinOp("sub", b, a, A), R))
            lo = N.BinOp("add", ops.convert(L, a, R),
                         N.BinOp("mul", d, N.Load(tr, [j], R), R), R)
            hi = N.BinOp("sub", ops.convert(L, b, R),
                         N.BinOp("mul", d, N.Load(omtr, [j], R), R), R)
            return N.Select(N.Load(cond, [j], T.BOOL), hi, lo, R)
        value.kth = kth
        value.read = [prev, nxt]        # (the positions whose values are read)
        return value

    @staticmethod
    def result(L, p, flat, n, other, m, value):
        """The result: q's index first, then the other axes (1 for the reduced
        ones with keepdims); each element the lane's value, or its NaN."""
        R = p.R

        def elem(idx):
            j = idx[0] if p.q_dims else C(0, I)
            rest = list(idx[p.q_dims:])
            if p.keepdims:
                rest = [] if p.axis is None else rest[:p.axis] + rest[p.axis + 1:]
            lane = C(0, I)
            for i, d in zip(rest, other):
                lane = N.BinOp("add", N.BinOp("mul", lane, d, I), i, I)
            base = L.let(N.BinOp("mul", lane, n, I))
            v = ops.convert(L, value(j, base), R)
            if not p.A.is_float:
                return v
            last = L.let(N.Load(flat, [N.BinOp("add", base, N.BinOp(
                "sub", n, C(1, I), I), I)], p.A))
            nan = N.Cmp("ne", last, last, T.BOOL)
            return N.Select(nan, ops.convert(L, last, R), v, R)
        if p.ndim == 0:
            return elem([])
        dims = [m] if p.q_dims else []
        if p.axis is None:
            dims += [C(1, I)] * (p.nd if p.keepdims else 0)
        else:
            d = list(other)
            if p.keepdims:
                d.insert(p.axis, C(1, I))
            dims += d
        return ew.materialize(L, ew.Lazy(T.ArrayType(R, p.ndim, "C"), dims, elem))


register(Quantile("quantile"))
register(Quantile("percentile"))
register(Quantile("nanquantile"))
register(Quantile("nanpercentile"))
