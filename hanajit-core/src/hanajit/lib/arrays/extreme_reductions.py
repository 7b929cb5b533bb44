"""The min/max/argmin/argmax lowerings of :class:`~.reductions.Reduction` (a mixin,
as ``complex_sums.ComplexSums`` is): whole arrays in vector code
(``extreme_lanes``, ``arg_lanes``), 1-D expressions by lanes (:meth:`fused_extreme`),
rows of argmax/argmin, and NumPy's pick among equal zeros (``zero_pick``).
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from .zero_pick import numpy_zero, simd_model

I = T.INT64
I32 = T.INT32


def _add(a, b):
    return N.BinOp("add", a, b, I)


def block_count(dtype):
    """``pos, limit`` of ``arg_lanes``: positions held in int32 beside data of
    32 bits or fewer (a vector of positions as wide as the vector of values),
    else in int64; ``limit`` the most values one pass takes."""
    if dtype.bits <= 32:
        return [C(0, T.INT32), C(2**31 - 1, I)]
    return [C(0, I), C(2**62, I)]



class ExtremeReductions:
    """np.min/np.max/np.argmin/np.argmax beyond the in-order loop of
    ``Reduction.reduce`` (``self.name``, ``empty_check`` and ``reduce`` are
    ``Reduction``'s)."""

    def vector_extreme(self, L, arg, st, strided=False):
        """Whether ``np.min``/``np.max`` of the whole ``arg`` runs as vector code
        (``extreme_lanes``): a float array, 1-D or C-contiguous (any layout with
        ``strided``), on targets with the ``allocation`` capability (the
        helper's scratch)."""
        ctx = L.ctx
        t = arg.type
        return (self.name in ("min", "max") and st.is_float
                and not isinstance(arg, ew.Lazy) and isinstance(t, T.ArrayType)
                and t.dtype == st and (t.ndim == 1 or t.layout == "C" or strided)
                and (ctx is None or ctx.capabilities.allocation))

    def vector_arg(self, L, arg):
        """Whether ``np.argmin``/``np.argmax`` of the whole ``arg`` runs as vector
        code (``arg_lanes.arg_blocks``/``arg_int``): a C-contiguous float or integer
        array, on targets with the ``allocation`` capability (its scratch)."""
        ctx = L.ctx
        t = arg.type
        return (self.name in ("argmin", "argmax") and not isinstance(arg, ew.Lazy)
                and isinstance(t, T.ArrayType) and t.layout == "C"
                and (t.dtype.is_float or t.dtype.is_int)
                and (ctx is None or ctx.capabilities.allocation))

    def lower_arg_extreme(self, L, arr):
        from . import arg_lanes
        from .shape import reshape_view
        t = arr.type
        lane = arr if t.ndim == 1 else L.let(reshape_view(L, arr, [C(-1, I)],
                                                          t.copy(ndim=1)))
        self.empty_check(L, L.let(N.ArrayAttr(lane, "shape", 0, I)))
        if t.dtype.is_int:
            return L.call_helper(arg_lanes.arg_int, [lane, C(self.name == "argmax", T.BOOL)])
        return L.call_helper(arg_lanes.arg_blocks, [lane, C(self.name == "argmax", T.BOOL)])

    def rows_arg_extreme(self, L, a, out, m):
        """``np.argmax``/``np.argmin`` along the last axis of the C-contiguous
        ``a`` into ``out`` (its other axes, C order): the lanes of
        ``arg_lanes`` per row (``arg_rows``)."""
        from . import arg_lanes
        from .shape import reshape_view
        flat = L.let(reshape_view(L, a, [C(-1, I)], a.type.copy(ndim=1)))
        dest = L.let(reshape_view(L, out, [C(-1, I)], out.type.copy(ndim=1)))
        big = C(self.name == "argmax", T.BOOL)
        # (the calls are emitted as statements of their own; their result is unused)
        if a.type.dtype.is_int:
            L.call_helper(arg_lanes.arg_rows_int, [flat, L.let(m), dest, big]
                          + block_count(a.type.dtype))
        else:
            L.call_helper(arg_lanes.arg_rows, [flat, L.let(m), dest, big]
                          + block_count(a.type.dtype))

    def lanes_extreme(self, L, arg, st):
        """Whether ``np.min``/``np.max`` of ``arg`` is of a 1-D float expression of
        its own dtype, on a target with the ``allocation`` capability: then
        :meth:`fused_extreme`."""
        ctx = L.ctx
        return (self.name in ("min", "max") and st.is_float and isinstance(arg, ew.Lazy)
                and len(arg.dims) == 1 and arg.type.dtype == st
                and (ctx is None or ctx.capabilities.allocation))

    def fused_extreme(self, L, z, st):
        """The min or max of the 1-D expression ``z`` with its values computed on
        the fly, in vector code: 16 accumulators of vector max/min, each taking
        every 16th value, folded at the end, NaNs watched beside them
        (``extreme_lanes._lanes`` over the values instead of an array) -- the same
        value as the in-order loop of :meth:`reduce` unless it is zero, where the
        two may pick different zeros: a zero result, a NaN met and fewer than 32
        values take the in-order loop (which picks the later of equal values, as
        for any expression, and the first NaN)."""
        from .creation import allocate
        from .reductions import loops
        lanes = 16
        n = L.let(z.dims[0])
        self.empty_check(L, n)
        big = self.name == "max"
        out = L.temp(st, "extreme")
        L.emit(N.Assign(target=out, value=C(0.0, st)))

        def pick(m, x):             # extreme_lanes._pick: a NaN sticks
            x = L.let(x)
            better = N.Cmp("gt" if big else "lt", x, m, T.BOOL)
            return N.Select(ops.bor(better, N.Cmp("ne", x, x, T.BOOL)), x, m, st)

        nan = L.temp(T.BOOL, "nan")
        L.emit(N.Assign(target=nan, value=C(False, T.BOOL)))

        def keep(m, x):             # vector max/min: a NaN ``x`` is watched apart
            return N.Select(N.Cmp("gt" if big else "lt", m, x, T.BOOL), m, x, st)

        def by_lanes():
            acc = [L.temp(st, f"m{j}") for j in range(lanes)]
            # NaN flags as int32 masks (0 or -1): vector registers, where bools
            # were packed to bytes at every step (extreme_lanes._lanes)
            seen = [L.temp(I32, f"u{j}") for j in range(lanes)]

            def mask(x):
                return N.BinOp("sub", C(0, I32), N.Cast(N.Cmp("uno", x, x, T.BOOL), I32), I32)
            for j, (m, u) in enumerate(zip(acc, seen)):
                L.emit(N.Assign(target=m, value=z.elem([C(j, I)])))
                L.emit(N.Assign(target=u, value=mask(N.Var(m, st))))
            blocks = L.let(N.BinOp("sdiv", n, C(lanes, I), I))

            def block(b):
                base = L.let(N.BinOp("mul", _add(b[0], C(1, I)), C(lanes, I), I))
                for j, (m, u) in enumerate(zip(acc, seen)):
                    x = L.let(z.elem([_add(base, C(j, I))]))
                    L.emit(N.Assign(target=m, value=keep(N.Var(m, st), x)))
                    L.emit(N.Assign(target=u, value=N.BinOp("or", N.Var(u, I32), mask(x),
                                                            I32)))
            # a loop of blocks, not vectorised across them (the accumulators are
            # the vectors, as in pairwise leaves)
            loops(L, [N.BinOp("sub", blocks, C(1, I), I)], block, short=True)
            r = N.Var(acc[0], st)
            for m in acc[1:]:
                r = L.let(keep(r, N.Var(m, st)))
            L.emit(N.Assign(target=out, value=r))
            any_nan = N.Var(seen[0], I32)
            for u in seen[1:]:
                any_nan = N.BinOp("or", any_nan, N.Var(u, I32), I32)
            L.emit(N.Assign(target=nan, value=N.Cmp("ne", any_nan, C(0, I32), T.BOOL)))
            done = L.let(N.BinOp("mul", blocks, C(lanes, I), I))
            loops(L, [N.BinOp("sub", n, done, I)], lambda i: L.emit(N.Assign(
                target=out, value=pick(N.Var(out, st), z.elem([_add(done, i[0])])))),
                short=True)
            # the accumulators stored where nothing reads them: what makes LLVM's
            # SLP vectoriser take them as vectors (pairwise_sum._leaf)
            scratch = L.let(allocate(L, T.ArrayType(st, 1, "C"), [C(lanes, I)]))
            flags = L.let(allocate(L, T.ArrayType(T.BOOL, 1, "C"), [C(lanes, I)]))
            for j, (m, u) in enumerate(zip(acc, seen)):
                L.emit(N.Store(array=scratch, indices=[C(j, I)], value=N.Var(m, st)))
                L.emit(N.Store(array=flags, indices=[C(j, I)],
                               value=N.Cmp("ne", N.Var(u, I32), C(0, I32), T.BOOL)))
        fast, _ = L.sub_block(by_lanes)
        L.emit(N.If(cond=N.Cmp("ge", n, C(2 * lanes, I), T.BOOL), then=fast, orelse=[]))
        # fewer values, a zero (whose sign the order decides) or a NaN (which one
        # is the first): in order
        slow, v = L.sub_block(lambda: self.reduce(L, z, st, {}, [0]))
        L.emit(N.If(cond=ops.bor(ops.bor(N.Cmp("lt", n, C(2 * lanes, I), T.BOOL),
                                         N.Cmp("eq", N.Var(out, st), C(0.0, st), T.BOOL)),
                                 N.Var(nan, T.BOOL)),
                    then=slow + [N.Assign(target=out, value=v)], orelse=[]))
        return N.Var(out, st)

    def lower_extreme(self, L, arr, rt, st, keep):
        from . import extreme_lanes
        from .extreme_layouts import stepped
        from .reductions import kept_array
        from .shape import reshape_view
        t = arr.type
        lane = arr if t.ndim == 1 else L.let(reshape_view(L, arr, [C(-1, I)],
                                                          t.copy(ndim=1)))
        n = L.let(N.ArrayAttr(lane, "shape", 0, I))
        self.empty_check(L, n)
        big = C(self.name == "max", T.BOOL)
        lanes, low_from = simd_model(st.name)
        if lane.type.layout == "C" and lanes:
            # NumPy's zero found beside the lanes, in the blocks holding zeros
            v = L.let(L.call_helper(extreme_lanes.extreme_zero,
                                    [lane, big, C(lanes, I), C(low_from, I)]))
            return kept_array(L, v, rt, t.ndim) if keep else v
        if lane.type.layout == "C":
            v = L.let(L.call_helper(extreme_lanes.extreme, [lane, big]))
        else:       # a contiguous lane is taken as one, the others are buffered
            out = L.temp(st, "extreme")
            size = C(st.bits // 8, I)
            view = L.let(N.ArrayView(lane, C(0, I), [n], [size], lane.type.copy(layout="C")))
            s1, v1 = L.sub_block(lambda: L.call_helper(extreme_lanes.extreme, [view, big]))
            s2, v2 = L.sub_block(lambda: L.call_helper(extreme_lanes.extreme_strided,
                                                       [lane, big]))
            # a step of 2, 4, 8 or 16 items (``z.real``, ``a[::2]``): the span from
            # the first value to the last read whole (extreme_lanes.extreme_stepped)
            stride = L.let(N.ArrayAttr(lane, "stride", 0, I))
            step = L.let(N.BinOp("sdiv", stride, size, I))
            span = N.BinOp("add", N.BinOp("mul", N.BinOp("sub", n, C(1, I), I), step, I),
                           C(1, I), I)
            whole = N.ArrayView(lane, C(0, I), [span], [size], lane.type.copy(layout="C"))
            s3, v3 = L.sub_block(lambda: L.call_helper(extreme_lanes.extreme_stepped,
                                                       [L.let(whole), step, big]))
            L.emit(N.If(cond=N.Cmp("eq", stride, size, T.BOOL),
                        then=s1 + [N.Assign(target=out, value=v1)],
                        orelse=[N.If(cond=stepped(stride, size),
                                     then=s3 + [N.Assign(target=out, value=v3)],
                                     orelse=s2 + [N.Assign(target=out, value=v2)])]))
            v = N.Var(out, st)
        v = numpy_zero(self, L, arr, v, st)
        return kept_array(L, v, rt, t.ndim) if keep else v
