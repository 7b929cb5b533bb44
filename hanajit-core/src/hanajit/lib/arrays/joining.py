"""Arrays assembled from others: ``np.array``/``np.asarray`` of (nested) tuples of
numbers and arrays, ``np.concatenate`` and ``np.stack``."""
from __future__ import annotations


from ...typing_rules import Incompatible, promote
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from .sizes import size_add
from .creation import allocate, dtype_of
from ..python.operators import C
from .reductions import loops
from ..registry import CallTemplate, register

I = T.INT64


def _nested_shape(t):
    """(shape, element types) of a nested tuple type of numbers, or None."""
    if isinstance(t, T.Scalar):
        return (), [t]
    if isinstance(t, T.TupleType) and t.items:
        subs = [_nested_shape(i) for i in t.items]
        if any(s is None for s in subs) or len({s[0] for s in subs}) != 1:
            return None
        return (len(t.items),) + subs[0][0], [e for s in subs for e in s[1]]
    return None


class NpArray(CallTemplate):
    """np.array / np.asarray of an array or of (nested) tuples and lists of numbers."""

    accepts_lazy = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def typer(self, inf, call, args, kwargs):
        if not 1 <= len(args) <= 2 or set(kwargs) - {"dtype"} or (
                len(args) == 2 and "dtype" in kwargs):
            raise Incompatible(f"np.{self.name}(object, dtype=None)")
        src = args[0]
        dt = _dtype_arg(args, kwargs)
        want = dtype_of(dt.value) if isinstance(dt, T.ConstType) else None
        if dt is not None and dt != T.NONE and want is None:
            raise Incompatible("dtype must be a constant")
        if isinstance(src, T.ArrayType):
            return src.copy(dtype=want or src.dtype, layout="C", readonly=False)
        shape = _nested_shape(src)
        if shape is None:
            raise Incompatible(f"np.{self.name}() of {src}")
        dims, elems = shape
        # which leaves of a display are Python numbers (NumPy converts those as
        # its setitem does: ``np.array([300], dtype=np.int8)`` is OverflowError)
        call.plan = None if want is None else [not inf.is_strong(call.args[0])] \
            if not dims else _python_leaves(inf, call.args[0])
        if want is not None and not (want.is_complex or want.is_bool) and any(
                e.is_complex and p for e, p in zip(elems, call.plan or [])):
            raise Incompatible(f"np.{self.name}() of a Python complex to {want} "
                               "(TypeError in NumPy)")
        t = want
        if t is None:
            t = elems[0]
            for e in elems[1:]:
                t = promote(t, e) if t != e else t
            if t.is_bool and any(not e.is_bool for e in elems):
                t = T.INT64
        return T.ArrayType(t, len(dims), "C")

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import element_value, python_number_value, setitem_value
        rt = call.type
        src = args[0]
        if isinstance(src.type, T.ArrayType) or isinstance(src, ew.Lazy):
            if self.name == "asarray" and not isinstance(src, ew.Lazy) and src.type == rt:
                return src
            from ..indexing.elements import array_cast
            z = ew.to_lazy(L, src)
            return ew.materialize(L, ew.Lazy(rt, z.dims, lambda idx: array_cast(
                L, z.elem(idx), rt.dtype)))
        dims, _ = _nested_shape(src.type)
        tup = L.let(src)
        out = allocate(L, rt, [C(d, I) for d in dims])
        if not dims:        # a 0-d array of a number: a NumPy scalar is cast as
            from ..indexing.elements import array_cast    # arrays are (np.int64(300)
            v = (element_value(L, tup, rt.dtype) if call.plan is None   # is 44 in int8)
                 else python_number_value(L, tup, rt.dtype) if call.plan[0]
                 else array_cast(L, tup, rt.dtype))
            L.emit(N.Store(array=out, indices=[], value=v))
            return out

        def leaves(e, t, prefix):
            if isinstance(t, T.TupleType):
                for k, it in enumerate(t.items):
                    yield from leaves(N.TupleGet(e, k, it) if not isinstance(e, N.Const)
                                      else C(e.value[k], it), it, prefix + [k])
            else:
                yield prefix, e
        python = call.plan or []
        for k, (idx, e) in enumerate(leaves(tup, tup.type, [])):
            if k < len(python):
                v = (python_number_value(L, e, rt.dtype) if python[k]
                     else setitem_value(L, e, rt.dtype, python=False))
            else:
                v = element_value(L, e, rt.dtype)
            L.emit(N.Store(array=out, indices=[C(k, I) for k in idx], value=v))
        return out


def _dtype_arg(args, kwargs):
    """np.array/np.asarray's ``dtype``, positional (second) or keyword."""
    return args[1] if len(args) == 2 else kwargs.get("dtype")


def _count_leaves(value) -> int:
    return sum(_count_leaves(v) if isinstance(v, tuple) else 1 for v in value)


def _python_leaves(inf, node) -> list | None:
    """For a (nested) tuple or list display, whether each leaf, in order, is a
    Python number (``Inferrer.is_strong`` false); None for anything else."""
    if isinstance(node, N.Const) and isinstance(node.value, tuple):
        return [True] * _count_leaves(node.value)      # literals: Python numbers
    if not isinstance(node, N.MakeTuple):
        return None
    out = []
    for item in node.items:
        if isinstance(getattr(item, "type", None), T.TupleType):
            sub = _python_leaves(inf, item)
            if sub is None:
                return None
            out += sub
        else:
            out.append(not inf.is_strong(item))
    return out


