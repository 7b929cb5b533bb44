"""Array attributes and index spaces: ``a.dtype`` (as a dtype argument),
``a.real`` / ``a.imag`` (views for complex arrays), ``a.mT`` (the last two axes
swapped, a view), ``a.flat[i]`` reads, writes and
``for v in a.flat``, and ``for idx in np.ndindex(*shape)``.

The frontend turns ``a.flat[i]`` into calls of the markers :data:`flat_get` /
:data:`flat_set`, and ``for`` loops over ``a.flat`` or ``np.ndindex(...)`` into
position loops over :data:`ndindex_size` items built by :data:`ndindex_item`; the
templates below type and lower those calls.  The markers are not Python
functions, so nothing compiles them as helpers.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, CompiledOnly, register

I = T.INT64


flat_get = CompiledOnly("a.flat[i]")
flat_set = CompiledOnly("a.flat[i] = v")
ndindex_size = CompiledOnly("np.ndindex")
ndindex_item = CompiledOnly("np.ndindex item")


# ------------------------------------------------------------------ attributes
def attr_type(t: T.ArrayType, attr: str):
    """Type of ``a.real`` / ``a.imag`` / ``a.mT`` (``t.ndim >= 2``) on an array of
    type ``t`` (None otherwise)."""
    if attr == "mT":
        if t.ndim == 2 and t.layout in ("C", "F"):
            return t.copy(layout={"C": "F", "F": "C"}[t.layout])
        return t.copy(layout="A")
    if attr not in ("real", "imag"):
        return None
    if t.dtype.is_complex:
        return T.ArrayType(t.dtype.component, t.ndim, "A", t.readonly)
    if attr == "real":
        return t
    return T.ArrayType(t.dtype, t.ndim, "C", True)     # NumPy: read-only zeros


def dtype_type(t: T.ArrayType) -> T.ConstType:
    """``a.dtype`` where NumPy takes a dtype: a compile-time constant."""
    import numpy as np
    return T.ConstType(np.dtype(T.numpy_name(t.dtype)))


def lower_attr(L, v, t: T.ArrayType, attr: str):
    """``a.real`` / ``a.imag`` (views sharing the complex array's memory),
    ``a.mT`` (a view) and ``a.dtype`` (a compile-time constant)."""
    if attr == "dtype":
        from ...ir.frontend_nodes import ObjRef
        ref = ObjRef(dtype_type(t).value, "dtype")
        ref.type = dtype_type(t)
        return ref
    rt = attr_type(t, attr)
    if attr == "mT":
        order = list(range(t.ndim - 2)) + [t.ndim - 1, t.ndim - 2]
        return N.ArrayView(v, C(0, I), [N.ArrayAttr(v, "shape", k, I) for k in order],
                           [N.ArrayAttr(v, "stride", k, I) for k in order], rt)
    dims = [N.ArrayAttr(v, "shape", k, I) for k in range(t.ndim)]
    if t.dtype.is_complex:
        offset = C(rt.dtype.bits // 8 if attr == "imag" else 0, I)
        view = N.ArrayView(v, offset, dims, [N.ArrayAttr(v, "stride", k, I)
                                             for k in range(t.ndim)], rt)
        if isinstance(v, N.Var):
            # read in an expression as the part of the complex element
            # (``elementwise.to_lazy``): the same memory, addressed through the
            # complex array's layout, whose innermost stride a C array knows
            view.component = (v, attr)
        return view
    if attr == "real":
        return v
    from .creation import allocate, fill
    dims = [L.let(d) for d in dims]
    out = allocate(L, rt, dims)
    fill(L, out, dims, lambda idx: ops.zero(t.dtype))
    return out


# ------------------------------------------------------------------ a.flat
def flat_position(L, arr, i):
    """Indices of the C-order position ``i`` of ``arr`` (negative ``i`` counts from
    the end; IndexError outside)."""
    t = arr.type
    dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(t.ndim)]
    size = C(1, I)
    for d in dims:
        size = N.BinOp("mul", size, d, I)
    size = L.let(size)
    i = L.let(ops.convert_wrap(i, I))
    j = L.let(N.Select(N.Cmp("lt", i, C(0, I), T.BOOL), N.BinOp("add", i, size, I), i, I))
    L.emit(N.If(cond=N.Cmp("ge", N.Cast(j, T.UINT64), N.Cast(size, T.UINT64), T.BOOL),
                then=[N.Raise(exc=IndexError, args=[i, size],
                              message="index {} is out of bounds for size {}")]))
    return _unravel(L, j, dims)


def _unravel(L, j, dims):
    """C-order indices of the flat position ``j`` (in range) over ``dims``."""
    idx = [None] * len(dims)
    rest = j
    for k in range(len(dims) - 1, 0, -1):
        d = N.Select(N.Cmp("eq", dims[k], C(0, I), T.BOOL), C(1, I), dims[k], I)
        d = L.let(d)
        idx[k] = L.let(N.BinOp("srem", rest, d, I))
        rest = L.let(N.BinOp("sdiv", rest, d, I))
    if dims:
        idx[0] = rest
    return idx


def _index_type_ok(t):
    return isinstance(t, T.Scalar) and (t.is_int or t.is_bool)


class FlatGet(CallTemplate):
    paths = ("hanajit.lib.arrays.attributes.flat_get",)

    def typer(self, inf, call, args, kwargs):
        if not isinstance(args[0], T.ArrayType):
            raise Incompatible(f".flat of {args[0]}")
        if not _index_type_ok(args[1]):
            raise Incompatible("a.flat[...] with an index other than an integer")
        return args[0].dtype

    def lower(self, L, call, args, kwargs):
        arr = L.let(args[0])
        return N.Load(arr, flat_position(L, arr, args[1]), arr.type.dtype)


class FlatSet(CallTemplate):
    paths = ("hanajit.lib.arrays.attributes.flat_set",)

    def typer(self, inf, call, args, kwargs):
        FlatGet.typer(self, inf, call, args[:2], kwargs)
        vt = args[2]
        if not isinstance(vt, T.Scalar):
            raise Incompatible(f"a.flat[i] = {vt}")
        if vt.is_complex and not args[0].dtype.is_complex:
            raise Incompatible("a.flat[i] = a complex value into a real array")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import element_value
        arr = L.let(args[0])
        if arr.type.readonly:
            L.emit(N.Raise(exc=ValueError, message="assignment destination is read-only"))
            return C(None, T.NONE)
        idx = flat_position(L, arr, args[1])
        L.emit(N.Store(array=arr, indices=idx,
                       value=element_value(L, args[2], arr.type.dtype)))
        return C(None, T.NONE)


# ------------------------------------------------------------------ np.ndindex
def _shape_ndim(t):
    if _index_type_ok(t):
        return 1
    if isinstance(t, T.TupleType) and t.items and all(_index_type_ok(i) for i in t.items):
        return len(t.items)
    raise Incompatible(f"np.ndindex() of {t} (integers or a tuple of integers)")


def _dims(L, e, checked):
    if checked:
        from .creation import shape_values
        return shape_values(L, e)
    t = e.type
    if not isinstance(t, T.TupleType):
        return [L.let(ops.convert_wrap(e, I))]
    e = L.let(e)
    return [L.let(ops.convert_wrap(C(e.value[k], it) if isinstance(e, N.Const)
                                   else N.TupleGet(e, k, it), I))
            for k, it in enumerate(t.items)]


class NdindexSize(CallTemplate):
    paths = ("hanajit.lib.arrays.attributes.ndindex_size",)

    def typer(self, inf, call, args, kwargs):
        _shape_ndim(args[0])
        return I

    def lower(self, L, call, args, kwargs):
        size = C(1, I)
        for d in _dims(L, args[0], checked=True):
            size = N.BinOp("mul", size, d, I)
        return size


class NdindexItem(CallTemplate):
    paths = ("hanajit.lib.arrays.attributes.ndindex_item",)

    def typer(self, inf, call, args, kwargs):
        return T.TupleType((I,) * _shape_ndim(args[0]))

    def lower(self, L, call, args, kwargs):
        dims = _dims(L, args[0], checked=False)
        idx = _unravel(L, L.let(ops.convert_wrap(args[1], I)), dims)
        return N.MakeTuple(idx, call.type)


class RealImag(CallTemplate):
    """``np.real(a)`` / ``np.imag(a)`` of an array: ``a.real`` / ``a.imag``, as
    NumPy's functions return them (a view of a complex array's parts)."""

    def __init__(self, attr):
        self.attr = attr
        self.paths = (f"numpy.{attr}",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], T.ArrayType):
            raise Incompatible(f"np.{self.attr}() of {args[0] if args else 'nothing'} "
                               "(an array is compiled)")
        return attr_type(args[0], self.attr)

    def lower(self, L, call, args, kwargs):
        v = L.let(args[0])
        return lower_attr(L, v, v.type, self.attr)


for _tpl in (FlatGet, FlatSet, NdindexSize, NdindexItem):
    register(_tpl)
register(RealImag("real"))
register(RealImag("imag"))
