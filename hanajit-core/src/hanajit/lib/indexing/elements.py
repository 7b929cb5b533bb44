"""Array indexing semantics as primitive IR: negative indices wrap once, indices
are bounds-checked (IndexError with NumPy's message) unless
``@jit(boundscheck=False)``, element assignment converts like NumPy."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python import int_overflow
from ..python import operators as ops
from ..python.operators import C


def index_values(L, index: N.Expr, itype: T.Type) -> list:
    """The lowered index expressions of ``a[index]`` (a tuple means several)."""
    if isinstance(itype, T.TupleType):
        if isinstance(index, N.MakeTuple):
            return list(index.items)
        if isinstance(index, N.Const):
            return [C(v, t) for v, t in zip(index.value, itype.items)]
        tup = L.let(index)
        return [N.TupleGet(tup, k, t) for k, t in enumerate(itype.items)]
    return [index]


def checked_indices(L, arr: N.Expr, idxs: list) -> list:
    """Normalise negative indices and check bounds; return int64 indices."""
    return checked_indices_axes(L, arr, list(enumerate(idxs)))


def checked_indices_axes(L, arr: N.Expr, pairs: list) -> list:
    """``checked_indices`` for (axis, index) pairs."""
    out = []
    check = L.ctx.options.get("boundscheck", True) if L.ctx is not None else True
    if check is None:
        check = True
    if getattr(L, "fn", None) is not None and L.fn.unchecked:
        # a library helper whose indices are in range by construction
        return [ops.convert_wrap(i, T.INT64) if i.type != T.INT64 else i for _, i in pairs]
    for axis, i in pairs:
        i = ops.convert_wrap(ops.convert(L, i, T.INT64) if i.type.is_bool else i, T.INT64) \
            if i.type != T.INT64 else i
        dim = N.ArrayAttr(arr, "shape", axis, T.INT64)
        if isinstance(i, N.Const) and i.value >= 0:
            j = i
        elif int_overflow.rising(L, i):       # never negative: no wrap
            j = i = L.let(i)
        else:
            i = L.let(i)
            j = L.let(N.Select(N.Cmp("lt", i, C(0, T.INT64), T.BOOL),
                               N.BinOp("add", i, dim, T.INT64), i, T.INT64))
        if check:
            bad = N.Cmp("ge", N.Cast(j, T.UINT64), N.Cast(dim, T.UINT64), T.BOOL)
            L.emit(N.If(cond=bad, then=[N.Raise(
                exc=IndexError, args=[i, dim],
                message=f"index {{}} is out of bounds for axis {axis} with size {{}}")]))
        out.append(j)
    return out


def element_value(L, value: N.Expr, dtype: T.Scalar) -> N.Expr:
    """A value converted for storing into an array of ``dtype`` (NumPy casting:
    ints wrap, floats truncate toward zero with NaN/inf refused)."""
    t = value.type
    if t == dtype:
        return value
    if dtype.is_bool:
        return ops.truth(L, value)
    if t.is_int and dtype.is_int or t.is_bool:
        return ops.convert_wrap(value, dtype)     # (bool -> complex: MakeComplex)
    return ops.convert(L, value, dtype)


def setitem_value(L, value: N.Expr, dtype: T.Scalar, python=True) -> N.Expr:
    """A scalar converted for ``a[...] = value`` (element, slice, mask or index
    array, ``a.fill``) as NumPy's setitem converts it.  ``python``: whether the
    value is a Python number (the statement's ``weak_value``; ``"cast"``: a NumPy
    scalar stored through index arrays or a mask, which NumPy casts as arrays).

    Into an integer array, a Python float -- and any scalar into a *signed*
    integer array -- goes through a Python int: truncated, then range-checked
    (``operators.setitem_float_to_int``; "Python integer 300 out of bounds for
    int8", "Python int too large to convert to C long" for a uint64 past
    int64), where NumPy raises; a NumPy scalar into an *unsigned* array is cast
    as arrays are (``array_cast``: ``np.float64(-1.5)`` gives 255 in uint8).
    (Python ints were checked against the dtype before: ``python_int_fits``.)"""
    if python == "cast":            # through index arrays or a mask: as arrays cast
        return array_cast(L, value, dtype)
    t = value.type
    if dtype.is_int and not t.is_bool:
        if not python and not dtype.is_signed:
            return array_cast(L, value, dtype)
        if t.is_float:
            return ops.setitem_float_to_int(L, value, dtype)
        if t.is_int and not python:
            return _signed_store(L, value, dtype)
    return element_value(L, value, dtype)


def flat_store_value(L, value: N.Expr, dtype: T.Scalar, python: bool) -> N.Expr:
    """A scalar converted as NumPy converts one it assigns through a flat or
    index selection (``np.put``, ``np.fill_diagonal``, ``a[idx] = v``): a Python
    number as setitem converts it (must fit; a float truncated first), a NumPy
    scalar cast as arrays are."""
    if not python:
        return array_cast(L, value, dtype)
    return python_number_value(L, value, dtype)


def python_number_value(L, value: N.Expr, dtype: T.Scalar) -> N.Expr:
    """A Python number stored into an array of ``dtype`` as NumPy's setitem
    stores it: an int must fit (``python_int_fits``), a float is truncated and
    checked (``setitem_value``)."""
    if value.type == T.INT64 and dtype.is_int:
        from ..arrays.elementwise import python_int_fits
        value = python_int_fits(L, [value], dtype)[0]
    return setitem_value(L, value, dtype, python=True)


def _signed_store(L, value, dtype):
    """A NumPy integer scalar stored into a signed integer array: as a Python
    int, which must fit."""
    t = value.type
    value = L.let(value)
    if t == T.UINT64:
        L.raise_if(N.Cmp("lt", N.Cast(value, T.INT64), C(0, T.INT64), T.BOOL),
                   OverflowError, "Python int too large to convert to C long")
        value = L.let(N.Cast(value, T.INT64))
    lo, hi = T.int_range(dtype)
    tlo, thi = T.int_range(value.type)
    if tlo < lo or thi > hi:
        wide = L.let(ops.convert_wrap(value, T.INT64))
        L.emit(N.If(cond=ops.bor(N.Cmp("lt", wide, C(lo, T.INT64), T.BOOL),
                                 N.Cmp("gt", wide, C(hi, T.INT64), T.BOOL)),
                    then=[N.Raise(exc=OverflowError, args=[wide],
                                  message=f"Python integer {{}} out of bounds for int{dtype.bits}")]))
    return ops.convert_wrap(value, dtype)


def array_cast(L, value: N.Expr, dtype: T.Scalar) -> N.Expr:
    """An element of an array converted as NumPy casts arrays (``astype``,
    ``a[:] = b``, ``np.array(b, dtype=)``): a complex keeps its real part, a float
    becomes an integer by C's conversion, never raising
    (``operators.np_float_to_int``); otherwise as :func:`element_value`.  (A
    scalar stored into an array converts as Python does: ``element_value``.)"""
    if value.type.is_complex and not dtype.is_complex and not dtype.is_bool:
        value = N.ComplexPart(L.let(value), "real", value.type.component)
    if value.type.is_float and dtype.is_int:
        return ops.np_float_to_int(L, value, dtype)
    return element_value(L, value, dtype)


def broadcast_check(L, src: N.Expr, dst_dims: list, drop_ones=False, output=False):
    """Raise ValueError unless ``src``'s shape broadcasts to ``dst_dims``."""
    broadcast_dims_check(L, [N.ArrayAttr(src, "shape", k, T.INT64)
                             for k in range(src.type.ndim)], dst_dims, drop_ones, output)


