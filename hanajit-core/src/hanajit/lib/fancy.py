"""Boolean-mask and integer-array indexing: ``a[a > 0]``, ``a[mask] = 0``,
``a[idx]`` (gather), ``a[idx] = v`` (scatter; with repeated indices the last write
wins, as in NumPy).  Integer-array indexing is supported on 1-D arrays."""
from __future__ import annotations

from ..infer.rules import Incompatible
from ..ir import nodes as N
from ..ir import types as T
from . import elementwise as ew
from . import operators as ops
from .arrays import checked_indices, element_value
from .numpy_alloc import allocate
from .operators import C
from .reductions import loops

I = T.INT64


def fancy_type(arr: T.ArrayType, idx):
    """Result type of ``arr[idx]`` for an array index, or None if not fancy."""
    if not isinstance(idx, T.ArrayType):
        return None
    if idx.dtype.is_bool:
        if idx.ndim != arr.ndim:
            raise Incompatible("a boolean index must have the array's number of dimensions")
        return T.ArrayType(arr.dtype, 1, "C")
    if not idx.dtype.is_int:
        raise Incompatible(f"arrays used as indices must be of integer or boolean type, "
                           f"not {idx.dtype}")
    if arr.ndim != 1:
        raise Incompatible("integer-array indexing of multi-dimensional arrays is not "
                           "supported yet")
    return T.ArrayType(arr.dtype, idx.ndim, "C")


def _mask_shape_check(L, arr, z):
    for k, d in enumerate(z.dims):
        ad = N.ArrayAttr(arr, "shape", k, I)
        L.emit(N.If(cond=N.Cmp("ne", ad, d, T.BOOL), then=[N.Raise(
            exc=IndexError, args=[ad, d],
            message=f"boolean index did not match indexed array along axis {k}; size "
                    "of axis is {} but size of corresponding boolean axis is {}")]))


def getitem(L, arr, index, rt):
    arr = L.let(arr)
    z = ew.to_lazy(L, index)
    if z.type.dtype.is_bool:
        _mask_shape_check(L, arr, z)
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
    out = allocate(L, rt, z.dims)

    def fill_body(idx):
        j = L.let(ops.convert_wrap(z.elem(idx), I))
        (jj,) = checked_indices(L, arr, [j])
        L.emit(N.Store(array=out, indices=list(idx), value=N.Load(arr, [jj], arr.type.dtype)))
    loops(L, z.dims, fill_body)
    return out


def setitem(L, arr, index, value):
    arr = L.let(arr)
    at = arr.type
    z = ew.to_lazy(L, index)
    scalar = isinstance(value.type, T.Scalar)
    if scalar:
        v = L.let(element_value(L, value, at.dtype))
    else:
        src = L.let(ew.materialize(L, value))
        if src.type.ndim != 1:
            raise Incompatible("assigning a multi-dimensional array through an index array")
        slen = L.let(N.ArrayAttr(src, "shape", 0, I))

    def source(k):
        """The value stored at the k-th selected position (a size-1 source repeats)."""
        if scalar:
            return v
        j = N.Select(N.Cmp("eq", slen, C(1, I), T.BOOL), C(0, I), k, I)
        return element_value(L, N.Load(src, [j], src.type.dtype), at.dtype)

    if z.type.dtype.is_bool:
        _mask_shape_check(L, arr, z)
        if not scalar:
            # as NumPy, the number of values must match the number of True entries
            count = L.temp(I, "n")
            L.emit(N.Assign(target=count, value=C(0, I)))
            loops(L, z.dims, lambda idx: L.emit(N.Assign(target=count, value=N.BinOp(
                "add", N.Var(count, I), N.Cast(z.elem(idx), I), I))))
            bad = ops.band(N.Cmp("ne", slen, N.Var(count, I), T.BOOL),
                           N.Cmp("ne", slen, C(1, I), T.BOOL))
            L.emit(N.If(cond=bad, then=[N.Raise(
                exc=ValueError, args=[slen, N.Var(count, I)],
                message="NumPy boolean array indexing assignment cannot assign {} input "
                        "values to the {} output values where the mask is true")]))
        k = L.temp(I, "k")
        L.emit(N.Assign(target=k, value=C(0, I)))

        def body(idx):
            stmts, val = L.sub_block(lambda: source(N.Var(k, I)))
            then = stmts + [N.Store(array=arr, indices=list(idx), value=val),
                            N.Assign(target=k, value=N.BinOp("add", N.Var(k, I), C(1, I), I))]
            L.emit(N.If(cond=z.elem(idx), then=then))
        loops(L, z.dims, body)
        return
    if not scalar:
        n = L.let(ew_total(z.dims))
        bad = ops.band(N.Cmp("ne", slen, n, T.BOOL), N.Cmp("ne", slen, C(1, I), T.BOOL))
        L.emit(N.If(cond=bad, then=[N.Raise(
            exc=ValueError, args=[slen, n],
            message="shape mismatch: value array of size {} could not be broadcast to "
                    "indexing result of size {}")]))

    def body(idx):
        j = L.let(ops.convert_wrap(z.elem(idx), I))
        (jj,) = checked_indices(L, arr, [j])
        L.emit(N.Store(array=arr, indices=[jj], value=source(idx[-1])))
    loops(L, z.dims, body)


def ew_total(dims):
    from .reductions import total_size
    return total_size(dims)
