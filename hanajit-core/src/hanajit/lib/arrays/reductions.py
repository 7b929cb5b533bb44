"""Whole-array reductions: sum, prod, min, max, mean, any, all, argmin, argmax
(``np.sum(x)``, ``x.sum()``; ``axis=None`` for now).

A reduction consumes a lazy element tree directly, so ``np.sum(a * b)`` is one
loop with no temporary.  Float sums and means follow NumPy's pairwise order where
it is known (``pairwise_lane``, ``fused_pairwise``, ``sum_order``); the rest
accumulate sequentially in C order and can differ from NumPy's in the last bits
(integer results are exact).  Empty min/max/argmin/argmax raise ValueError as NumPy does.
Float min/max keep the later of equal values (``0.0``/``-0.0``); a zero extreme of a
whole array is NumPy's own pick (``zero_pick``, ``minmax_algorithms``); the vector
min/max/argmin/argmax lowerings are in ``extreme_reductions``.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from . import reduce_dtype
from . import masked_sums, reduce_initial
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register
from .complex_sums import ComplexSums, numpys_order_kept
from .extreme_reductions import ExtremeReductions
from .zero_pick import numpy_zero

I = T.INT64


def sum_dtype(t: T.Scalar) -> T.Scalar:
    if t.is_bool or (t.is_signed and t.bits < 64):
        return I
    if t.is_int and not t.is_signed and t.bits < 64:
        return T.UINT64
    return t


def loops(L, dims, body_fn, short=False):
    """Emit nested loops over ``dims``; ``body_fn(idx)`` emits the innermost body.
    ``short``: the loops are neither vectorised nor unrolled (``ForCount.short``)."""
    counters = [L.temp(I, "i") for _ in dims]
    idx = [N.Var(c, I) for c in counters]
    stmts, _ = L.sub_block(lambda: body_fn(idx))
    body = stmts
    for c, d in reversed(list(zip(counters, dims))):
        body = [N.ForCount(counter=c, count=d, body=body, short=short)]
    for s in body:
        L.emit(s)


def total_size(dims):
    size = C(1, I)
    for d in dims:
        size = N.BinOp("mul", size, d, I)
    return size


def axis_arg(call):
    """The constant axis of a reduction call (None for all axes); also keepdims."""
    node = call.kwargs.get("axis", call.args[1] if len(call.args) > 1 else None)
    kd = call.kwargs.get("keepdims")
    keep = bool(kd.value) if isinstance(kd, N.Const) else False
    if kd is not None and not isinstance(kd, N.Const):
        raise Incompatible("keepdims must be a constant")
    if node is None or (isinstance(node, N.Const) and node.value is None):
        return None, keep
    value = getattr(node, "value", None) if isinstance(node, N.Const) else None
    if isinstance(value, tuple) and value and all(type(a) is int for a in value):
        return (value[0] if len(value) == 1 else value), keep
    if type(value) is not int:
        raise Incompatible("axis must be a constant integer or a tuple of them")
    return value, keep


class Reduction(ComplexSums, ExtremeReductions, CallTemplate):
    accepts_lazy = True

    def __init__(self, name, numpy_names):
        self.name = name
        self.paths = tuple(f"numpy.{n}" for n in numpy_names)

    def scalar_type(self, t):
        if self.name in ("sum", "prod"):
            return sum_dtype(t)
        if self.name == "mean":
            return t if (t.is_complex or t.is_float) else T.FLOAT64
        if self.name in ("any", "all"):
            return T.BOOL
        if self.name in ("argmin", "argmax"):
            return I
        return t

    def typer(self, inf, call, args, kwargs):
        if not args or not isinstance(args[0], T.ArrayType):
            if args and isinstance(args[0], T.Scalar):
                raise Incompatible(f"np.{self.name}() of a scalar")
            raise Incompatible(f"np.{self.name}() needs an array")
        if reduce_initial.wanted(self.name, kwargs):   # (initial=, where=)
            return reduce_initial.typer(self, call, args, kwargs)
        if masked_sums.wanted(self.name, kwargs):      # (where=)
            return masked_sums.typer(call, args, kwargs, self.scalar_type)
        typed = self.name in reduce_dtype.NAMES        # (dtype=: reduce_dtype)
        extra = set(kwargs) - {"axis", "keepdims"} - ({"dtype"} if typed else set())
        if extra or len(args) > 2 + typed:
            raise Incompatible(f"np.{self.name}() arguments {sorted(extra)}")
        at = args[0]
        dt = reduce_dtype.given_dtype(self.name, args, kwargs) if typed else None
        st = self.scalar_type(at.dtype) if dt is None else dt
        axis, keep = axis_arg(call)
        if typed:       # (an F-ordered array as a whole: not of an expression)
            call.plan = dt if dt is None else reduce_dtype.check(
                self.name, at, dt, axis, isinstance(call.args[0], N.Var))
        if axis is None:
            if keep:
                return T.ArrayType(st, at.ndim, "C")
            return st
        if isinstance(axis, tuple):
            from .axis_reduce import tuple_axes
            tuple_axes(self, axis, at)
            ndim = at.ndim if keep else at.ndim - len(axis)
            return T.ArrayType(st, ndim, "C") if ndim > 0 else st
        if not -at.ndim <= axis < at.ndim:
            raise Incompatible(f"axis {axis} is out of bounds for array of dimension {at.ndim}")
        ndim = at.ndim if keep else at.ndim - 1
        return T.ArrayType(st, ndim, "C") if ndim > 0 else st

    def pairwise_lane(self, L, arg, st, axis):
        """Whether ``np.sum``/``np.mean`` of ``arg`` over ``axis`` (None: all) is
        NumPy's pairwise summation of lanes its inner loop gets whole: a float
        array (not an expression: NumPy's temporary is one too) of the sum's own
        dtype, reduced over a 1-D array, over a C-contiguous one as a whole, or
        along its last axis of a C-contiguous one.  Other reductions add in
        order (documented)."""
        if self.name not in ("sum", "mean", "var", "std") or isinstance(arg, ew.Lazy):
            return False
        t = arg.type
        if not (isinstance(t, T.ArrayType) and t.dtype == st and st.is_float):
            return False
        return t.ndim == 1 or t.layout == "C" and (axis is None or axis % t.ndim == t.ndim - 1)

    def pairwise_expression(self, L, arg, st, axis):
        """Whether ``np.sum``/``np.mean`` of ``arg`` is of a 1-D float expression of
        the sum's own dtype: NumPy sums its temporary, a contiguous lane, pairwise
        (``fused_pairwise``, which allocates two small arrays: only on targets
        with the ``allocation`` capability).
        N-D expressions go to ``sum_order`` (NumPy's temporary takes its inputs'
        memory order, which decides its lanes); every sum under
        ``reduce_reassoc=True`` or ``fastmath`` adds in order, which vectorises."""
        return (numpys_order_kept(L) and self.name in ("sum", "mean") and isinstance(arg, ew.Lazy)
                and len(arg.dims) == 1 and arg.type.dtype == st and st.is_float
                and axis in (None, 0, -1))

    def pairwise_tree(self, L, n, st):
        """The leaves of NumPy's pairwise tree over ``n`` values and room for
        their sums, for :meth:`fused_pairwise` (made once for lanes of one
        length)."""
        from ..statistics import pairwise_sum as hs
        n = L.let(n)
        starts = L.let(L.call_helper(hs.leaf_starts, [n]))
        sums = L.let(L.call_helper(hs.leaf_buffer, [starts, C(0.0, st)]))
        leaves = L.let(N.BinOp("sub", N.ArrayAttr(starts, "shape", 0, I), C(1, I), I))
        return n, starts, sums, leaves

    def fused_pairwise(self, L, z, st, tree=None):
        """NumPy's pairwise sum (or mean) of the 1-D expression ``z`` without its
        temporary: each leaf of NumPy's tree (at most 128 values,
        ``pairwise_sum.leaf_starts``) is summed as NumPy sums it, its values
        computed on the fly, and the leaf sums are added in the tree's order
        (``pairwise_sum.combine``): bit for bit NumPy's ``np.sum(a * b)``.
        ``tree``: :meth:`pairwise_tree` of ``z``'s length, made beforehand;
        without one, a sum of at most 128 values (one leaf) allocates nothing:
        the tree is made only when there are more."""
        from ..statistics import pairwise_sum as hs
        from .creation import broadcast_versions
        zero = C(0.0, st)
        total = L.temp(st, "tree")
        if tree is not None:
            self._tree_sum(L, z, st, tree, total)
            return self.mean_of(L, N.Var(total, st), tree[0], st)
        n = L.let(z.dims[0])

        def fused():
            if ew.assume_full and ew.assume_full[-1] is None:
                # the copy where an operand broadcasts (rare): the temporary,
                # summed by the shared pairwise piece -- the same additions, and
                # the leaves' unrolled code only once in the module (compile time)
                tmp = ew.materialize(L, z)
                L.emit(N.Assign(target=total, value=L.call_helper(hs.pairwise, [tmp, zero])))
                return
            # at most 128 values: one leaf, no tree; more: the tree.  Two branches
            # chosen once -- a test of the count inside the loop over the leaves
            # would be unswitched by LLVM into the same two copies, at more cost
            single, _ = L.sub_block(lambda: L.emit(N.Assign(target=total, value=N.BinOp(
                "add", zero, N.Var(self._leaf_sum(L, z, st, C(0, I), n, None), st), st))))
            whole, _ = L.sub_block(lambda: self._tree_sum(
                L, z, st, self.pairwise_tree(L, n, st), total, versions=False))
            L.emit(N.If(cond=N.Cmp("le", n, C(hs.LEAF, I), T.BOOL), then=single,
                        orelse=whole))
        broadcast_versions(L, fused)
        return self.mean_of(L, N.Var(total, st), n, st)

    def _tree_sum(self, L, z, st, tree, total, versions=True):
        """``total`` = the sum of ``z`` over the pairwise tree ``tree``
        (:meth:`pairwise_tree`): each leaf's sum stored, then combined
        (``versions``: the leaves' loop in a copy per broadcasting case, where
        the caller has not made them)."""
        from ..statistics import pairwise_sum as hs
        from .creation import broadcast_versions
        zero = C(0.0, st)
        n, starts, sums, leaves = tree

        def leaf(k):
            lo = L.let(N.Load(starts, [k[0]], I))
            count = L.let(N.BinOp("sub", N.Load(starts, [_add(k[0], C(1, I))], I), lo, I))
            # (a leaf of a tree holds at least 64 values: no branch for fewer than 8)
            res = self._leaf_sum(L, z, st, lo, count, (sums, leaves), few=False)
            L.emit(N.Store(array=sums, indices=[k[0]], value=N.Var(res, st)))
        if versions:
            broadcast_versions(L, lambda: loops(L, [leaves], leaf))
        else:
            loops(L, [leaves], leaf)
        # one leaf in a tree (at most 128 values): its sum is the tree's, no call
        one = [N.Assign(target=total, value=N.BinOp(
            "add", zero, N.Load(sums, [C(0, I)], st), st))]
        many, v = L.sub_block(lambda: L.call_helper(hs.combine, [sums, n, zero]))
        L.emit(N.If(cond=N.Cmp("eq", leaves, C(1, I), T.BOOL), then=one,
                    orelse=many + [N.Assign(target=total, value=v)]))

    def _leaf_sum(self, L, z, st, lo, count, scratch, few=True):
        """A variable holding the sum of ``z[lo:lo + count]`` (at most 128 values)
        in the order of NumPy's leaf (``pairwise_sum._leaf``).  ``scratch``:
        ``(buffer, k)``, the accumulators are stored at ``buffer[k:k + 8]``
        after the leaf (values nothing reads: they make the accumulators one
        vector); None stores nothing.  ``few``: ``count`` may be under 8 (not
        in a leaf of a tree)."""
        zero = C(0.0, st)
        res = L.temp(st, "leaf")

        def in_order(first, length):        # the values after the blocks
            loops(L, [length], lambda i: L.emit(N.Assign(
                target=res, value=N.BinOp("add", N.Var(res, st),
                                          z.elem([_add(first, i[0])]), st))), short=True)

        def blocks():                   # eight accumulators, each every eighth
            # each starts at -0.0 and takes its first value in the loop:
            # ``-0.0 + x`` is ``x`` for every ``x`` (``-0.0`` too), so the sums
            # are NumPy's, and the expression is written once in the loop, not
            # once more for the first block (half the IR of a leaf: compile time)
            acc = [L.temp(st, f"r{j}") for j in range(8)]
            for r in acc:
                L.emit(N.Assign(target=r, value=C(-0.0, st)))
            m = L.let(N.BinOp("sdiv", count, C(8, I), I))

            def block(b):
                base = L.let(_add(lo, N.BinOp("mul", b[0], C(8, I), I)))
                for j, r in enumerate(acc):
                    L.emit(N.Assign(target=r, value=N.BinOp(
                        "add", N.Var(r, st), z.elem([_add(base, C(j, I))]), st)))
            # not vectorised across blocks: the accumulators themselves are one
            # vector (SLP), where the loop vectoriser would interleave eight
            # blocks into eight in-order reductions, masked for the last ones
            loops(L, [m], block, short=True)
            v = [N.Var(r, st) for r in acc]

            def plus(a, b):
                return N.BinOp("add", a, b, st)
            tree = plus(plus(plus(v[0], v[1]), plus(v[2], v[3])),
                        plus(plus(v[4], v[5]), plus(v[6], v[7])))
            if few:
                # fewer than 8 values: no block ran, and NumPy adds them all in
                # order from 0 -- the loop below, from ``lo`` (one copy of the
                # expression fewer than a branch of its own)
                tree = N.Select(N.Cmp("lt", count, C(8, I), T.BOOL), zero, tree, st)
            L.emit(N.Assign(target=res, value=tree))
            done = L.let(N.BinOp("mul", m, C(8, I), I))
            in_order(_add(lo, done), N.BinOp("sub", count, done, I))
            if scratch is not None:
                buffer, k = scratch
                for j, r in enumerate(acc):
                    L.emit(N.Store(array=buffer, indices=[_add(k, C(j, I))],
                                   value=N.Var(r, st)))
        blocks()
        return res

    def pairwise(self, L, lane, st, scratch=True):
        """The pairwise sum of the 1-D ``lane`` (``pairwise_sum``), or its mean.
        ``scratch``: with the eight elements of scratch memory that make a long
        contiguous lane's leaves one vector (``pairwise``); without
        (``pairwise_unbuffered``) for the lanes of an axis sum, which would
        allocate one each (rows of 300 values: 2.4x as long), and for strided
        lanes, whose loads are separate anyway (``y[::2]``: 10% faster)."""
        from ..statistics import pairwise_sum as hs
        ctx = L.ctx
        helper = (hs.pairwise if (ctx is None or ctx.capabilities.allocation)
                  and scratch else hs.pairwise_unbuffered)
        total = L.call_helper(helper, [lane, C(0.0, st)])
        return self.mean_of(L, total, N.ArrayAttr(lane, "shape", 0, I), st)

    def mean_of(self, L, total, n, st):
        """``total`` for a sum; for a mean ``total / n`` as NumPy divides: by an
        ``intp`` count, so a float32 sum is divided in float64 and rounded back."""
        if self.name == "sum":
            return total
        q = N.BinOp("fdiv", ops.convert(L, total, T.FLOAT64), N.Cast(n, T.FLOAT64),
                    T.FLOAT64)
        return q if st == T.FLOAT64 else N.Cast(q, st)

    def exact_order(self, L, arg, st):
        """Does the sum or mean of the N-D ``arg`` follow NumPy's order
        (``sum_order``)?  Float sums of the sum's own dtype, on targets with the
        ``allocation`` capability, without ``reduce_reassoc`` or ``fastmath``
        (which keep the order that vectorises)."""
        if not numpys_order_kept(L):
            return False
        t = arg.type
        return (self.name in ("sum", "mean") and isinstance(t, T.ArrayType)
                and t.ndim >= 2 and t.dtype == st and st.is_float)

    def lower(self, L, call, args, kwargs):
        if reduce_initial.wanted(self.name, kwargs):
            return reduce_initial.lower(self, L, call, args, kwargs)
        if masked_sums.wanted(self.name, kwargs):
            return masked_sums.lower(L, call, args, kwargs)
        axis, keep = axis_arg(call)
        rt = call.type
        st = rt.dtype if isinstance(rt, T.ArrayType) else rt
        v = reduce_dtype.lower(self, L, call, args, rt, axis, keep)
        if v is not None:
            return v
        if isinstance(axis, tuple):
            from .axis_reduce import over_axes
            return over_axes(self, L, args[0], rt, st, axis, keep)
        return self.lower_axis(L, args, rt, st, axis, keep)

    def lower_axis(self, L, args, rt, st, axis, keep):
        """The reduction of ``args[0]`` over one ``axis`` or all (None), into
        ``rt`` with elements of ``st``."""
        args = [self.complex_temporary(L, args[0], st)] + list(args[1:])
        if self.pairwise_lane(L, args[0], st, axis):
            return self.lower_pairwise(L, L.let(args[0]), rt, st, axis, keep)
        if self.complex_lane(L, args[0], st, axis):
            v = self.complex_pairwise(L, L.let(args[0]), st)
            return kept_array(L, v, rt, 1) if keep else v
        if self.pairwise_expression(L, args[0], st, axis):
            v = self.fused_pairwise(L, args[0], st)
            return kept_array(L, v, rt, 1) if keep else v
        from . import sum_order
        exact = self.exact_order(L, args[0], st)
        lazy = isinstance(args[0], ew.Lazy)
        if exact and axis is None:
            if lazy:
                v = sum_order.expression_sum(self, L, args[0], st)
            else:
                v = sum_order.array_sum(self, L, L.let(args[0]), st)
            if v is not None:
                return kept_array(L, v, rt, args[0].type.ndim) if keep else v
        if axis is None and self.complex_order(L, args[0], st):
            v = sum_order.complex_whole(self, L, L.let(args[0]), st)
            return kept_array(L, v, rt, args[0].type.ndim) if keep else v
        if axis is None and self.vector_extreme(L, args[0], st):
            return self.lower_extreme(L, L.let(args[0]), rt, st, keep)
        if axis is None and self.vector_arg(L, args[0]):
            v = self.lower_arg_extreme(L, L.let(args[0]))
            return kept_array(L, v, rt, args[0].type.ndim) if keep else v
        if axis is None and self.lanes_extreme(L, args[0], st):
            v = self.fused_extreme(L, args[0], st)
            return kept_array(L, v, rt, 1) if keep else v
        z = ew.to_lazy(L, args[0])
        nd = len(z.dims)
        if axis is None and self.vector_extreme(L, args[0], st, strided=True) and nd == 2:
            from .extreme_layouts import extreme_2d
            v = extreme_2d(self, L, L.let(args[0]), z, st)
            return kept_array(L, v, rt, nd) if keep else v
        from .axis_reduce import complex_product
        if complex_product(self, L, args[0], st) and (axis is not None
                                                       or args[0].type.layout == "A"):
            from .axis_reduce import float_over_axes
            axes = tuple(range(nd)) if axis is None else (axis % nd,)
            return float_over_axes(self, L, args[0], rt, st, axes, keep)
        if (axis is None and self.name == "prod" and nd >= 2 and not lazy
                and args[0].type.layout == "A" and args[0].type.dtype == st
                and st.is_float and st.bits in (32, 64) and numpys_order_kept(L)):
            # (a view of any strides: NumPy's iterator order, as over a tuple of axes)
            from .axis_reduce import float_over_axes
            return float_over_axes(self, L, args[0], rt, st, tuple(range(nd)), keep)
        if axis is None:
            v = self.reduce(L, z, st, {}, list(range(nd)))
            if self.name in ("min", "max") and st.is_float and not isinstance(
                    args[0], ew.Lazy):
                v = numpy_zero(self, L, args[0], v, st)
            return kept_array(L, v, rt, nd) if keep else v
        axis %= nd
        out_axes = [a for a in range(nd) if a != axis]
        from .creation import allocate, fill
        if keep:
            out_dims = [z.dims[a] if a != axis else C(1, I) for a in range(nd)]
        else:
            out_dims = [z.dims[a] for a in out_axes]
        if not isinstance(rt, T.ArrayType):
            return self.reduce(L, z, st, {}, [axis])
        if self.name in ("min", "max", "argmin", "argmax"):
            # NumPy raises for an empty reduced axis even when the result is empty
            # too (shape (0, 0) along either axis); the check in ``reduce`` only
            # runs per result element
            self.empty_check(L, z.dims[axis])
        if exact and lazy:
            arr = sum_order.expression_axis(self, L, z, st, rt, axis, keep, out_dims, out_axes)
            if arr is not None:
                return arr
        elif exact:
            return sum_order.array_axis(self, L, L.let(args[0]), st, rt, axis, keep,
                                        out_dims, out_axes)
        elif self.complex_order(L, args[0], st):
            return sum_order.array_axis(self, L, L.let(args[0]), st, rt, axis, keep,
                                        out_dims, out_axes)
        arr = allocate(L, rt, out_dims)

        def value(idx):
            if keep:
                fixed = {a: idx[a] for a in out_axes}
            else:
                fixed = dict(zip(out_axes, idx))
            return self.reduce(L, z, st, fixed, [axis])
        if axis == nd - 1 and self.vector_arg(L, args[0]):
            self.rows_arg_extreme(L, L.let(args[0]), arr, z.dims[axis])
            return arr
        from . import axis_reduce
        if (self.name in ("min", "max") and st.is_float and not lazy
                and args[0].type.dtype == st):
            axis_reduce.lane_extremes(self, L, L.let(args[0]), st, arr, axis, keep,
                                      out_dims, out_axes)
            return arr
        if axis_reduce.accumulates(self, args[0], axis):
            from .sum_order import by_rows

            def rows():
                by_rows(L, z.dims, axis, lambda: fill(L, arr, out_dims, value),
                        lambda: axis_reduce.accumulate(self, L, z, st, arr, axis, keep))
            if (nd == 2 and axis == 0 and not lazy and (
                    self.name in ("min", "max") and st.is_int and args[0].type.dtype == st
                    or self.name in ("argmin", "argmax")
                    and (args[0].type.dtype.is_int or args[0].type.dtype.is_float))):
                axis_reduce.by_columns(self, L, L.let(args[0]), arr, z, rows)
            else:
                rows()
            return arr

        fill(L, arr, out_dims, value)
        return arr

    def lower_pairwise(self, L, arr, rt, st, axis, keep):
        from .shape import reshape_view
        from .creation import allocate, fill
        t = arr.type
        nd = t.ndim
        if axis is None:
            lane = arr if nd == 1 else L.let(reshape_view(L, arr, [C(-1, I)],
                                                          t.copy(ndim=1)))
            v = self.pairwise(L, lane, st, scratch=lane.type.layout == "C")
            return kept_array(L, v, rt, nd) if keep else v
        dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(nd)]
        if nd == 1:
            v = self.pairwise(L, arr, st, scratch=t.layout == "C")
            return kept_array(L, v, rt, 1) if isinstance(rt, T.ArrayType) else v
        out_dims = dims[:-1] + ([C(1, I)] if keep else [])
        out = allocate(L, rt, out_dims)
        lane_t = t.copy(ndim=1)

        def value(idx):
            offset = C(0, I)
            for k in range(nd - 1):
                offset = N.BinOp("add", offset, N.BinOp(
                    "mul", idx[k], N.ArrayAttr(arr, "stride", k, I), I), I)
            lane = L.let(N.ArrayView(arr, L.let(offset), [dims[-1]],
                                     [N.ArrayAttr(arr, "stride", nd - 1, I)], lane_t))
            return self.pairwise(L, lane, st, scratch=False)
        fill(L, out, out_dims, value)
        return out

    def empty_check(self, L, size):
        """min/max/argmin/argmax over no elements: NumPy's ValueError."""
        name = self.name
        if name in ("min", "max"):
            msg = ("zero-size array to reduction operation "
                   f"{'minimum' if name == 'min' else 'maximum'} which has no identity")
        else:
            msg = f"attempt to get {name} of an empty sequence"
        L.raise_if(N.Cmp("eq", L.let(size), C(0, I), T.BOOL), ValueError, msg)

    def replaces(self, L, x, b):
        """Does the value ``x`` replace the best so far ``b`` in this min, max,
        argmin or argmax?  Of equal floats (0.0 and -0.0) a min/max takes the
        later, as NumPy's ``maximum``/``minimum`` loops (docs/semantics.md,
        "Signed zeros"), an arg* keeps the first; a NaN wins and the first stays."""
        name, et = self.name, x.type
        cmp = "lt" if name in ("min", "argmin") else "gt"
        if et.is_float and name in ("min", "max"):
            cmp = "le" if name == "min" else "ge"
        if et.is_complex:
            return _complex_better(L, cmp, x, b)
        better = N.Cmp(cmp, x, b, T.BOOL)
        if et.is_float:
            better = ops.band(ops.logical_not(N.Cmp("uno", b, b, T.BOOL)),
                              ops.bor(better, N.Cmp("uno", x, x, T.BOOL)))
        return better

    def reduce(self, L, z, rt, fixed: dict, axes: list):
        """Emit the reduction over ``axes`` (other axes fixed); return its value."""
        name = self.name
        red_dims = [z.dims[a] for a in axes]

        def full(loop_idx):
            it = iter(loop_idx)
            return [fixed[a] if a in fixed else next(it) for a in range(len(z.dims))]

        if name in ("sum", "prod", "mean"):
            at = rt
            acc = L.temp(at, "acc")
            L.emit(N.Assign(target=acc, value=ops.zero(at) if name != "prod" else (
                C(1, at) if at.is_int else C(1.0 if at.is_float else 1 + 0j, at))))
            op = "mul" if name == "prod" else "add"

            def body(idx):
                x = ops.convert(L, z.elem(full(idx)), at)
                cur = N.Var(acc, at)
                if at.is_complex:
                    v = ops.complex_arith(L, op, cur, x, at)
                else:
                    v = N.BinOp(op, cur, x, at)
                L.emit(N.Assign(target=acc, value=v))
            loops(L, red_dims, body)
            if name == "mean":
                n = L.let(total_size(red_dims))
                if at.is_complex:
                    c = at.component
                    cur = L.let(N.Var(acc, at))
                    nf = N.Cast(n, c)
                    return N.MakeComplex(N.BinOp("fdiv", N.ComplexPart(cur, "real", c), nf, c),
                                         N.BinOp("fdiv", N.ComplexPart(cur, "imag", c), nf, c),
                                         at)
                return N.BinOp("fdiv", N.Var(acc, at), N.Cast(n, at), at)
            return N.Var(acc, at)
        if name in ("any", "all"):
            acc = L.temp(T.BOOL, "acc")
            L.emit(N.Assign(target=acc, value=C(name == "all", T.BOOL)))

            def body(idx):
                x = ops.truth(L, z.elem(full(idx)))
                L.emit(N.Assign(target=acc, value=N.BinOp(
                    "or" if name == "any" else "and", N.Var(acc, T.BOOL), x, T.BOOL)))
            loops(L, red_dims, body)
            return N.Var(acc, T.BOOL)
        # min / max / argmin / argmax
        self.empty_check(L, total_size(red_dims))
        et = z.type.dtype
        first_stmts, first = L.sub_block(lambda: z.elem(full([C(0, I)] * len(axes))))
        L.out.extend(first_stmts)
        best = L.temp(et, "best")
        L.emit(N.Assign(target=best, value=first))
        pos = L.temp(I, "pos")
        L.emit(N.Assign(target=pos, value=C(0, I)))
        k = L.temp(I, "k")
        L.emit(N.Assign(target=k, value=C(0, I)))

        def body(idx):
            x = L.let(z.elem(full(idx)))
            b = N.Var(best, et)
            better = L.let(self.replaces(L, x, b))
            L.emit(N.Assign(target=best, value=N.Select(better, x, b, et)))
            L.emit(N.Assign(target=pos, value=N.Select(better, N.Var(k, I), N.Var(pos, I), I)))
            L.emit(N.Assign(target=k, value=N.BinOp("add", N.Var(k, I), C(1, I), I)))
        loops(L, red_dims, body)
        return N.Var(best, et) if name in ("min", "max") else N.Var(pos, I)