def shape_text(ndim: int) -> str:
    """A shape as NumPy's messages print it, ``(3,)`` or ``(2,3)``, with a ``{}``
    per axis for the values of a ``Raise``."""
    return "(" + ",".join(["{}"] * ndim) + ("," if ndim == 1 else "") + ")"


def broadcast_dims_check(L, src_dims: list, dst_dims: list, drop_ones=False, output=False):
    """Raise NumPy's ValueError unless the shape ``src_dims`` broadcasts to
    ``dst_dims``.  With ``drop_ones`` (assignment: NumPy's setitem) extra leading
    axes are allowed when they have length 1.  ``output``: ``dst`` is an in-place
    operation's output (``a += b``), NumPy's "non-broadcastable output operand"."""
    extra = len(src_dims) - len(dst_dims)
    bad = None
    for k in range(max(extra, 0)):
        c = N.Cmp("ne", src_dims[k], C(1, T.INT64), T.BOOL) if drop_ones else C(True, T.BOOL)
        bad = c if bad is None else ops.bor(bad, c)
    off = len(dst_dims) - len(src_dims)
    for k, sd in enumerate(src_dims):
        if off + k < 0:
            continue
        c = ops.logical_not(ops.bor(N.Cmp("eq", sd, dst_dims[off + k], T.BOOL),
                                    N.Cmp("eq", sd, C(1, T.INT64), T.BOOL)))
        bad = c if bad is None else ops.bor(bad, c)
    if bad is None:
        return
    if len(src_dims) + len(dst_dims) > 3:
        # a raise carries three integers (errors.kernel_message): NumPy's
        # message with both shapes needs more, so the axis that fails is named
        _axis_checks(L, src_dims, dst_dims, drop_ones, output)
        return
    if output:
        message = (f"non-broadcastable output operand with shape {shape_text(len(dst_dims))} "
                   f"doesn't match the broadcast shape {shape_text(len(src_dims))}")
        args = list(dst_dims) + list(src_dims)
    else:
        message = (f"could not broadcast input array from shape "
                   f"{shape_text(len(src_dims))} into shape {shape_text(len(dst_dims))}")
        args = list(src_dims) + list(dst_dims)
    L.emit(N.If(cond=bad, then=[N.Raise(exc=ValueError, args=args, message=message)]))


