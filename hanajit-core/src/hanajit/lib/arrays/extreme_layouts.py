"""``np.min``/``np.max`` of a whole 2-D float array of any layout as vector code
(``Reduction.lower`` takes 1-D and C-contiguous arrays to ``extreme_lanes``
itself).  Which of equal zeros the result is stays the index-order loop's
pick, the later one (docs/semantics.md): a zero result is recomputed in that
order."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from . import extreme_lanes

I = T.INT64


def extreme_2d(red, L, arr, z, st):
    """``np.min``/``np.max`` of the 2-D array ``arr`` of any layout as vector
    code: rows (or columns) that are contiguous runs at a positive step are
    searched in place (``extreme_lanes.extreme_runs``), any other layout
    through a buffer (``extreme_lanes.extreme_2d``); fewer than 32 values, and a zero
    result, in index order, which picks the later of equal zeros, as
    before."""
    rows, cols = L.let(z.dims[0]), L.let(z.dims[1])
    n = L.let(N.BinOp("mul", rows, cols, I))
    red.empty_check(L, n)
    size = C(st.bits // 8, I)
    big = C(red.name == "max", T.BOOL)
    out = L.temp(st, "extreme")
    s0, s1 = (L.let(N.ArrayAttr(arr, "stride", k, I)) for k in (0, 1))

    def runs(count, length, step):
        # the runs' span of memory as one C view, ``step`` bytes apart
        items = L.let(N.BinOp("sdiv", step, size, I))
        span = N.BinOp("add", N.BinOp("mul", N.BinOp("sub", count, C(1, I), I), items, I),
                       length, I)
        flat = L.let(N.ArrayView(arr, C(0, I), [span], [size],
                                 arr.type.copy(ndim=1, layout="C")))
        return (ops.band(N.Cmp("eq", N.BinOp("srem", step, size, I), C(0, I), T.BOOL),
                         N.Cmp("gt", step, C(0, I), T.BOOL)),
                L.sub_block(lambda: L.emit(N.Assign(target=out, value=L.call_helper(
                    extreme_lanes.extreme_runs, [flat, count, length, items, big]))))[0])
    by_rows, s_rows = runs(rows, cols, s0)
    by_cols, s_cols = runs(cols, rows, s1)
    s_buf, _ = L.sub_block(lambda: L.emit(N.Assign(target=out, value=L.call_helper(
        extreme_lanes.extreme_2d, [arr, big]))))
    L.emit(N.Assign(target=out, value=C(0.0, st)))
    L.emit(N.If(cond=N.Cmp("ge", n, C(32, I), T.BOOL), then=[N.If(
        cond=ops.band(N.Cmp("eq", s1, size, T.BOOL), by_rows), then=s_rows,
        orelse=[N.If(cond=ops.band(N.Cmp("eq", s0, size, T.BOOL), by_cols),
                     then=s_cols, orelse=s_buf)])], orelse=[]))
    slow, v = L.sub_block(lambda: red.reduce(L, z, st, {}, [0, 1]))
    L.emit(N.If(cond=N.Cmp("eq", N.Var(out, st), C(0.0, st), T.BOOL),
                then=slow + [N.Assign(target=out, value=v)], orelse=[]))
    return N.Var(out, st)
