"""``np.take_along_axis(arr, indices, axis=-1)`` and ``np.put_along_axis(arr,
indices, values, axis)`` as NumPy computes them: the fancy index of
``_make_along_axis_idx`` (an ``arange`` of each other axis, ``indices`` on
``axis``), its arrays broadcast together.

Along each other axis the lengths of ``arr`` and ``indices`` broadcast (equal, or
one of them 1: NumPy's IndexError otherwise); an index is wrapped once when
negative and must then lie in the axis (IndexError).  ``put_along_axis``
assigns ``values`` (a number or an array broadcast to the index's shape) in the
index's C order, so the last of repeated positions wins, as NumPy's assignment
does; complex values into a real array fall back.  ``axis`` must be a constant
int (``axis=None`` falls back); ``arr`` and ``indices`` of different numbers of
dimensions, indices that are not a signed or small unsigned integer array, fall
back (NumPy raises there)."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..arrays import elementwise as ew
from ..arrays.creation import allocate, fill
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, bound_const, register

I = T.INT64


def _check(name, call, params, arr, ind):
    if not isinstance(arr, T.ArrayType) or not isinstance(ind, T.ArrayType):
        raise Incompatible(f"{name}() of {arr} and {ind} (arrays)")
    if not ind.dtype.is_int or ind.dtype.is_bool or ind.dtype == T.UINT64:
        raise Incompatible(f"{name}() with indices of {ind.dtype} (NumPy's IndexError "
                           "for non-integer indices; uint64 falls back)")
    if arr.ndim != ind.ndim or arr.ndim == 0:
        raise Incompatible(f"{name}(): arr and indices of different numbers of "
                           "dimensions (NumPy's ValueError)")
    nodes = bind_arguments(name, params, call.args, call.kwargs)
    axis = bound_const(call, nodes, "axis", -1 if "axis" not in nodes and
                       name == "np.take_along_axis" else None)
    if type(axis) is not int or not -arr.ndim <= axis < arr.ndim:
        raise Incompatible(f"{name}(): axis must be a constant axis of the array")
    return axis % arr.ndim


def _index_space(L, arr, ind, ax):
    """The broadcast lengths of the fancy index, and per axis a function of the
    loop counters giving ``arr``'s position (``None`` on ``axis``) and
    ``indices``' position."""
    dims, apos, ipos = [], [], []
    for k in range(arr.type.ndim):
        da = L.let(N.ArrayAttr(arr, "shape", k, I))
        di = L.let(N.ArrayAttr(ind, "shape", k, I))
        if k == ax:
            dims.append(di)
        else:
            bad = ops.band(ops.band(N.Cmp("ne", da, di, T.BOOL),
                                    N.Cmp("ne", da, C(1, I), T.BOOL)),
                           N.Cmp("ne", di, C(1, I), T.BOOL))
            L.raise_if(bad, IndexError, "shape mismatch: indexing arrays could not be "
                       "broadcast together")
            dims.append(L.let(N.Select(N.Cmp("eq", da, C(1, I), T.BOOL), di, da, I)))
        apos.append(da)
        ipos.append(di)
    return dims, apos, ipos


def _source(L, arr, ind, ax, idx, alen, ilen):
    """``arr``'s indices for the index position ``idx`` (the index value read,
    wrapped and checked)."""
    iidx = [ew.broadcast_index(i, d) for i, d in zip(idx, ilen)]
    given = L.let(ops.convert_wrap(N.Load(ind, iidx, ind.type.dtype), I))
    n = alen[ax]
    v = L.let(N.Select(N.Cmp("lt", given, C(0, I), T.BOOL), N.BinOp("add", given, n, I),
                       given, I))
    L.emit(N.If(cond=ops.bor(N.Cmp("lt", v, C(0, I), T.BOOL), N.Cmp("ge", v, n, T.BOOL)),
                then=[N.Raise(exc=IndexError, message=f"index {{}} is out of bounds for axis "
                              f"{ax} with size {{}}", args=[given, n], line=L.line)],
                line=L.line))
    return [v if k == ax else ew.broadcast_index(i, d)
            for k, (i, d) in enumerate(zip(idx, alen))]


