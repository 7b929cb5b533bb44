"""Reductions along one axis (``np.max(m, axis=0)``, ``m.argmin(axis=1)``,
``np.any(b, axis=0)``) in the loop order that reads memory in order.

Reduced lane by lane, an axis that is not the operands' innermost is a strided
walk down each column: one scalar loop per result element.  :func:`accumulate`
instead runs over the operand in C order, combining each element into the
result (``out[j] = max(out[j], a[i, j])``): the innermost loop goes along a row
and becomes vector code.  Each result element meets the same values in the same
order as in the lane-by-lane loop (``Reduction.reduce``), so the results are the
same bit for bit -- which zero a float max keeps, which NaN, the first index of
an argmax.

:func:`lane_extremes` is the other case, a float min/max whose axis NumPy's
iterator makes innermost: each lane is reduced by ``extreme_lanes`` and a zero
result recomputed in NumPy's own order (``zero_pick.numpy_zero``), as a whole
array is.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ...typing_rules import Incompatible
from .reductions import Reduction, total_size
from .zero_pick import numpy_zero, simd_model

I = T.INT64
# the reductions :func:`accumulate` knows (a mean divides after its sum: left to
# the lane loop; subclasses with their own ``reduce``, np.var, neither)
ACCUMULATED = ("sum", "prod", "any", "all", "min", "max", "argmin", "argmax")


def accumulates(red, arg, axis):
    """Whether the reduction ``red`` of ``arg`` along ``axis`` (not the last)
    runs as :func:`accumulate`: a C-ordered or any-layout array, or an
    expression none of whose arrays is Fortran-ordered (its elements are read
    in C order)."""
    t = arg.type
    if axis == t.ndim - 1 or red.name not in ACCUMULATED or type(red).reduce is not \
            Reduction.reduce:
        return False
    if isinstance(arg, ew.Lazy):
        return arg.leaves is not None and all(a.type.layout != "F" for a in arg.leaves)
    return isinstance(t, T.ArrayType) and t.layout != "F"


def accumulate(red, L, z, st, arr, axis, keep):
    """Fill ``arr`` (new, of the result's shape) with ``red`` of ``z`` along
    ``axis`` by loops over ``z`` in C order (see the module's docstring): sums
    and products start from their identity, any/all from False/True, min/max
    from the first slice; argmin/argmax keep the best values so far beside the
    positions."""
    from .creation import allocate, broadcast_versions
    from .reductions import loops
    name = red.name
    nd = len(z.dims)
    et = z.type.dtype
    n = L.let(z.dims[axis])

    def at(idx):
        if keep:
            return [C(0, I) if a == axis else idx[a] for a in range(nd)]
        return [idx[a] for a in range(nd) if a != axis]

    def first_slice(store):
        dims = [C(1, I) if a == axis else d for a, d in enumerate(z.dims)]
        broadcast_versions(L, lambda: loops(L, dims, lambda idx: store(
            idx, z.elem([C(0, I) if a == axis else i for a, i in enumerate(idx)]))))

    def rest(combine):
        dims = [N.BinOp("sub", n, C(1, I), I) if a == axis else d
                for a, d in enumerate(z.dims)]

        def body(idx):
            k = N.BinOp("add", idx[axis], C(1, I), I)
            combine(idx, k, L.let(z.elem([k if a == axis else i
                                          for a, i in enumerate(idx)])))
        broadcast_versions(L, lambda: loops(L, dims, body))

    if name in ("sum", "prod", "any", "all"):
        from .creation import fill
        out_dims = [N.ArrayAttr(arr, "shape", k, I) for k in range(arr.type.ndim)]
        if name in ("any", "all"):
            start = C(name == "all", T.BOOL)
        elif name == "sum":
            start = ops.zero(st)
        else:
            start = C(1, st) if st.is_int else C(1.0 if st.is_float else 1 + 0j, st)
        fill(L, arr, out_dims, lambda idx: start)
        op = {"sum": "add", "prod": "mul", "any": "or", "all": "and"}[name]

        def combine(idx):
            x = L.let(z.elem(list(idx)))
            cur = N.Load(arr, at(idx), st)
            if name in ("any", "all"):
                v = N.BinOp(op, cur, ops.truth(L, x), T.BOOL)
            elif st.is_complex:
                v = ops.complex_arith(L, op, cur, ops.convert(L, x, st), st)
            else:
                v = N.BinOp(op, cur, ops.convert(L, x, st), st)
            L.emit(N.Store(array=arr, indices=at(idx), value=v))
        broadcast_versions(L, lambda: loops(L, z.dims, combine))
        return
    # min / max / argmin / argmax: the first slice, then the others in order
    arg = name in ("argmin", "argmax")
    best = arr
    if arg:
        best = allocate(L, T.ArrayType(et, arr.type.ndim, "C"),
                        [N.ArrayAttr(arr, "shape", k, I) for k in range(arr.type.ndim)])

    def start(idx, v):
        L.emit(N.Store(array=best, indices=at(idx), value=v))
        if arg:
            L.emit(N.Store(array=arr, indices=at(idx), value=C(0, I)))
    first_slice(start)
    def combine(idx, k, x):
        b = L.let(N.Load(best, at(idx), et))
        better = L.let(red.replaces(L, x, b))
        L.emit(N.Store(array=best, indices=at(idx), value=N.Select(better, x, b, et)))
        if arg:
            pos = N.Load(arr, at(idx), I)
            L.emit(N.Store(array=arr, indices=at(idx), value=N.Select(better, k, pos, I)))
    rest(combine)


def lane_extremes(red, L, arr, st, out, axis, keep, out_dims, out_axes):
    """``out`` (new) as the float min/max of the array ``arr`` along ``axis``,
    lane by lane as NumPy where its iterator makes ``axis`` innermost
    (``sum_order.array_axis_lanes``): the vector extreme of each lane and, for a
    zero, NumPy's own pick; elsewhere NumPy combines whole slices in index order,
    the later of equal values winning: :func:`accumulate` when ``axis`` is not
    the last, else the in-order loop."""
    from .creation import fill
    from .sum_order import array_axis_lanes, by_rows, lane_view
    t = arr.type
    nd = t.ndim
    contiguous = t.layout == "C" and axis == nd - 1
    lanes = array_axis_lanes(L, arr, axis) if not contiguous else C(True, T.BOOL)
    length = L.let(N.ArrayAttr(arr, "shape", axis, I))
    step = L.let(N.ArrayAttr(arr, "stride", axis, I))
    strides = [L.let(N.ArrayAttr(arr, "stride", k, I)) for k in range(nd)]
    lane_t = t.copy(ndim=1, layout="C" if contiguous else "A")

    def fixed(idx):
        return {a: idx[a] for a in out_axes} if keep else dict(zip(out_axes, idx))

    def lane(idx):
        view = lane_view(L, arr, fixed(idx), strides, length, step, lane_t)
        return red.lower_extreme(L, view, st, st, False)

    def ordered(idx):
        return red.reduce(L, ew.to_lazy(L, arr), st, fixed(idx), [axis])

    def in_order():
        z = ew.to_lazy(L, arr)
        if axis == nd - 1:
            fill(L, out, out_dims, ordered)
            return
        if nd == 2:
            by_columns(red, L, arr, out, z, lambda: by_rows(
                L, z.dims, axis, lambda: fill(L, out, out_dims, ordered),
                lambda: accumulate(red, L, z, st, out, axis, keep)))
            return
        by_rows(L, z.dims, axis, lambda: fill(L, out, out_dims, ordered),
                lambda: accumulate(red, L, z, st, out, axis, keep))
    if contiguous:
        rows(red, L, arr, out, length, st)
        return
    s1, _ = L.sub_block(lambda: fill(L, out, out_dims, lane))
    s2, _ = L.sub_block(in_order)
    L.emit(N.If(cond=lanes, then=s1, orelse=s2))


def by_columns(red, L, arr, out, z, otherwise):
    """``out`` (new) as the min/max/argmin/argmax of the 2-D array ``arr``
    (float or integer) along axis 0: blocks of columns, each column's extreme
    (and its row) in a register (``column_extremes``), where it has at least
    ``LANES`` columns; else ``otherwise()``.  The same values meet in the same
    order either way."""
    from . import column_extremes as ce
    from .shape import reshape_view
    dest = L.let(reshape_view(L, out, [C(-1, I)], out.type.copy(ndim=1)))
    helper = ce.column_args if red.name.startswith("arg") else ce.column_extremes
    s1, _ = L.sub_block(lambda: L.call_helper(helper, [
        arr, dest, C(red.name in ("max", "argmax"), T.BOOL)]))
    s2, _ = L.sub_block(otherwise)
    L.emit(N.If(cond=N.Cmp("ge", z.dims[1], C(ce.LANES, I), T.BOOL), then=s1, orelse=s2))


def rows(red, L, arr, out, m, st):
    """``out`` as the float min/max along the last axis of the C-contiguous
    ``arr`` (rows of ``m`` values): ``extreme_lanes.extreme_rows``, then each
    zero replaced by the one NumPy's loop picks on its row."""
    from . import extreme_lanes
    from .creation import fill
    from .shape import reshape_view
    flat = L.let(reshape_view(L, arr, [C(-1, I)], arr.type.copy(ndim=1)))
    dest = L.let(reshape_view(L, out, [C(-1, I)], out.type.copy(ndim=1)))
    L.call_helper(extreme_lanes.extreme_rows, [flat, m, dest,
                                               C(red.name == "max", T.BOOL)])
    row_t = arr.type.copy(ndim=1)
    size = C(st.bits // 8, I)

    def fix(idx):
        offset = L.let(N.BinOp("mul", idx[0], N.BinOp("mul", m, size, I), I))
        row = L.let(N.ArrayView(flat, offset, [m], [size], row_t))
        return numpy_zero(red, L, row, N.Load(dest, [idx[0]], st), st)
    fill(L, dest, [N.ArrayAttr(dest, "shape", 0, I)], fix)


def tuple_axes(red, axis, at):
    """The axes of a tuple ``axis`` (in range, none repeated).  Integers and
    booleans (and any/all of anything) reduce in any order; float32/float64
    sum/prod/mean/min/max of an array of any strides in NumPy's
    (:func:`float_over_axes`)."""
    if red.name in ("argmin", "argmax"):
        raise Incompatible(f"np.{red.name}() with a tuple of axes")
    exact = red.name in ("any", "all") or at.dtype.is_int or at.dtype.is_bool
    if red.name in ("var", "std") or red.name == "mean" and not at.dtype.is_float \
            or not exact and not in_memory_order(red, at):
        raise Incompatible(f"np.{red.name}() of {at.dtype} over a tuple of axes")
    axes = []
    for a in axis:
        if not -at.ndim <= a < at.ndim:
            raise Incompatible(f"axis {a} is out of bounds for array of dimension "
                               f"{at.ndim}")
        axes.append(a % at.ndim)
    if len(set(axes)) != len(axes):
        raise Incompatible("repeated axis")
    return sorted(axes)


def in_memory_order(red, at):
    """Does a float reduction over several axes of ``at`` follow NumPy's order
    (:func:`float_over_axes`): sum/prod/mean/min/max of float32/float64 items
    of an array of any strides (an expression's type is C-ordered; its operands
    are checked when it is lowered)."""
    return (red.name in ("sum", "prod", "mean", "min", "max") and at.dtype.is_float
            and at.dtype.bits in (32, 64) and red.scalar_type(at.dtype) == at.dtype)


KINDS = {"sum": 0, "mean": 0, "prod": 1, "max": 2, "min": 3}


def complex_product(red, L, arg, st) -> bool:
    """Is ``red`` a complex ``np.prod`` of an N-D array of its own dtype, which
    :func:`float_over_axes` multiplies in NumPy's order and roundings
    (``statistics/complex_products``)?"""
    from .complex_sums import numpys_order_kept
    t = arg.type
    return (red.name == "prod" and st.is_complex and not isinstance(arg, ew.Lazy)
            and isinstance(t, T.ArrayType) and t.ndim >= 2 and t.dtype == st
            and numpys_order_kept(L))


def trailing_axes(red, L, arg, rt, st, axes, keep):
    """Over the last axes of a C-ordered array, with an axis kept before them
    (``c.max(axis=(1, 2))`` of a 3-D ``c``): NumPy's iterator merges the reduced
    axes into one, so the reduction is the one along the last axis of the view
    with those axes merged (``Reduction.lower_axis``: its vector rows), the same
    values in the same order.  None where that does not apply."""
    from .shape import reshape_view
    t = arg.type
    nd, r = t.ndim, len(axes)
    if (isinstance(arg, ew.Lazy) or t.layout != "C" or t.dtype != st or r < 2 or r >= nd
            or sorted(axes) != list(range(nd - r, nd))
            or red.name not in ("sum", "mean", "min", "max", "prod")):
        return None
    arr = L.let(arg)
    dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(nd)]
    lead = dims[:nd - r]
    view = L.let(reshape_view(L, arr, lead + [L.let(total_size(dims[nd - r:]))],
                              t.copy(ndim=nd - r + 1)))
    res = red.lower_axis(L, [view], T.ArrayType(st, nd - r, "C"), st, nd - r, False)
    if not keep:
        return res
    res = L.let(res)
    return reshape_view(L, res, lead + [C(1, I)] * r, rt)


def float_over_axes(red, L, arg, rt, st, axes, keep):
    """A float reduction over several axes in NumPy's order: its iterator's
    order of the axes, merging and buffering, runs of the innermost merged axis
    at a time (``statistics/axes_lanes.reduce_strided``), the kept axes'
    results in its order, then put in the result's C order.  An expression is
    NumPy's temporary first: C-ordered when all its arrays are, else laid out
    as NumPy lays it out (:func:`_numpy_temporary`)."""
    from ..statistics import axes_lanes as al
    from .creation import allocate, fill
    from .sum_order import int_array, memory_view
    if isinstance(arg, ew.Lazy) and not (arg.leaves is not None
                                         and all(a.type.layout == "C" for a in arg.leaves)):
        arr = _numpy_temporary(red, L, arg)
    else:
        arr = L.let(ew.materialize(L, arg))
    nd = arr.type.ndim
    dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(nd)]
    if red.name in ("min", "max"):
        red.empty_check(L, total_size([dims[a] for a in axes]))
    mem, start = memory_view(L, arr, f"np.{red.name}()")
    item = st.bits // 8
    shape = int_array(L, dims)
    steps = int_array(L, [N.BinOp("sdiv", N.ArrayAttr(arr, "stride", k, I), C(item, I), I)
                          for k in range(nd)])
    flags = int_array(L, [C(int(k in axes), I) for k in range(nd)])
    kept = [k for k in range(nd) if k not in axes]
    m = L.let(total_size([dims[k] for k in kept]))
    out = allocate(L, T.ArrayType(st, 1, "C"), [m])
    inf = float("inf")
    start_value = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "max": -inf, "min": inf}[red.name]
    fill(L, out, [m], lambda idx: C(start_value, st) if not st.is_complex
         else C(complex(start_value), st))
    ostr = L.let(allocate(L, T.ArrayType(I, 1, "C"), [C(nd, I)]))
    if st.is_complex:           # a product (complex_products: NumPy's roundings)
        from ..complex.product_forms import cmul_form
        from ..statistics import complex_products as cp
        forms = [cmul_form(path, st.bits) for path in ("prod_kept", "prod_kept_reversed")]
        if forms[0] != forms[1] and nd >= 3:
            # (measured on a 2-D array; with more kept axes NumPy's iterator may
            # turn the loop around: a view read backwards re-runs in the interpreter)
            back = None
            for k in range(nd):
                neg = N.Cmp("lt", N.ArrayAttr(arr, "stride", k, I), C(0, I), T.BOOL)
                back = neg if back is None else ops.bor(back, neg)
            L.emit(N.If(cond=back, then=[N.Raise(
                exc=ValueError, deopt=True, line=L.line,
                message=f"np.prod() of a {st} array read backwards: NumPy rounds it "
                        "differently here")]))
        fused = [C(int(form == "fma"), I) for form in forms]
        L.emit(N.ExprStmt(value=L.call_helper(cp.prod_strided, [
            mem, start, shape, steps, flags, out, ostr] + fused)))
        steps = {k: L.let(N.Load(ostr, [C(k, I)], I)) for k in kept}
        return kept_results(red, L, out, rt, st, dims, axes, keep, steps)
    # the host NumPy's lanes, which pick a zero min/max (zero_pick.simd_model)
    model = int_array(L, [C(k, I) for k in simd_model(st.name)])
    L.emit(N.ExprStmt(value=L.call_helper(al.reduce_strided, [
        mem, start, shape, steps, flags, out, ostr, C(KINDS[red.name], I), C(0.0, st),
        model])))
    steps = {k: L.let(N.Load(ostr, [C(k, I)], I)) for k in kept}
    return kept_results(red, L, out, rt, st, dims, axes, keep, steps)