def kept_array(L, v, rt, nd):
    """The reduced value ``v`` as the ``keepdims`` array of ``nd`` length-1 axes."""
    from .creation import allocate, fill
    v = L.let(v)
    ones = [C(1, I)] * nd
    out = allocate(L, rt, ones)
    fill(L, out, ones, lambda idx: v)
    return out


def _complex_better(L, cmp, x, b):
    """Does ``x`` replace the best so far ``b`` in NumPy's complex min/max/argmin/
    argmax?  Its order is lexicographic and the first NaN (in either part) wins
    and stays: ``x`` is taken when ``b`` has no NaN and ``x`` has one or is
    strictly before/after ``b`` (``npy_argmax`` of complex types; ``maximum``'s
    ``CGE`` gives the same choice)."""
    c = x.type.component
    xr, xi = L.let(N.ComplexPart(x, "real", c)), L.let(N.ComplexPart(x, "imag", c))
    br, bi = L.let(N.ComplexPart(b, "real", c)), L.let(N.ComplexPart(b, "imag", c))
    strict = ops.bor(N.Cmp(cmp, xr, br, T.BOOL),
                     ops.band(N.Cmp("eq", xr, br, T.BOOL), N.Cmp(cmp, xi, bi, T.BOOL)))
    return ops.band(ops.logical_not(N.Cmp("uno", br, bi, T.BOOL)),
                    ops.bor(strict, N.Cmp("uno", xr, xi, T.BOOL)))


REDUCTIONS: dict = {}        # name -> the registered template (np.sum ...)
for _name, _paths in (("sum", ("sum",)), ("prod", ("prod",)), ("mean", ("mean",)),
                      ("min", ("min", "amin")), ("max", ("max", "amax")),
                      ("any", ("any",)), ("all", ("all",)), ("argmin", ("argmin",)),
                      ("argmax", ("argmax",))):
    REDUCTIONS[_name] = register(Reduction(_name, _paths))

METHODS = {"sum": "numpy.sum", "prod": "numpy.prod", "mean": "numpy.mean",
           "min": "numpy.min", "max": "numpy.max", "any": "numpy.any", "all": "numpy.all",
           "argmin": "numpy.argmin", "argmax": "numpy.argmax"}


def _add(a, b):
    return N.BinOp("add", a, b, I)