@register
class TakeAlongAxis(CallTemplate):
    paths = ("numpy.take_along_axis",)
    params = ("arr", "indices", "axis")

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.take_along_axis", self.params, args, kwargs)
        arr, ind = b.get("arr"), b.get("indices")
        _check("np.take_along_axis", call, self.params, arr, ind)
        return T.ArrayType(arr.dtype, arr.ndim, "C")

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.take_along_axis", self.params, args, kwargs)
        arr, ind = L.let(b["arr"]), L.let(b["indices"])
        ax = _check("np.take_along_axis", call, self.params, arr.type, ind.type)
        dims, alen, ilen = _index_space(L, arr, ind, ax)
        out = allocate(L, call.type, dims)
        fill(L, out, dims, lambda idx: N.Load(
            arr, _source(L, arr, ind, ax, idx, alen, ilen), arr.type.dtype))
        return out


@register
class PutAlongAxis(CallTemplate):
    paths = ("numpy.put_along_axis",)
    params = ("arr", "indices", "values", "axis")

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.put_along_axis", self.params, args, kwargs)
        arr, ind, values = b.get("arr"), b.get("indices"), b.get("values")
        if "axis" not in b:
            raise Incompatible("np.put_along_axis(arr, indices, values, axis)")
        _check("np.put_along_axis", call, self.params, arr, ind)
        vt = values.dtype if isinstance(values, T.ArrayType) else values
        if not isinstance(vt, T.Scalar):
            raise Incompatible(f"np.put_along_axis() with values of {values}")
        if isinstance(values, T.ArrayType) and values.ndim > arr.ndim:
            raise Incompatible("np.put_along_axis() with values of more dimensions than "
                               "the index (NumPy's ValueError)")
        if vt.is_complex and not arr.dtype.is_complex:
            raise Incompatible("np.put_along_axis() of complex values into a real array")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.put_along_axis", self.params, args, kwargs)
        arr, ind = L.let(b["arr"]), L.let(b["indices"])
        ax = _check("np.put_along_axis", call, self.params, arr.type, ind.type)
        if arr.type.readonly:
            L.emit(N.Raise(exc=ValueError, message="assignment destination is read-only",
                           line=L.line))
            return C(None, T.NONE)
        if ind.type.dtype == arr.type.dtype:
            # (indices that may be arr's own memory: read before any write)
            ind = L.let(ew.materialize(L, ew.to_lazy(L, ind)))
        dims, alen, ilen = _index_space(L, arr, ind, ax)
        values = L.let(b["values"])
        dt = arr.type.dtype
        if isinstance(values.type, T.ArrayType):
            # values that may overlap arr are read as they were before the call
            values = L.let(ew.materialize(L, ew.to_lazy(L, values)))
            vt = values.type
            vlen = [L.let(N.ArrayAttr(values, "shape", k, I)) for k in range(vt.ndim)]
            lead = len(dims) - vt.ndim
            for d, full in zip(vlen, dims[lead:]):
                L.raise_if(ops.band(N.Cmp("ne", d, full, T.BOOL),
                                    N.Cmp("ne", d, C(1, I), T.BOOL)), ValueError,
                           "shape mismatch: value array could not be broadcast to "
                           "indexing result")

            def value(idx):
                vidx = [ew.broadcast_index(i, d) for i, d in zip(idx[lead:], vlen)]
                return ops.convert_wrap(N.Load(values, vidx, vt.dtype), dt)
        else:
            v = L.let(ops.convert_wrap(values, dt))

            def value(idx):
                return v
        counters = [L.temp(I, "i") for _ in dims]
        idx = [N.Var(c, I) for c in counters]

        def body():
            target = _source(L, arr, ind, ax, idx, alen, ilen)
            L.emit(N.Store(array=arr, indices=target, value=L.let(value(idx))))
            return None
        stmts, _ = L.sub_block(body)
        for c, d in reversed(list(zip(counters, dims))):
            stmts = [N.ForCount(counter=c, count=d, body=stmts)]
        for s in stmts:
            L.emit(s)
        return C(None, T.NONE)
