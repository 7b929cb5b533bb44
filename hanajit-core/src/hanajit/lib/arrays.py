"""Array indexing semantics as primitive IR: negative indices wrap once, indices
are bounds-checked (IndexError with NumPy's message) unless
``@jit(boundscheck=False)``, element assignment converts like NumPy."""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from . import operators as ops
from .operators import C


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
    out = []
    check = L.ctx.options.get("boundscheck", True) if L.ctx is not None else True
    for axis, i in enumerate(idxs):
        i = ops.convert_wrap(ops.convert(L, i, T.INT64) if i.type.is_bool else i, T.INT64) \
            if i.type != T.INT64 else i
        dim = N.ArrayAttr(arr, "shape", axis, T.INT64)
        if isinstance(i, N.Const) and i.value >= 0:
            j = i
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
        return N.Cast(value, dtype)
    return ops.convert(L, value, dtype)
