"""Advanced indexing entry points: types and lowering of ``a[index]`` /
``a[index] = v`` where the index holds integer or boolean arrays.

A boolean mask of the array's shape (``a[a > 0]``, ``m[mask] = 0``) takes the
one-pass paths here; every other advanced index -- integer arrays on any axes,
``m[rowmask]``, mixes with integers and slices -- is the general gather/scatter
of :mod:`hanajit.lib.indexing.fancy_nd` (NumPy's rules, written down there)."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from . import fancy_nd
from .elements import setitem_value
from ..arrays.creation import allocate
from ..python.operators import C
from ..arrays.reductions import loops

I = T.INT64


def fancy_type(arr: T.ArrayType, idx):
    """Result type of ``arr[idx]`` for an advanced index (integer or boolean arrays,
    alone or in a tuple), or None for basic indexing."""
    if _full_mask(arr, idx):
        return T.ArrayType(arr.dtype, 1, "C")
    entries = fancy_nd.plan(arr, idx)
    if entries is None:
        return None
    return fancy_nd.result_type(arr, entries)


def _full_mask(arr, idx) -> bool:
    """``a[mask]`` with a boolean array of the array's shape (the fast path)."""
    return isinstance(idx, T.ArrayType) and idx.dtype.is_bool and idx.ndim == arr.ndim \
        and idx.ndim > 0


def getitem(L, arr, index, index_type):
    """``arr[index]`` for an advanced index: a new array (boolean mask of the
    array's shape) or a :class:`fancy_nd.FancyLazy` gather."""
    if not _full_mask(arr.type, index_type):
        return fancy_nd.gather(L, arr, index, index_type, fancy_nd.plan(arr.type, index_type))
    rt = fancy_type(arr.type, index_type)
    arr = L.let(arr)
    z = ew.to_lazy(L, index)
    fancy_nd.mask_shape_check(L, arr, z)
    m = L.let(ew.materialize(L, z)) if not isinstance(index, N.Var) else index
    mz = ew.to_lazy(L, m)
    count = L.temp(I, "n")
    L.emit(N.Assign(target=count, value=C(0, I)))
    loops(L, mz.dims, lambda idx: L.emit(N.Assign(target=count, value=N.BinOp(
        "add", N.Var(count, I), N.Cast(mz.elem(idx), I), I))))
    out = allocate(L, rt, [N.Var(count, I)])
    k = L.temp(I, "k")
    L.emit(N.Assign(target=k, value=C(0, I)))

    def body(idx):
        L.emit(N.If(cond=mz.elem(idx), then=[
            N.Store(array=out, indices=[N.Var(k, I)],
                    value=N.Load(arr, list(idx), arr.type.dtype)),
            N.Assign(target=k, value=N.BinOp("add", N.Var(k, I), C(1, I), I))]))
    loops(L, mz.dims, body)
    return out


def setitem(L, arr, index, value, python=True):
    """``arr[index] = value`` for an array ``index`` (called by lower_semantics).
    A scalar stored through a mask of the array's shape is one pass; everything
    else is the scatter of :mod:`fancy_nd` (which reads an array value completely
    before storing, so a value aliasing ``arr`` gives NumPy's result)."""
    scalar = isinstance(value.type, T.Scalar) and not isinstance(value, ew.Lazy)
    if not (scalar and _full_mask(arr.type, index.type)):
        fancy_nd.gather(L, arr, index, index.type, fancy_nd.plan(arr.type, index.type)) \
            .store(L, value, python)
        return
    arr = L.let(arr)
    v = L.let(setitem_value(L, value, arr.type.dtype, python))
    z = ew.to_lazy(L, index)
    fancy_nd.mask_shape_check(L, arr, z)
    loops(L, z.dims, lambda idx: L.emit(N.If(cond=z.elem(idx), then=[
        N.Store(array=arr, indices=list(idx), value=v)])))