def _axis_checks(L, src_dims, dst_dims, drop_ones, output):
    what = ("non-broadcastable output operand" if output
            else "could not broadcast input array")
    extra = len(src_dims) - len(dst_dims)
    for k in range(max(extra, 0)):
        c = N.Cmp("ne", src_dims[k], C(1, T.INT64), T.BOOL) if drop_ones else C(True, T.BOOL)
        L.emit(N.If(cond=c, then=[N.Raise(
            exc=ValueError, args=[src_dims[k]],
            message=f"{what} from shape with {{}} on axis {k} into a "
                    f"{len(dst_dims)}-D array")]))
    off = len(dst_dims) - len(src_dims)
    for k, sd in enumerate(src_dims):
        if off + k < 0:
            continue
        ok = ops.bor(N.Cmp("eq", sd, dst_dims[off + k], T.BOOL),
                     N.Cmp("eq", sd, C(1, T.INT64), T.BOOL))
        L.emit(N.If(cond=ops.logical_not(ok), then=[N.Raise(
            exc=ValueError, args=[sd, dst_dims[off + k]],
            message=f"{what} from shape with {{}} on axis {k} into shape with {{}}")]))


def assign_to_view(L, view: N.Expr, value: N.Expr, python=True):
    """``view[...] = value``: a scalar fills, an array is broadcast and copied
    (straight in, or through a temporary when its memory overlaps the view's, so
    overlapping memory gives NumPy's result).  A gather
    (``m[idx, j] = value``) scatters instead."""
    from .fancy_nd import FancyLazy
    from ..arrays.creation import allocate, fill
    if isinstance(view, FancyLazy):
        view.store(L, value, python)
        return
    vt = view.type
    view = L.let(view)
    dims = [L.let(N.ArrayAttr(view, "shape", k, T.INT64)) for k in range(vt.ndim)]
    if isinstance(value.type, T.Scalar):
        v = L.let(setitem_value(L, value, vt.dtype, python))
        fill(L, view, dims, lambda idx: v)
        return
    from ..arrays import elementwise as ew

    def from_lazy(z):
        extra = len(z.dims) - len(dims)
        if extra > 0:       # leading length-1 axes (checked), dropped as NumPy does
            inner = z
            z = ew.Lazy(T.ArrayType(z.type.dtype, len(dims), "C"), z.dims[extra:],
                        lambda idx: inner.elem([C(0, T.INT64)] * extra + list(idx)),
                        sources=z.sources)
        elem = ew.reindex(z, dims)
        fill(L, view, dims, lambda idx: array_cast(L, elem(idx), vt.dtype))

    def through_memory():
        fresh = isinstance(value, ew.Lazy)      # computed now: it cannot alias the view
        src = L.let(ew.materialize(L, value))
        broadcast_check(L, src, dims, drop_ones=True)
        sdims = [L.let(N.ArrayAttr(src, "shape", k, T.INT64))
                 for k in range(src.type.ndim)]
        tmp = src
        if not fresh:
            tmp = allocate(L, src.type.copy(layout="C", readonly=False), sdims)
            fill(L, tmp, sdims, lambda idx: N.Load(src, idx, src.type.dtype))
        from_lazy(ew.Lazy(tmp.type, sdims,
                          lambda idx: N.Load(tmp, list(idx), tmp.type.dtype)))

    # an array value is read element by element like an expression of it
    plain = not isinstance(value, ew.Lazy)
    if plain:
        value = L.let(value)
    lazy = value if isinstance(value, ew.Lazy) else ew.to_lazy(L, value)
    if plain and vt.ndim == 1 and value.type.ndim == 1 and value.type.dtype == vt.dtype:
        conflict = _conflict(L, view, dims, [value])
        if conflict is not None:
            # NumPy copies a 1-D array into a 1-D view whose strides point the
            # same way without a temporary, in its own order (below)
            direct, _ = L.sub_block(lambda: from_lazy(lazy))
            broadcast_dims_check(L, lazy.dims, dims, drop_ones=True)
            buffered, _ = L.sub_block(through_memory)
            ordered, _ = L.sub_block(lambda: _numpy_order_copy(L, view, dims[0], value))
            n_src = N.ArrayAttr(value, "shape", 0, T.INT64)
            ds = N.ArrayAttr(view, "stride", 0, T.INT64)
            ss = N.ArrayAttr(value, "stride", 0, T.INT64)
            same_way = ops.band(N.Cmp("eq", n_src, dims[0], T.BOOL), ops.bor(
                ops.band(N.Cmp("gt", ds, C(0, T.INT64), T.BOOL),
                         N.Cmp("gt", ss, C(0, T.INT64), T.BOOL)),
                ops.band(N.Cmp("lt", ds, C(0, T.INT64), T.BOOL),
                         N.Cmp("lt", ss, C(0, T.INT64), T.BOOL))))
            L.emit(N.If(cond=conflict, then=[N.If(cond=same_way, then=ordered,
                                                  orelse=buffered)], orelse=direct))
            return
    if lazy.sources is not None:
        # Written straight into the view when every array the expression reads
        # either lies elsewhere in memory or is the view itself (each element read
        # just before it is written) -- NumPy's result without a temporary.  Not
        # when an element can raise: NumPy would leave the view untouched.
        direct, _ = L.sub_block(lambda: from_lazy(lazy))
        if not any(isinstance(s, N.Raise) for s in N.walk_stmts(direct)):
            broadcast_dims_check(L, lazy.dims, dims, drop_ones=True)
            conflict = _conflict(L, view, dims, lazy.sources)
            if conflict is None:
                for s in direct:
                    L.emit(s)
                return
            buffered, _ = L.sub_block(through_memory)
            L.emit(N.If(cond=conflict, then=buffered, orelse=direct))
            return
    through_memory()


