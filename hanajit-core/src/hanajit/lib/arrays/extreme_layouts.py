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


def stepped(stride, size):
    """Whether a lane's ``stride`` (bytes) is 2, 4, 8 or 16 items of ``size``
    bytes: such a lane is read whole, from its first value to its last, and
    only its own lanes kept (``extreme_lanes.extreme_stepped``)."""
    test = None
    for k in (2, 4, 8, 16):
        c = N.Cmp("eq", stride, N.BinOp("mul", size, C(k, I), I), T.BOOL)
        test = c if test is None else ops.bor(test, c)
    return test


def extreme_2d(red, L, arr, z, st):
    """``np.min``/``np.max`` of the 2-D array ``arr`` of any layout as vector
    code: rows (or columns) that are contiguous runs at a positive step are
    searched in place (``extreme_lanes.extreme_runs``), runs stepped 2, 4, 8
    or 16 items read whole (``extreme_stepped_runs``), any other layout
    through a buffer (``extreme_lanes.extreme_2d``); fewer than 32 values, and
    a zero result, in index order, which picks the later of equal zeros, as
    before."""
    rows, cols = L.let(z.dims[0]), L.let(z.dims[1])
    n = L.let(N.BinOp("mul", rows, cols, I))
    red.empty_check(L, n)
    size = C(st.bits // 8, I)
    big = C(red.name == "max", T.BOOL)
    out = L.temp(st, "extreme")
    s0, s1 = (L.let(N.ArrayAttr(arr, "stride", k, I)) for k in (0, 1))

    def runs(count, length, step, inner):
        """(whether, statements): the extreme of ``count`` runs of ``length``
        values ``inner`` bytes apart, the runs ``step`` bytes apart, read in
        place as one C view of their span when ``step`` is a positive number
        of items and ``inner`` one item (or 2, 4, 8, 16: stepped runs)."""
        items = L.let(N.BinOp("sdiv", step, size, I))
        k = L.let(N.BinOp("sdiv", inner, size, I))
        run = L.let(N.BinOp("add", N.BinOp("mul", N.BinOp("sub", length, C(1, I), I), k, I),
                            C(1, I), I))
        span = N.BinOp("add", N.BinOp("mul", N.BinOp("sub", count, C(1, I), I), items, I),
                       run, I)
        flat = L.let(N.ArrayView(arr, C(0, I), [span], [size],
                                 arr.type.copy(ndim=1, layout="C")))
        ok = ops.band(N.Cmp("eq", N.BinOp("srem", step, size, I), C(0, I), T.BOOL),
                      N.Cmp("gt", step, C(0, I), T.BOOL))
        one = N.Cmp("eq", inner, size, T.BOOL)
        s_one, _ = L.sub_block(lambda: L.emit(N.Assign(target=out, value=L.call_helper(
            extreme_lanes.extreme_runs, [flat, count, length, items, big]))))
        s_stepped, _ = L.sub_block(lambda: L.emit(N.Assign(target=out, value=L.call_helper(
            extreme_lanes.extreme_stepped_runs, [flat, count, run, items, k, big]))))
        return [(ops.band(ok, one), s_one), (ops.band(ok, stepped(inner, size)), s_stepped)]
    (rows1, s_rows1), (rows_k, s_rows_k) = runs(rows, cols, s0, s1)
    (cols1, s_cols1), (cols_k, s_cols_k) = runs(cols, rows, s1, s0)
    s_buf, _ = L.sub_block(lambda: L.emit(N.Assign(target=out, value=L.call_helper(
        extreme_lanes.extreme_2d, [arr, big]))))
    # contiguous runs first (an F array's columns: all of its memory as one run),
    # then stepped ones, then the buffer
    chain = s_buf
    for cond, then in ((cols_k, s_cols_k), (rows_k, s_rows_k), (cols1, s_cols1),
                       (rows1, s_rows1)):
        chain = [N.If(cond=cond, then=then, orelse=chain)]
    L.emit(N.Assign(target=out, value=C(0.0, st)))
    L.emit(N.If(cond=N.Cmp("ge", n, C(32, I), T.BOOL), then=chain, orelse=[]))
    slow, v = L.sub_block(lambda: red.reduce(L, z, st, {}, [0, 1]))
    L.emit(N.If(cond=N.Cmp("eq", N.Var(out, st), C(0.0, st), T.BOOL),
                then=slow + [N.Assign(target=out, value=v)], orelse=[]))
    return N.Var(out, st)
