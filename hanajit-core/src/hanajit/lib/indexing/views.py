"""Basic indexing of arrays: integers, slices, ``...`` and ``np.newaxis``.

``a[i, j]`` with an integer per axis reads an element; anything else makes a view
sharing the array's memory (``m[i]`` a row, ``a[1:-1]``, ``m[:, ::2]``,
``a[..., None]``).  Slice bounds follow Python's ``slice.indices`` exactly.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C

I = T.INT64


def _kind(t) -> str:
    if isinstance(t, T.Scalar) and t.is_bool:
        # NumPy reads a boolean scalar as a 0-d mask (a new axis of length 1 or 0,
        # and a copy), not as the integer 0 or 1
        raise Incompatible("a boolean scalar as an array index")
    if isinstance(t, T.Scalar) and t.is_int:
        return "int"
    if isinstance(t, T.SliceType):
        return "slice1" if t.unit else "slice"
    if t == T.NONE:
        return "newaxis"
    if isinstance(t, T.ConstType) and t.value is Ellipsis:
        return "ellipsis"
    if isinstance(t, T.ArrayType):
        raise Incompatible("indexing with an array (fancy indexing) is not supported yet")
    raise Incompatible(f"index of type {t}")


def expand(arr: T.ArrayType, items: list) -> list:
    """Index item kinds with ``...`` expanded and missing trailing axes as ``:``."""
    kinds = [_kind(t) for t in items]
    if kinds.count("ellipsis") > 1:
        raise Incompatible("an index can only have a single ellipsis")
    used = sum(1 for k in kinds if k in ("int", "slice", "slice1"))
    if used > arr.ndim:
        raise Incompatible(f"too many indices for a {arr.ndim}-D array")
    out = []
    for k in kinds:
        if k == "ellipsis":
            out.extend(["full"] * (arr.ndim - used))
        else:
            out.append(k)
    used_after = sum(1 for k in out if k in ("int", "slice", "slice1", "full"))
    out.extend(["full"] * (arr.ndim - used_after))
    return out


def bool_scalar(index_type) -> bool:
    """``a[True]`` / ``a[b]`` with one boolean number as the whole index: NumPy's
    0-d mask, a new first axis of length 1 or 0 (a copy when read)."""
    return isinstance(index_type, T.Scalar) and index_type.is_bool


def result_type(arr: T.ArrayType, index_type) -> T.Type:
    from .fancy import fancy_type
    if bool_scalar(index_type):
        return T.ArrayType(arr.dtype, arr.ndim + 1, "C")
    ft = fancy_type(arr, index_type)
    if ft is not None:
        return ft
    items = list(index_type.items) if isinstance(index_type, T.TupleType) else [index_type]
    kinds = expand(arr, items)
    # every axis taken by an integer: a scalar -- unless the index has ``...``,
    # which keeps a 0-d view (``a[...]`` of a 0-d array, ``v[1, ...]``)
    if all(k == "int" for k in kinds) and len(kinds) == arr.ndim and \
            "ellipsis" not in map(_kind, items):
        return arr.dtype
    ndim = sum(1 for k in kinds if k != "int")
    return arr.copy(ndim=ndim, layout=_layout(arr, kinds))


def _layout(arr: T.ArrayType, kinds: list) -> str:
    """C-contiguity survives leading integer indices, then one slice, then full axes.
    (A leading slice with a step is strided, so the slice is only kept contiguous
    when it is full; a plain ``a[i:j]`` is marked "A" unless its step is 1, which
    the lowering cannot know statically -- so be conservative.)"""
    if arr.layout != "C" or "newaxis" in kinds:
        return "A"
    seen_slice = False
    for k in kinds:
        if k == "int" and not seen_slice:
            continue
        if k == "slice1" and not seen_slice:
            seen_slice = True
            continue
        if k == "full":
            seen_slice = True
            continue
        return "A"
    return "C"


def slice_bounds(L, sl: N.Expr, length: N.Expr):
    """(start, step, count) of ``sl`` on an axis of ``length`` (Python semantics)."""
    start, stop, step = sl.start, sl.stop, sl.step
    none = (lambda e: isinstance(e, N.Const) and e.value is None)
    if none(step):
        step_v = C(1, I)
    else:
        step_v = L.let(ops.convert_wrap(ops.convert(L, step, I) if step.type.is_bool else step, I))
        L.raise_if(N.Cmp("eq", step_v, C(0, I), T.BOOL), ValueError, "slice step cannot be zero")
    length = L.let(length)
    neg = None if isinstance(step_v, N.Const) else L.let(N.Cmp("lt", step_v, C(0, I), T.BOOL))
    const_neg = isinstance(step_v, N.Const) and step_v.value < 0

    def pick(a, b):           # a if the step is negative else b
        if neg is None:
            return a if const_neg else b
        return N.Select(neg, a, b, I)

    def adjust(v, default):
        if none(v):
            return default
        v = L.let(ops.convert_wrap(v, I))
        lower = pick(C(-1, I), C(0, I))
        upper = pick(N.BinOp("sub", length, C(1, I), I), length)
        wrapped = L.let(N.BinOp("add", v, length, I))
        low = N.Select(N.Cmp("lt", wrapped, C(0, I), T.BOOL), lower, wrapped, I)
        high = N.Select(N.Cmp("ge", v, length, T.BOOL), upper, v, I)
        return L.let(N.Select(N.Cmp("lt", v, C(0, I), T.BOOL), low, high, I))

    start_v = adjust(start, pick(N.BinOp("sub", length, C(1, I), I), C(0, I)))
    stop_v = adjust(stop, pick(C(-1, I), length))
    start_v, stop_v = L.let(start_v), L.let(stop_v)
    # count: step > 0: (stop - start - 1) // step + 1 if start < stop else 0
    up = N.Select(N.Cmp("lt", start_v, stop_v, T.BOOL),
                  N.BinOp("add", N.BinOp("sdiv", N.BinOp("sub", N.BinOp(
                      "sub", stop_v, start_v, I), C(1, I), I), step_v, I), C(1, I), I),
                  C(0, I), I)
    down = N.Select(N.Cmp("lt", stop_v, start_v, T.BOOL),
                    N.BinOp("add", N.BinOp("sdiv", N.BinOp("sub", N.BinOp(
                        "sub", start_v, stop_v, I), C(1, I), I),
                        N.UnOp("neg", step_v, I), I), C(1, I), I),
                    C(0, I), I)
    count = L.let(pick(down, up))
    return start_v, step_v, count


def lower_index(L, arr: N.Expr, index: N.Expr, index_type, write=False) -> N.Expr:
    """``arr[index]`` as a Load (all integers) or an ArrayView (``write``: the
    view an assignment ``arr[index] = v`` writes through)."""
    from .elements import checked_indices
    from .fancy import fancy_type, getitem
    if fancy_type(arr.type, index_type) is not None:
        return getitem(L, arr, index, index_type)
    at = arr.type
    arr = L.let(arr)
    if bool_scalar(index_type):
        return _bool_index(L, arr, index, write)
    if isinstance(index_type, T.TupleType):
        if isinstance(index, N.MakeTuple):
            items = list(index.items)
        elif isinstance(index, N.Const):
            items = [C(v, t) for v, t in zip(index.value, index_type.items)]
        else:
            tup = L.let(index)
            items = [N.TupleGet(tup, k, t) for k, t in enumerate(index_type.items)]
        types = list(index_type.items)
    else:
        items, types = [index], [index_type]
    kinds = expand(at, types)
    # pair each expanded kind with its expression
    exprs = []
    it = iter(zip(items, types))
    for k in kinds:
        if k == "full":
            exprs.append(None)
            continue
        e, t = next(it)
        while _kind(t) == "ellipsis":
            e, t = next(it)
        exprs.append(e)
    if not isinstance(result_type(at, index_type), T.ArrayType):
        return N.Load(arr, checked_indices(L, arr, exprs), at.dtype)
    offset = C(0, I)
    shape, strides = [], []
    axis = 0
    for k, e in zip(kinds, exprs):
        if k == "newaxis":
            shape.append(C(1, I))
            strides.append(C(0, I))
            continue
        dim = N.ArrayAttr(arr, "shape", axis, I)
        stride = N.ArrayAttr(arr, "stride", axis, I)
        if k == "int":
            j = checked_index_on_axis(L, arr, e, axis)
            offset = N.BinOp("add", offset, N.BinOp("mul", j, stride, I), I)
        elif k == "full":
            shape.append(dim)
            strides.append(stride)
        else:      # slice or slice1
            start, step, count = slice_bounds(L, e, dim)
            offset = N.BinOp("add", offset, N.BinOp("mul", start, stride, I), I)
            shape.append(count)
            strides.append(stride if isinstance(step, N.Const) and step.value == 1
                           else N.BinOp("mul", stride, step, I))
        axis += 1
    rt = at.copy(ndim=len(shape), layout=_layout(at, kinds))
    # an empty slice may start one past the end: keep the offset in range
    return N.ArrayView(arr, L.let(offset), [L.let(s) for s in shape], strides, rt)


def _bool_index(L, arr, b, write):
    """``arr[b]``, ``b`` a boolean number: the view ``arr[np.newaxis]`` cut to
    ``int(b)`` rows -- written through by an assignment, copied when read."""
    at = arr.type
    shape = [L.let(N.Select(b, C(1, I), C(0, I), I))]
    shape += [N.ArrayAttr(arr, "shape", k, I) for k in range(at.ndim)]
    strides = [C(0, I)] + [N.ArrayAttr(arr, "stride", k, I) for k in range(at.ndim)]
    view = N.ArrayView(arr, C(0, I), [L.let(d) for d in shape], strides,
                       at.copy(ndim=at.ndim + 1, layout="A"))
    if write:
        return view
    from ..arrays import elementwise as ew
    from ..arrays.methods import copy_array
    return copy_array(L, ew.to_lazy(L, L.let(view)), T.ArrayType(at.dtype, at.ndim + 1, "C"))


def checked_index_on_axis(L, arr, e, axis):
    """One integer index normalised and checked on ``axis``."""
    from .elements import checked_indices_axes
    return checked_indices_axes(L, arr, [(axis, e)])[0]


def unpack(L, arr: N.Expr, n: int, tuple_type) -> N.Expr:
    """``a, b = arr``: the ``n`` items along the first axis (views, or elements of a
    1-D array), after CPython's length check of an iterable's unpacking."""
    length = L.let(N.ArrayAttr(arr, "shape", 0, T.INT64))
    for got in range(n):
        L.raise_if(N.Cmp("eq", length, N.Const(got, T.INT64), T.BOOL), ValueError,
                   f"not enough values to unpack (expected {n}, got {got})")
    L.raise_if(N.Cmp("gt", length, N.Const(n, T.INT64), T.BOOL), ValueError,
               f"too many values to unpack (expected {n})")
    return N.MakeTuple([L.let(lower_index(L, arr, N.Const(i, T.INT64), T.INT64))
                        for i in range(n)], tuple_type)