def _numpy_temporary(red, L, z):
    """The expression ``z`` made into NumPy's temporary: contiguous in the order
    its ufunc iterator gives the axes, strides positive (values in index order
    along every axis), as NumPy allocates it -- so that the reduction that
    follows meets the strides NumPy's meets.  Only where the operands cannot
    disagree about that order (a disagreement makes each ufunc of the
    expression decide for its own temporary): the operands of two axes or
    more are one array, or all F-ordered; others are broadcast or 1-D."""
    from ..statistics import sum_lanes as sl
    from .creation import allocate, fill
    from .sum_order import int_array, unique_arrays
    if z.leaves is None:
        raise Incompatible(f"np.{red.name}() over a tuple of axes of this expression")
    arrays = unique_arrays(z.leaves)
    wide = [a for a in arrays if a.type.ndim >= 2]
    if len(wide) > 1 and not all(a.type.layout == "F" for a in wide):
        raise Incompatible(f"np.{red.name}() over a tuple of axes of an expression "
                           "whose operands may be in different memory orders")
    nd = len(z.dims)
    dims = [L.let(d) for d in z.dims]
    flat = []
    for a in arrays:
        off = nd - a.type.ndim
        for k in range(nd):
            if k < off:
                flat.append(C(0, I))
                continue
            d = L.let(N.ArrayAttr(a, "shape", k - off, I))
            flat.append(N.Select(N.Cmp("eq", d, dims[k], T.BOOL),
                                 N.ArrayAttr(a, "stride", k - off, I), C(0, I), I))
    strides = L.let(allocate(L, T.ArrayType(I, 1, "C"), [C(nd, I)]))
    L.emit(N.ExprStmt(value=L.call_helper(sl.temporary_strides, [
        int_array(L, flat), C(len(arrays), I), int_array(L, dims),
        C(z.type.dtype.bits // 8, I), strides])))
    buf = L.let(allocate(L, T.ArrayType(z.type.dtype, 1, "C"), [L.let(total_size(dims))]))
    view = L.let(N.ArrayView(buf, C(0, I), dims,
                             [L.let(N.Load(strides, [C(k, I)], I)) for k in range(nd)],
                             T.ArrayType(z.type.dtype, nd, "A")))
    fill(L, view, dims, z.elem, z.split)
    return view


def kept_results(red, L, out, rt, st, dims, axes, keep, steps):
    """The result of a reduction over ``axes`` whose values are in ``out``, the
    one for kept axis ``k``'s index ``i`` at ``i * steps[k]`` (summed over the
    kept axes): a mean divides by the count reduced; an array result is made
    in C order (with ``keepdims``, axes of length 1 for the reduced ones)."""
    from .creation import allocate, fill
    nd = len(dims)
    kept = [k for k in range(nd) if k not in axes]
    count = L.let(total_size([dims[a] for a in axes]))

    def result(flat):
        v = N.Load(out, [flat], st)
        return red.mean_of(L, v, count, st) if red.name == "mean" else v
    if not isinstance(rt, T.ArrayType):
        return result(C(0, I))
    out_dims = [C(1, I) if a in axes else dims[a] for a in range(nd)] if keep \
        else [dims[a] for a in kept]
    res = allocate(L, rt, out_dims)

    def value(idx):
        at = dict(zip(range(nd), idx)) if keep else dict(zip(kept, idx))
        flat = C(0, I)
        for k in kept:
            flat = N.BinOp("add", flat, N.BinOp("mul", at[k], steps[k], I), I)
        return result(flat)
    fill(L, res, out_dims, value)
    return res


def over_axes(red, L, arg, rt, st, axis, keep):
    """Over several axes: each result element in one loop over them."""
    from .creation import allocate, fill
    z = ew.to_lazy(L, arg)
    nd = len(z.dims)
    axes = tuple_axes(red, axis, arg.type)
    if complex_product(red, L, arg, st):
        return float_over_axes(red, L, arg, rt, st, axes, keep)
    if arg.type.dtype.is_float and red.name not in ("any", "all"):
        merged = trailing_axes(red, L, arg, rt, st, axes, keep)
        if merged is not None:
            return merged
        return float_over_axes(red, L, arg, rt, st, axes, keep)
    out_axes = [a for a in range(nd) if a not in axes]
    if red.name in ("min", "max"):
        red.empty_check(L, total_size([z.dims[a] for a in axes]))
    if not isinstance(rt, T.ArrayType):
        return red.reduce(L, z, st, {}, axes)
    out_dims = [C(1, I) if a in axes else z.dims[a] for a in range(nd)] if keep \
        else [z.dims[a] for a in out_axes]
    arr = allocate(L, rt, out_dims)

    def value(idx):
        fixed = {a: idx[a] for a in out_axes} if keep else dict(zip(out_axes, idx))
        return red.reduce(L, z, st, fixed, axes)
    fill(L, arr, out_dims, value)
    return arr
