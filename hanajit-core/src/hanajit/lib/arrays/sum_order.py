"""NumPy's order of N-D float sums (``np.sum``/``np.mean`` and the methods), so
that they are NumPy's bit for bit beyond the 1-D and C-contiguous cases of
``reductions.pairwise_lane``/``pairwise_expression``:

* the whole sum of an N-D expression whose array operands are all C-contiguous,
  or all F-contiguous, of the result's shape: NumPy's temporary then has that
  memory order and is one lane, summed pairwise in memory order -- fused here
  (``fused_pairwise`` over the operands' flat memory, no temporary); when one
  operand is C-contiguous of the result's shape, or all are C-compatible (or
  all F-compatible: :func:`_f_compatible`), NumPy's temporary is C- (or F-)
  contiguous and is made here and summed pairwise;
* the sum of an N-D expression along one axis when every operand is
  C-compatible (its non-zero strides do not grow towards the last axis; NumPy's
  temporary is then C-ordered), or one of them is C-contiguous of the result's
  shape (C order wins the iterator's conflicts), or all are F-compatible
  (:func:`_f_compatible`: NumPy's temporary is then F-ordered):
  when the reduced axis is the temporary's innermost axis (lengths 1 aside) each
  lane is summed pairwise (fused), else NumPy adds in index order, which is what
  the in-order loop does;
* the whole sum of an N-D array of any strides that is not known C-contiguous:
  NumPy's iterator order, coalescing and buffering (``statistics/sum_lanes``);
* the sum of an N-D array along one axis: pairwise per lane when NumPy's
  iterator makes that axis the innermost (``sum_lanes.innermost_axis``), else in
  index order.

* sums of expressions whose operands are in neither C nor F order: NumPy's
  temporary in its ufuncs' order (``tree_temporary``), summed by the array
  paths above.

Layouts decided at run time where the types leave them open; other
expressions keep the in-order loop (``reductions.Reduction.reduce``).
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from . import elementwise as ew

I = T.INT64


def _and(a, b):
    if a is True:
        return b
    if b is True:
        return a
    if a is False or b is False:
        return False
    return ops.band(a, b)


def _or(a, b):
    if a is True or b is True:
        return True
    if a is False:
        return b
    if b is False:
        return a
    return ops.bor(a, b)


def _cond(c):
    """A Python bool or a boolean expression as an expression."""
    return C(c, T.BOOL) if isinstance(c, bool) else c


def _shape(arr, k):
    return N.ArrayAttr(arr, "shape", k, I)


def _stride(arr, k):
    return N.ArrayAttr(arr, "stride", k, I)


def contiguous(L, arr, order):
    """Is ``arr`` contiguous in ``order`` ('C' or 'F')?  True when its type says
    so, else a run-time test of its strides (axes of length 1 aside)."""
    t = arr.type
    if t.layout == order or t.ndim <= 1 and t.layout in ("C", "F"):
        return True
    item = max(1, t.dtype.bits // 8)    # (bool: one byte)
    axes = range(t.ndim - 1, -1, -1) if order == "C" else range(t.ndim)
    expect = C(item, I)
    cond = True
    for k in axes:
        d = L.let(_shape(arr, k))
        good = ops.bor(N.Cmp("eq", d, C(1, I), T.BOOL),
                       N.Cmp("eq", _stride(arr, k), expect, T.BOOL))
        cond = _and(cond, good)
        expect = L.let(N.BinOp("mul", expect, d, I))
    return cond


def _full_shape(L, arr, dims, alone=False):
    """Is ``arr`` of the shape ``dims`` (no broadcasting)?  ``alone``: the
    expression's only array, whose shape the result's then is."""
    if arr.type.ndim != len(dims):
        return False
    if alone:
        return True
    cond = True
    for k, d in enumerate(dims):
        s = L.let(_shape(arr, k))
        if not ew.same_value(s, d):
            cond = _and(cond, N.Cmp("eq", s, d, T.BOOL))
    return cond


def _one_order(L, leaves, dims):
    """Are all ``leaves`` of the shape ``dims`` and contiguous in one order, C
    or F?  (NumPy's temporary then has that order: one lane in memory order.)"""
    arrays = unique_arrays(leaves)
    full = True
    for a in arrays:
        full = _and(full, _full_shape(L, a, dims, len(arrays) == 1))
    if full is False:
        return False
    by_order = []
    for order in ("C", "F"):
        if any(a.type.layout in ("C", "F") and a.type.layout != order and a.type.ndim > 1
               for a in arrays):
            by_order.append(False)
            continue
        c = True
        for a in arrays:
            c = _and(c, contiguous(L, a, order))
        by_order.append(c)
    return _and(full, _or(by_order[0], by_order[1]))


def unique_arrays(leaves):
    """The distinct array operands (one local read twice, ``a * a``, is one)."""
    seen, arrays = set(), []
    for a in leaves:
        key = ew.leaf_key(a)
        if key not in seen:
            seen.add(key)
            arrays.append(a)
    return arrays


def expression_sum(red, L, z, st):
    """The whole sum (or mean) of the N-D expression ``z`` in NumPy's order:
    fused over the operands' flat memory when they share one memory order;
    when they are only C-compatible (broadcast rows, steps, reversed axes) or
    F-compatible, NumPy's C- or F-ordered temporary (positive strides) is made
    as NumPy makes it and summed pairwise; else in order (None: decided at
    compile time)."""
    if not z.leaves:
        return None
    arrays = unique_arrays(z.leaves)
    flat_ok = _one_order(L, arrays, z.dims)
    c_ok = _or(_all_c_compatible(L, arrays, z.dims),
               _any_c_contiguous(L, arrays, z.dims))
    f_ok = True
    for a in arrays:
        f_ok = _and(f_ok, _f_compatible(L, a, z.dims, len(arrays) == 1))
    from .tree_temporary import check_in_place, general_tree, tree_temporary
    check_in_place(L, z)
    general = general_tree(z) is not None
    if flat_ok is False and c_ok is False and f_ok is False and not general:
        return None
    nd = len(z.dims)
    n = L.let(_total(z.dims))
    res = L.temp(st, "total")

    def flat():
        reads, k = {}, [C(0, I)]
        for a in arrays:
            view = L.let(N.ArrayView(a, C(0, I), [n], [C(a.type.dtype.bits // 8, I)],
                                     T.ArrayType(a.type.dtype, 1, "C")))
            reads[ew.leaf_key(a)] = (view, k)

        def elem(idx):
            k[:] = [idx[0]]
            ew.flat_reads.append(reads)
            try:
                return z.elem([idx[0]] * nd)
            finally:
                ew.flat_reads.pop()
        flat_z = ew.Lazy(T.ArrayType(z.type.dtype, 1, "C"), [n], elem)
        L.emit(N.Assign(target=res, value=red.fused_pairwise(L, flat_z, st)))

    def temporary():
        tmp = ew.materialize(L, z)
        lane = L.let(N.ArrayView(tmp, C(0, I), [n], [C(st.bits // 8, I)],
                                 T.ArrayType(st, 1, "C")))
        L.emit(N.Assign(target=res, value=red.pairwise(L, lane, st)))

    def temporary_f():
        from .creation import allocate, fill
        rdims = list(reversed(z.dims))
        tmp = allocate(L, T.ArrayType(z.type.dtype, nd, "C"), rdims)
        fill(L, tmp, rdims, lambda idx: z.elem(list(reversed(idx))))
        lane = L.let(N.ArrayView(tmp, C(0, I), [n], [C(st.bits // 8, I)],
                                 T.ArrayType(st, 1, "C")))
        L.emit(N.Assign(target=res, value=red.pairwise(L, lane, st)))

    def ordered():
        if general:     # NumPy's temporary in its own order, summed as NumPy sums it
            L.emit(N.Assign(target=res, value=array_sum(red, L, tree_temporary(L, z), st)))
            return
        L.emit(N.Assign(target=res, value=red.reduce(L, z, st, {}, list(range(nd)))))
    branches = [(c, b) for c, b in ((flat_ok, flat), (c_ok, temporary), (f_ok, temporary_f))
                if c is not False]
    stmts, _ = L.sub_block(ordered)
    for c, b in reversed(branches):
        if c is True:
            stmts, _ = L.sub_block(b)
        else:
            s1, _ = L.sub_block(b)
            stmts = [N.If(cond=c, then=s1, orelse=stmts)]
    for s_ in stmts:
        L.emit(s_)
    return N.Var(res, st)


def _total(dims):
    size = C(1, I)
    for d in dims:
        size = N.BinOp("mul", size, d, I)
    return size


def _c_compatible(L, arr, dims):
    """NumPy's iterator keeps C order for ``arr`` (broadcast to ``dims``): its
    non-zero strides on axes longer than 1 do not grow in absolute value
    towards the last axis.  (Negative strides are allowed: NumPy 2's ufunc
    temporary has positive strides, its values in index order along every
    axis -- checked on random reversed, stepped and broadcast views.)"""
    t = arr.type
    if t.layout == "C":
        return True
    off = len(dims) - t.ndim
    prev = None
    cond = True
    for k in range(t.ndim):
        d = L.let(_shape(arr, k))
        s = L.let(N.Select(ops.bor(N.Cmp("eq", d, C(1, I), T.BOOL),
                                   N.Cmp("ne", d, dims[off + k], T.BOOL)),
                           C(0, I), _abs(L, _stride(arr, k)), I))
        if prev is not None:
            # |prev| >= |s| wherever both are non-zero
            ok = ops.bor(ops.bor(N.Cmp("eq", s, C(0, I), T.BOOL),
                                 N.Cmp("eq", prev, C(0, I), T.BOOL)),
                         N.Cmp("ge", prev, s, T.BOOL))
            cond = _and(cond, ok)
            # the largest non-zero stride so far bounds the next ones
            prev = L.let(N.Select(N.Cmp("eq", s, C(0, I), T.BOOL), prev, s, I))
        else:
            prev = s
    return cond


def _f_compatible(L, arr, dims, alone=False):
    """NumPy's iterator takes ``arr`` in F order: it has the result's shape and
    its strides on axes longer than 1 grow in absolute value towards the last
    axis.  (When every operand is so, NumPy's temporary is F-contiguous, with
    positive strides, as in :func:`_c_compatible`.)"""
    full = _full_shape(L, arr, dims, alone)
    if full is False:
        return False
    if arr.type.layout == "F":
        return full
    prev = C(0, I)
    cond = full
    for k in range(arr.type.ndim):
        d = L.let(_shape(arr, k))
        s = L.let(_abs(L, _stride(arr, k)))
        one = N.Cmp("eq", d, C(1, I), T.BOOL)
        cond = _and(cond, ops.bor(one, N.Cmp("gt", s, prev, T.BOOL)))
        prev = L.let(N.Select(one, prev, s, I))
    return cond


def _all_c_compatible(L, arrays, dims):
    c_ok = True
    for a in arrays:
        c_ok = _and(c_ok, _c_compatible(L, a, dims))
    return c_ok


def _any_c_contiguous(L, arrays, dims):
    """Is some operand C-contiguous of the result's shape?  Its strides then
    keep every pair of axes in C order in NumPy's iterator (C order wins its
    conflicts between operands), so every temporary from it on is C-contiguous,
    with no axis flipped, whatever the other operands' layouts."""
    anyc = False
    for a in arrays:
        anyc = _or(anyc, _and(_full_shape(L, a, dims, len(arrays) == 1),
                              contiguous(L, a, "C")))
    return anyc


def _abs(L, e):
    e = L.let(e)
    return N.Select(N.Cmp("lt", e, C(0, I), T.BOOL), N.BinOp("sub", C(0, I), e, I), e, I)


def _innermost(dims, order):
    """The temporary's innermost axis of length > 1 (``order`` C or F; -1 if
    none) as an expression."""
    axes = range(len(dims)) if order == "C" else range(len(dims) - 1, -1, -1)
    v = C(-1, I)
    for k in axes:          # the last one found wins
        v = N.Select(N.Cmp("ne", dims[k], C(1, I), T.BOOL), C(k, I), v, I)
    return v


def axis_lanes(L, z, axis, known=None):
    """Does NumPy sum each lane of the expression ``z`` along ``axis`` pairwise
    (its temporary's innermost axis)?  A bool expression, or None when the
    operands' layouts are not ones whose temporary order is known here.
    ``known`` (a list): gets whether that order is C or F (a bool expression)."""
    if z.leaves is None:
        return None
    arrays = unique_arrays(z.leaves)
    c_ok = _or(_all_c_compatible(L, arrays, z.dims),
               _any_c_contiguous(L, arrays, z.dims))
    f_ok = True
    for a in arrays:
        f_ok = _and(f_ok, _f_compatible(L, a, z.dims, len(arrays) == 1))
    if not arrays:
        f_ok = False
    if known is not None:
        known.append(_or(c_ok, f_ok))
    if c_ok is False and f_ok is False:
        return None
    inner_c = N.Cmp("eq", _innermost(z.dims, "C"), C(axis, I), T.BOOL)
    inner_f = N.Cmp("eq", _innermost(z.dims, "F"), C(axis, I), T.BOOL)
    lanes = _or(_and(c_ok, inner_c), _and(f_ok, inner_f))
    # neither order known: in order (NumPy's order unknown too)
    return _cond(lanes)


def expression_axis(red, L, z, st, rt, axis, keep, out_dims, out_axes, lanes=None):
    """``np.sum(z, axis)`` of the N-D expression ``z`` in NumPy's order where
    :func:`axis_lanes` knows it (or ``lanes`` says: is the axis its
    temporary's innermost?); None to leave it to the in-order loop."""
    from .creation import allocate, fill
    from .tree_temporary import check_in_place, general_tree, tree_temporary
    known = [True]
    if lanes is None:
        check_in_place(L, z)
        known = []
        lanes = axis_lanes(L, z, axis, known)
    general = bool(known) and known[0] is not True and general_tree(z) is not None

    def numpys_temporary():
        # neither C nor F: NumPy's temporary in its own order, summed lane by lane
        return array_axis(red, L, tree_temporary(L, z), st, rt, axis, keep, out_dims,
                          out_axes)
    if lanes is None:
        return numpys_temporary() if general else None
    arr = allocate(L, rt, out_dims)
    if general:
        s1, _ = L.sub_block(lambda: _axis_lanes(red, L, z, st, arr, axis, keep, out_dims,
                                                out_axes, lanes))

        def copied():
            res = L.let(numpys_temporary())
            fill(L, arr, out_dims, lambda idx: N.Load(res, list(idx), st))
        s2, _ = L.sub_block(copied)
        L.emit(N.If(cond=_cond(known[0]), then=s1, orelse=s2))
        return arr
    _axis_lanes(red, L, z, st, arr, axis, keep, out_dims, out_axes, lanes)
    return arr


def _axis_lanes(red, L, z, st, arr, axis, keep, out_dims, out_axes, lanes):
    """Fill ``arr`` with the sums of ``z`` along ``axis``: each lane pairwise
    where ``lanes``, else in index order."""
    from .creation import fill
    trees = []

    def fixed(idx):
        return {a: idx[a] for a in out_axes} if keep else dict(zip(out_axes, idx))

    def pairwise(idx):
        f = fixed(idx)
        lane = ew.Lazy(T.ArrayType(z.type.dtype, 1, "C"), [z.dims[axis]],
                       lambda k: z.elem([f[a] if a in f else k[0]
                                         for a in range(len(z.dims))]))
        return red.fused_pairwise(L, lane, st, trees[0])

    def lanes_fill():
        # one tree for every lane (they have one length), made outside the loops
        trees.append(red.pairwise_tree(L, z.dims[axis], st))
        fill(L, arr, out_dims, pairwise)

    def ordered(idx):
        return red.reduce(L, z, st, fixed(idx), [axis])

    def in_order():
        by_rows(L, z.dims, axis, lambda: fill(L, arr, out_dims, ordered),
                lambda: accumulate_axis(red, L, z, st, arr, axis, keep))
    if red.name == "sum" or st == T.FLOAT64:
        # lanes of fewer than 8 values are summed in order from 0 either way:
        # the in-order loop (no tree to walk per lane) is the same sum
        lanes = ops.band(lanes, N.Cmp("ge", z.dims[axis], C(8, I), T.BOOL))
    s1, _ = L.sub_block(lanes_fill)
    s2, _ = L.sub_block(in_order)
    L.emit(N.If(cond=lanes, then=s1, orelse=s2))


ROWS_FROM = 8       # rows at least this long are added into the result whole


def by_rows(L, dims, axis, lanes, rows):
    """Emit ``rows()`` (:func:`accumulate_axis`) where the rows it adds are at
    least :data:`ROWS_FROM` long, ``lanes()`` (each lane in a register) where
    they are shorter or the reduced axis is the last: the same sums either way."""
    if axis == len(dims) - 1:
        lanes()
        return
    s1, _ = L.sub_block(rows)
    s2, _ = L.sub_block(lanes)
    L.emit(N.If(cond=N.Cmp("ge", dims[-1], C(ROWS_FROM, I), T.BOOL), then=s1, orelse=s2))


def accumulate_axis(red, L, z, st, arr, axis, keep):
    """``arr`` (new, of the result's shape) as the sum -- or mean -- of ``z``
    along ``axis`` in index order: NumPy's order where the axis is not its
    temporary's innermost.  Each element of ``arr`` gets the same additions in
    the same order as the lane-by-lane loop (``Reduction.reduce``: from 0.0, then
    ``z[..., 0, ...]``, ``z[..., 1, ...]`` ...), but the loops run over ``z`` in C
    order, adding into ``arr``: the innermost one goes along a row of the
    operands (vector code), not down a strided lane."""
    from .creation import broadcast_versions, fill
    from .reductions import loops, total_size
    nd = len(z.dims)
    out_dims = [N.ArrayAttr(arr, "shape", k, I) for k in range(arr.type.ndim)]
    fill(L, arr, out_dims, lambda idx: ops.zero(st))

    def at(idx):
        return [C(0, I) if a == axis else idx[a] for a in range(nd)] if keep else \
            [idx[a] for a in range(nd) if a != axis]

    def add(idx):
        x = ops.convert(L, z.elem(list(idx)), st)
        cur = N.Load(arr, at(idx), st)
        L.emit(N.Store(array=arr, indices=at(idx), value=N.BinOp("add", cur, x, st)))
    broadcast_versions(L, lambda: loops(L, z.dims, add))
    if red.name == "mean":
        n = L.let(N.Cast(L.let(total_size([z.dims[axis]])), st))
        fill(L, arr, out_dims, lambda idx: N.BinOp("fdiv", N.Load(arr, list(idx), st),
                                                    n, st))


def int_array(L, values):
    from .creation import allocate
    t = T.ArrayType(I, 1, "C")
    arr = allocate(L, t, [C(len(values), I)])
    for k, v in enumerate(values):
        L.emit(N.Store(array=arr, indices=[C(k, I)], value=v))
    return arr


def array_sum(red, L, arr, st):
    """The whole sum of the N-D array ``arr`` (any strides) in NumPy's order
    (``sum_lanes.strided_sum``); strides that are not whole items (views of
    structured data) keep the in-order loop."""
    from ..statistics import sum_lanes as sl
    t = arr.type
    nd = t.ndim
    item = st.bits // 8
    dims = [L.let(_shape(arr, k)) for k in range(nd)]
    strides = [L.let(_stride(arr, k)) for k in range(nd)]
    size = L.let(_total(dims))
    whole = True
    for s in strides:
        whole = _and(whole, N.Cmp("eq", N.BinOp("srem", s, C(item, I), I), C(0, I), T.BOOL))
    res = L.temp(st, "total")

    def lanes():
        v = L.call_helper(sl.strided_sum, strided_args(L, arr, dims, strides, size) + [
            C(0.0, st)])
        L.emit(N.Assign(target=res, value=v))

    def ordered():
        from .reductions import Reduction
        z = ew.to_lazy(L, arr)
        total = Reduction("sum", ("sum",)).reduce(L, z, st, {}, list(range(nd)))
        L.emit(N.Assign(target=res, value=total))
    s1, _ = L.sub_block(lanes)
    if whole is True:
        for s in s1:
            L.emit(s)
    else:
        s2, _ = L.sub_block(ordered)
        L.emit(N.If(cond=whole, then=s1, orelse=s2))
    return red.mean_of(L, N.Var(res, st), size, st)


def strided_args(L, arr, dims, strides, size):
    """``[mem, start, shape, steps]`` of the array ``arr`` (its ``dims`` and
    byte ``strides``, whole items, and ``size``) for ``sum_lanes.strided_sum``:
    a 1-D view of its memory from its lowest element, the index of its first
    element there, and its shape and strides in items as int64 arrays."""
    t = arr.type
    item = max(1, t.dtype.bits // 8)
    lo, hi = C(0, I), C(0, I)
    for d, s in zip(dims, strides):
        reach = L.let(N.BinOp("mul", N.BinOp("sub", d, C(1, I), I), s, I))
        neg = N.Cmp("lt", reach, C(0, I), T.BOOL)
        lo = N.BinOp("add", lo, N.Select(neg, reach, C(0, I), I), I)
        hi = N.BinOp("add", hi, N.Select(neg, C(0, I), reach, I), I)
    empty = N.Cmp("eq", size, C(0, I), T.BOOL)
    lo = L.let(N.Select(empty, C(0, I), lo, I))
    span = L.let(N.Select(empty, C(0, I), N.BinOp(
        "add", N.BinOp("sdiv", N.BinOp("sub", hi, lo, I), C(item, I), I), C(1, I), I), I))
    mem = L.let(N.ArrayView(arr, lo, [span], [C(item, I)], T.ArrayType(t.dtype, 1, "C")))
    start = L.let(N.BinOp("sdiv", N.BinOp("sub", C(0, I), lo, I), C(item, I), I))
    return [mem, start, int_array(L, dims),
            int_array(L, [N.BinOp("sdiv", s, C(item, I), I) for s in strides])]


def lane_view(L, arr, fixed: dict, strides, length, step, lane_t):
    """The lane of ``arr`` along an axis at the indices ``fixed`` of the others
    (``{axis: index}``), as a 1-D view of ``length`` items ``step`` bytes apart
    (``strides``: ``arr``'s, as stable expressions)."""
    offset = C(0, I)
    for k, i in fixed.items():
        offset = N.BinOp("add", offset, N.BinOp("mul", i, strides[k], I), I)
    return L.let(N.ArrayView(arr, L.let(offset), [length], [step], lane_t))


def array_axis_lanes(L, arr, axis):
    """Does NumPy sum the N-D array ``arr`` along ``axis`` lane by lane
    (pairwise), its iterator making that axis the innermost?"""
    from ..statistics import sum_lanes as sl
    nd = arr.type.ndim
    shape = int_array(L, [_shape(arr, k) for k in range(nd)])
    steps = int_array(L, [_stride(arr, k) for k in range(nd)])
    inner = L.call_helper(sl.innermost_axis, [shape, steps])
    return L.let(N.Cmp("eq", inner, C(axis, I), T.BOOL))


def array_axis(red, L, arr, st, rt, axis, keep, out_dims, out_axes):
    """``np.sum(arr, axis)`` of the N-D array ``arr``: each lane pairwise when
    NumPy's iterator makes ``axis`` the innermost, else in index order.  Of a
    complex array each lane is NumPy's complex pairwise sum, and a mean divides
    as NumPy's complex division by the count (``Reduction.complex_mean_of``)."""
    from .creation import allocate, fill
    from .reductions import Reduction
    t = arr.type
    nd = t.ndim
    lanes = array_axis_lanes(L, arr, axis)
    out = allocate(L, rt, out_dims)
    length = L.let(_shape(arr, axis))
    step = L.let(_stride(arr, axis))
    strides = [L.let(_stride(arr, k)) for k in range(nd)]

    def fixed(idx):
        return {a: idx[a] for a in out_axes} if keep else dict(zip(out_axes, idx))

    def pairwise(idx):
        lane = lane_view(L, arr, fixed(idx), strides, length, step,
                         t.copy(ndim=1, layout="A"))
        if st.is_complex:
            return red.complex_pairwise(L, lane, st)
        return red.pairwise(L, lane, st, scratch=False)

    def ordered(idx):
        if st.is_complex:
            total = Reduction("sum", ()).reduce(L, ew.to_lazy(L, arr), st, fixed(idx), [axis])
            return red.complex_mean_of(L, L.let(total), length, st)
        return red.reduce(L, ew.to_lazy(L, arr), st, fixed(idx), [axis])

    def in_order():
        if st.is_complex:       # (the rows' additions below are real ones)
            fill(L, out, out_dims, ordered)
            return
        by_rows(L, [_shape(arr, k) for k in range(nd)], axis,
                lambda: fill(L, out, out_dims, ordered),
                lambda: accumulate_axis(red, L, ew.to_lazy(L, arr), st, out, axis, keep))
    s1, _ = L.sub_block(lambda: fill(L, out, out_dims, pairwise))
    s2, _ = L.sub_block(in_order)
    L.emit(N.If(cond=lanes, then=s1, orelse=s2))
    return out


def complex_whole(red, L, arr, st):
    """The whole ``np.sum``/``np.mean`` of the N-D complex array ``arr``: of a C-
    or F-contiguous one (one lane of memory to NumPy's iterator) NumPy's complex
    pairwise sum of its memory, else added in index order; a mean divided as
    NumPy's complex division by the count."""
    from .reductions import Reduction
    res = L.temp(st, "total")
    whole = _or(contiguous(L, arr, "C"), contiguous(L, arr, "F"))

    def flat():
        mem, _ = memory_view(L, arr, "np.sum")
        L.emit(N.Assign(target=res, value=red.complex_pairwise(L, mem, st)))

    def ordered():
        # any strides: NumPy's lanes and buffer fills (``complex_pairwise``)
        from ..statistics import complex_pairwise as cp
        nd = arr.type.ndim
        dims = [L.let(_shape(arr, k)) for k in range(nd)]
        strides = [L.let(_stride(arr, k)) for k in range(nd)]
        size = L.let(_total(dims))
        item = st.bits // 8
        whole_items = True
        for s in strides:
            whole_items = _and(whole_items, N.Cmp("eq", N.BinOp("srem", s, C(item, I), I),
                                                  C(0, I), T.BOOL))
        c = st.component

        def lanes():
            parts = L.let(L.call_helper(cp.strided_parts_sum, strided_args(
                L, arr, dims, strides, size) + [C(0.0, c)]))
            return L.let(N.MakeComplex(N.TupleGet(parts, 0, c), N.TupleGet(parts, 1, c), st))

        def in_order():
            z = ew.to_lazy(L, arr)
            return L.let(Reduction("sum", ()).reduce(L, z, st, {}, list(range(nd))))
        total = L.temp(st, "lanes")
        for branch, make in (("lanes", lanes), ("in_order", in_order)):
            stmts, v = L.sub_block(make)
            if branch == "lanes":
                s_lanes = stmts + [N.Assign(target=total, value=v)]
            else:
                s_order = stmts + [N.Assign(target=total, value=v)]
        if whole_items is True:
            L.out.extend(s_lanes)
        else:
            L.emit(N.If(cond=whole_items, then=s_lanes, orelse=s_order))
        L.emit(N.Assign(target=res, value=red.complex_mean_of(
            L, N.Var(total, st), size, st)))
    s1, _ = L.sub_block(flat)
    s2, _ = L.sub_block(ordered)
    if whole is True:
        L.out.extend(s1)
    else:
        L.emit(N.If(cond=_cond(whole), then=s1, orelse=s2))
    return N.Var(res, st)


def memory_view(L, arr, what):
    """A 1-D view of ``arr``'s memory from its lowest element, and the index of
    ``arr[0, ..., 0]`` in it.  (Strides that are not whole items, views of
    structured data, leave ``what`` to the interpreter.)"""
    from ..python.helpers import Deopt
    t = arr.type
    item = max(1, t.dtype.bits // 8)    # (bool: one byte)
    lo, hi, size = C(0, I), C(0, I), C(1, I)
    for ax in range(t.ndim):
        n = L.let(N.ArrayAttr(arr, "shape", ax, I))
        s = L.let(N.ArrayAttr(arr, "stride", ax, I))
        L.raise_if(N.Cmp("ne", N.BinOp("srem", s, C(item, I), I), C(0, I), T.BOOL), Deopt,
                   f"{what} of an array whose strides are not whole items")
        reach = L.let(N.BinOp("mul", N.BinOp("sub", n, C(1, I), I), s, I))
        neg = N.Cmp("lt", reach, C(0, I), T.BOOL)
        lo = N.BinOp("add", lo, N.Select(neg, reach, C(0, I), I), I)
        hi = N.BinOp("add", hi, N.Select(neg, C(0, I), reach, I), I)
        size = N.BinOp("mul", size, n, I)
    empty = L.let(N.Cmp("eq", size, C(0, I), T.BOOL))
    lo = L.let(N.Select(empty, C(0, I), lo, I))
    span = L.let(N.Select(empty, C(0, I), N.BinOp(
        "add", N.BinOp("sdiv", N.BinOp("sub", hi, lo, I), C(item, I), I), C(1, I), I), I))
    mem = L.let(N.ArrayView(arr, lo, [span], [C(item, I)], T.ArrayType(t.dtype, 1, "C")))
    return mem, L.let(N.BinOp("sdiv", N.BinOp("sub", C(0, I), lo, I), C(item, I), I))


def numpy_temporary(L, z):
    """The temporary NumPy's ufunc makes for the expression ``z`` before a
    reduction sums it, with NumPy's memory order: C-ordered when its operands
    are C-compatible or one is C-contiguous of the result's shape, else
    F-ordered when all are F-compatible, else in the order NumPy's ufuncs give
    it (``tree_temporary``; decided at run time where the types leave it open;
    mixes of unknown tree are made C-ordered).  One allocation; an N-D result
    is an any-layout view of it (``complex_sums``: complex sums of expressions
    are NumPy's sums of this array)."""
    from .creation import allocate, fill
    from .tree_temporary import check_in_place, general_tree, temporary_strides
    nd = len(z.dims)
    st = z.type.dtype
    if nd == 1 or not z.leaves:
        return ew.materialize(L, z)
    check_in_place(L, z)
    arrays = unique_arrays(z.leaves)
    c_ok = _or(_all_c_compatible(L, arrays, z.dims), _any_c_contiguous(L, arrays, z.dims))
    f_ok = True
    for a in arrays:
        f_ok = _and(f_ok, _f_compatible(L, a, z.dims, len(arrays) == 1))
    general = general_tree(z) is not None
    dims = [L.let(d) for d in z.dims]
    buf = allocate(L, T.ArrayType(st, 1, "C"), [_total(dims)])
    item = st.bits // 8

    def in_order(order):
        # the buffer as a C-ordered array of the axes in memory order, filled
        axes = list(range(nd)) if order == "C" else list(range(nd - 1, -1, -1))
        adims = [dims[k] for k in axes]
        view = L.let(N.ArrayView(buf, C(0, I), adims, _c_strides(L, item, adims),
                                 T.ArrayType(st, nd, "C")))

        def elem(idx):
            full = [None] * nd
            for j, k in enumerate(axes):
                full[k] = idx[j]
            return z.elem(full)
        fill(L, view, adims, elem)
    c_strides = _c_strides(L, item, dims)
    f_strides = _c_strides(L, item, dims[::-1])[::-1]
    if c_ok is True or c_ok is False and f_ok is False and not general:
        in_order("C")
        return L.let(N.ArrayView(buf, C(0, I), dims, c_strides, T.ArrayType(st, nd, "A")))
    chosen = [L.temp(I, "s") for _ in range(nd)]

    def branch(order):
        def build():
            if order == "G":
                strides = temporary_strides(L, z)
                view = L.let(N.ArrayView(buf, C(0, I), dims, strides,
                                         T.ArrayType(st, nd, "A")))
                fill(L, view, dims, z.elem, z.split)
            else:
                in_order(order)
                strides = c_strides if order == "C" else f_strides
            for v, s_ in zip(chosen, strides):
                L.emit(N.Assign(target=v, value=s_))
        return build
    stmts, _ = L.sub_block(branch("G" if general else "C"))
    for c, order in ((f_ok, "F"), (c_ok, "C")):
        if c is True:
            stmts, _ = L.sub_block(branch(order))
        elif c is not False:
            s1, _ = L.sub_block(branch(order))
            stmts = [N.If(cond=c, then=s1, orelse=stmts)]
    for s_ in stmts:
        L.emit(s_)
    return L.let(N.ArrayView(buf, C(0, I), dims, [N.Var(v, I) for v in chosen],
                             T.ArrayType(st, nd, "A")))


def _c_strides(L, item, dims):
    out, step = [None] * len(dims), C(item, I)
    for k in range(len(dims) - 1, -1, -1):
        out[k] = step
        step = L.let(N.BinOp("mul", step, dims[k], I))
    return out