def _numpy_order_copy(L, view, n, src):
    """``view[:] = src`` for 1-D arrays of one dtype and length ``n`` whose
    strides point the same way, in the order of NumPy's raw copy loop
    (``PyArray_AssignArray`` makes no temporary for them, so where the two share
    memory an element read after it was written is read so, as in NumPy): in
    increasing address order of ``view``, backwards when ``src`` starts below
    ``view`` and reaches into it."""
    ds = L.let(N.ArrayAttr(view, "stride", 0, T.INT64))
    ss = L.let(N.ArrayAttr(src, "stride", 0, T.INT64))
    last = N.BinOp("sub", n, C(1, T.INT64), T.INT64)
    flip = L.let(N.Cmp("lt", ds, C(0, T.INT64), T.BOOL))

    def low(arr, stride):
        data = N.ArrayAttr(arr, "data", 0, T.INT64)
        return N.Select(flip, N.BinOp("add", data, N.BinOp("mul", stride, last, T.INT64),
                                      T.INT64), data, T.INT64)
    d0, s0 = L.let(low(view, ds)), L.let(low(src, ss))
    step = N.Select(flip, N.UnOp("neg", ss, T.INT64), ss, T.INT64)
    backward = ops.band(N.Cmp("lt", s0, d0, T.BOOL), N.Cmp(
        "gt", N.BinOp("add", s0, N.BinOp("mul", n, step, T.INT64), T.INT64), d0, T.BOOL))
    ascending = N.Cmp("eq", flip, backward, T.BOOL)

    def loop(index):
        k = L.temp(T.INT64, "k")
        i = N.Var(k, T.INT64)
        at = [index(i)]
        return [N.ForCount(counter=k, count=n, body=[
            N.Store(array=view, indices=at, value=N.Load(src, at, src.type.dtype))])]
    L.emit(N.If(cond=ascending, then=loop(lambda i: i),
                orelse=loop(lambda i: N.BinOp("sub", last, i, T.INT64))))


def _conflict(L, view, dims: list, sources: list):
    """Whether writing ``view`` element by element could change a value one of
    ``sources`` still has to give (None: never)."""
    from ..parallel.regions import ranges_meet
    out = None
    for s in sources:
        st = s.type
        same = None
        if st.ndim == len(dims) and st.dtype == view.type.dtype:
            same = N.Cmp("eq", N.ArrayAttr(s, "data", 0, T.INT64),
                         N.ArrayAttr(view, "data", 0, T.INT64), T.BOOL)
            for k, d in enumerate(dims):
                for attr, v in (("shape", d), ("stride", N.ArrayAttr(view, "stride", k,
                                                                     T.INT64))):
                    same = ops.band(same, N.Cmp("eq", N.ArrayAttr(s, attr, k, T.INT64),
                                                v, T.BOOL))
        meet = ranges_meet(L, s, view)
        c = meet if same is None else ops.band(meet, ops.logical_not(same))
        out = c if out is None else ops.bor(out, c)
    return out