def _axis(call, default=0):
    node = call.kwargs.get("axis", call.args[1] if len(call.args) > 1 else None)
    if node is None:
        return default
    if not (isinstance(node, N.Const) and type(node.value) is int):
        raise Incompatible("axis must be a constant integer")
    return node.value


def _array_items(t):
    if not (isinstance(t, T.TupleType) and t.items and all(
            isinstance(i, T.ArrayType) for i in t.items)):
        raise Incompatible("a tuple of arrays is needed")
    if len({(i.ndim) for i in t.items}) != 1:
        raise Incompatible("all the input arrays must have the same number of dimensions")
    dt = t.items[0].dtype
    for i in t.items[1:]:
        dt = promote(dt, i.dtype) if dt != i.dtype else dt
    return t.items[0].ndim, dt


class Concatenate(CallTemplate):
    paths = ("numpy.concatenate",)

    def typer(self, inf, call, args, kwargs):
        if not args or set(kwargs) - {"axis"}:
            raise Incompatible("np.concatenate(arrays, axis=0)")
        ndim, dt = _array_items(args[0])
        ax = _axis(call)
        if not -ndim <= ax < ndim:
            raise Incompatible(f"axis {ax} is out of bounds for array of dimension {ndim}")
        return T.ArrayType(dt, ndim, "C")

    def lower(self, L, call, args, kwargs):
        tup = L.let(args[0])
        arrs = [L.let(N.TupleGet(tup, k, it)) for k, it in enumerate(tup.type.items)]
        return concatenate(L, arrs, _axis(call) % call.type.ndim, call.type)


def concatenate(L, arrs: list, ax: int, rt: T.ArrayType) -> N.Expr:
    """A new array of ``rt`` joining the arrays ``arrs`` (bound values of equal
    ndim) along axis ``ax``; NumPy's ValueError when the other axes differ."""
    from ..indexing.elements import element_value
    first = arrs[0]
    total = L.let(N.ArrayAttr(first, "shape", ax, I))
    for a in arrs[1:]:
        for k in range(rt.ndim):
            if k == ax:
                continue
            da, d0 = N.ArrayAttr(a, "shape", k, I), N.ArrayAttr(first, "shape", k, I)
            L.emit(N.If(cond=N.Cmp("ne", da, d0, T.BOOL), then=[N.Raise(
                exc=ValueError, args=[d0, da], deopt=RERUN,
                message=f"all the input array dimensions except for the concatenation "
                        f"axis must match exactly, but along dimension {k} the sizes "
                        "are {} and {}")]))
        total = size_add(L, total, N.ArrayAttr(a, "shape", ax, I))
    dims = [total if k == ax else L.let(N.ArrayAttr(first, "shape", k, I))
            for k in range(rt.ndim)]
    out = allocate(L, rt, dims)
    offset = C(0, I)
    for a in arrs:
        adims = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(rt.ndim)]
        off = L.let(offset)

        def body(idx, a=a, off=off):
            dst = [N.BinOp("add", i, off, I) if k == ax else i for k, i in enumerate(idx)]
            L.emit(N.Store(array=out, indices=dst, value=element_value(
                L, N.Load(a, list(idx), a.type.dtype), rt.dtype)))
        loops(L, adims, body)
        offset = N.BinOp("add", off, adims[ax], I)
    return out


class Stack(CallTemplate):
    paths = ("numpy.stack",)

    def typer(self, inf, call, args, kwargs):
        if not args or set(kwargs) - {"axis"}:
            raise Incompatible("np.stack(arrays, axis=0)")
        ndim, dt = _array_items(args[0])
        ax = _axis(call)
        if not -(ndim + 1) <= ax <= ndim:
            raise Incompatible(f"axis {ax} is out of bounds")
        return T.ArrayType(dt, ndim + 1, "C")

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import element_value
        rt = call.type
        ax = _axis(call) % rt.ndim
        tup = L.let(args[0])
        arrs = [L.let(N.TupleGet(tup, k, it)) for k, it in enumerate(tup.type.items)]
        first = arrs[0]
        base = [L.let(N.ArrayAttr(first, "shape", k, I)) for k in range(rt.ndim - 1)]
        for a in arrs[1:]:
            for k in range(rt.ndim - 1):
                da = N.ArrayAttr(a, "shape", k, I)
                L.emit(N.If(cond=N.Cmp("ne", da, base[k], T.BOOL), then=[N.Raise(
                    exc=ValueError, message="all input arrays must have the same shape")]))
        dims = base[:ax] + [C(len(arrs), I)] + base[ax:]
        out = allocate(L, rt, dims)
        for j, a in enumerate(arrs):
            def body(idx, a=a, j=j):
                dst = list(idx[:ax]) + [C(j, I)] + list(idx[ax:])
                L.emit(N.Store(array=out, indices=dst, value=element_value(
                    L, N.Load(a, list(idx), a.type.dtype), rt.dtype)))
            loops(L, base, body)
        return out


register(NpArray("array"))
register(NpArray("asarray"))
register(Concatenate())
register(Stack())
