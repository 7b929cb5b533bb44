"""Array methods (``a.sum()``, ``a.copy()``, ``a.astype(np.float32)`` ...): each maps
to the template of the equivalent NumPy function, the array first."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import types as T
from . import elementwise as ew
from .dtype_view import DtypeView
from ..registry import CallTemplate, register


def copy_array(L, a, t: T.ArrayType):
    """A new array of type ``t`` holding ``a``'s elements (an array or an
    expression): C-contiguous, or Fortran-contiguous where ``t`` says ``F`` (the
    transpose of a C array filled in reversed index order)."""
    z = ew.to_lazy(L, a)
    if t.layout != "F" or t.ndim < 2:
        return ew.materialize(L, ew.Lazy(t, z.dims, z.elem))
    from .shape import transpose
    back = ew.materialize(L, ew.Lazy(t.copy(layout="C"), list(reversed(z.dims)),
                                     lambda idx: z.elem(list(reversed(idx)))))
    return transpose(L, L.let(back))


class Copy(CallTemplate):
    """``a.copy()`` and ``np.copy(a)``."""

    accepts_lazy = True
    paths = ("numpy.copy",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or set(kwargs) - {"order"}:
            raise Incompatible("copy() takes only order=")
        t = args[0]
        order = self.order(call, t)
        layout = "F" if order == "F" and t.ndim > 1 else "C"
        return t.copy(layout=layout, readonly=False)

    @staticmethod
    def order(call, t):
        """``'C'`` or ``'F'``: the order of ``a.copy(order=...)`` (a constant;
        ``'A'`` and ``'K'`` of an array whose type says C or F)."""
        from ...ir import nodes as N
        node = call.kwargs.get("order")
        if node is None:        # np.copy's default is 'K' (the method's 'C')
            return "F" if call.name == "np.copy" and getattr(t, "layout", None) == "F" \
                else "C"
        kind = getattr(node, "type", None)
        value = kind.value if isinstance(kind, T.ConstType) else (
            node.value if isinstance(node, N.Const) else None)
        if value in ("A", "K") and getattr(t, "layout", None) in ("C", "F"):
            value = t.layout
        if value not in ("C", "F"):
            raise Incompatible("copy(order=...) other than 'C' or 'F' (or 'A'/'K' of an "
                               "array known to be C- or F-ordered)")
        return value

    def lower(self, L, call, args, kwargs):
        return copy_array(L, args[0], call.type)


class AsType(CallTemplate):
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        from .creation import dtype_of
        dt = args[1] if len(args) > 1 else kwargs.get("dtype")
        if not isinstance(dt, T.ConstType):
            raise Incompatible("astype() needs a constant dtype such as np.float32")
        return args[0].copy(dtype=dtype_of(dt.value), layout="C", readonly=False)

    def lower(self, L, call, args, kwargs):
        from ..indexing.elements import array_cast
        z = ew.to_lazy(L, args[0])
        t = call.type.dtype
        return ew.materialize(L, ew.Lazy(call.type, z.dims,
                                         lambda idx: array_cast(L, z.elem(idx), t)))


class Fill(CallTemplate):
    """``a.fill(value)``: every element set as NumPy's setitem sets one -- a Python
    int must fit the dtype (OverflowError), a float stored into integers is
    truncated and checked."""

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs or not isinstance(args[1], T.Scalar):
            raise Incompatible("fill() takes one scalar value")
        a, v = args
        if a.readonly:
            raise Incompatible("fill() of a read-only array")
        if v.is_complex and not a.dtype.is_complex:
            raise Incompatible(f"fill() of a complex value into {a}")
        call.plan = "python" if not inf.is_strong(call.args[1]) else None
        return T.NONE

    def lower(self, L, call, args, kwargs):
        from ...ir import nodes as N
        from ..indexing.elements import python_number_value, setitem_value
        from ..python.operators import C
        from .creation import fill
        a, v = L.let(args[0]), args[1]
        t = a.type
        v = L.let(python_number_value(L, v, t.dtype) if call.plan == "python"
                  else setitem_value(L, v, t.dtype, python=False))
        fill(L, a, [L.let(N.ArrayAttr(a, "shape", k, T.INT64)) for k in range(t.ndim)],
             lambda idx: v)
        return C(None, T.NONE)


class Conj(CallTemplate):
    """``a.conj()`` / ``a.conjugate()``: ``np.conjugate`` of a complex array (a
    new one); an array of any other dtype is returned itself, not a copy, as
    NumPy's method does (writing to the result writes to ``a``)."""

    accepts_lazy = True

    @staticmethod
    def _ufunc():
        import numpy
        from .. import registry
        return registry.lookup(numpy.conjugate)

    def typer(self, inf, call, args, kwargs):
        from .. import registry
        if len(args) != 1 or kwargs or not isinstance(args[0], T.ArrayType):
            raise Incompatible("conj() takes no arguments")
        if args[0].dtype.is_complex:
            return registry.call_type(inf, call, self._ufunc(), args, kwargs)
        return args[0]

    def lower(self, L, call, args, kwargs):
        from . import ufuncs
        if call.type.dtype.is_complex:
            return ufuncs.lift_lower(self._ufunc(), L, call, args, kwargs)
        return args[0]


class Item(CallTemplate):
    """``a.item()`` (an array of one element), ``a.item(i)`` (a flat index,
    negative from the end) and ``a.item(i, j, ...)`` (one index per axis): the
    element as a Python number -- bool, int, float or complex -- with NumPy's
    ValueError and IndexErrors."""

    def typer(self, inf, call, args, kwargs):
        t = args[0]
        rest = args[1:]
        if kwargs or not isinstance(t, T.ArrayType) or len(rest) not in (0, 1, t.ndim) \
                or not all(isinstance(a, T.Scalar) and a.is_int and not a.is_bool
                           for a in rest):
            # (a bool index: NumPy's TypeError, from the interpreter)
            raise Incompatible("item() with no index, a flat index or one integer per axis")
        d = t.dtype
        if d.is_bool:
            return T.BOOL
        if d.is_int and (d.is_signed or d.bits < 64):
            return T.INT64
        if d.is_float and d.bits >= 32:
            return T.FLOAT64
        if d.is_complex:
            return T.COMPLEX128
        raise Incompatible(f"item() of {d} (as a Python number)")

    def lower(self, L, call, args, kwargs):
        from ...ir import nodes as N
        from ..python import operators as ops
        from ..python.operators import C
        from .attributes import flat_position
        I = T.INT64
        a = L.let(args[0])
        t = a.type
        rest = args[1:]
        dims = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(t.ndim)]
        if len(rest) == 1 and t.ndim != 1:
            idx = flat_position(L, a, rest[0])
        elif not rest:
            size = C(1, I)
            for d in dims:
                size = N.BinOp("mul", size, d, I)
            L.raise_if(N.Cmp("ne", size, C(1, I), T.BOOL), ValueError,
                       "can only convert an array of size 1 to a Python scalar")
            idx = [C(0, I)] * t.ndim
        else:
            idx = []
            for k, (i, d) in enumerate(zip(rest, dims)):
                i = L.let(ops.convert_wrap(i, I))
                j = L.let(N.Select(N.Cmp("lt", i, C(0, I), T.BOOL), N.BinOp("add", i, d, I),
                                   i, I))
                L.emit(N.If(cond=N.Cmp("ge", N.Cast(j, T.UINT64), N.Cast(d, T.UINT64), T.BOOL),
                            then=[N.Raise(exc=IndexError, args=[i, d], message=(
                                "index {} is out of bounds for axis %d with size {}" % k))]))
                idx.append(j)
        return ops.convert(L, N.Load(a, idx, t.dtype), call.type)


_SPECIAL = {"copy": register(Copy()), "astype": AsType(), "view": DtypeView(), "fill": Fill(), "conj": Conj(),
            "conjugate": Conj(), "item": Item()}


# methods that are their NumPy function with the array first, same arguments
FUNCTION_METHODS = {"repeat": "numpy.repeat", "clip": "numpy.clip", "trace": "numpy.trace",
                    "swapaxes": "numpy.swapaxes", "diagonal": "numpy.diagonal"}


class UfuncMethod(CallTemplate):
    """A method whose NumPy function is elementwise (``a.clip(lo, hi)``): typed
    and lowered as that function's call is, lifted over the array."""

    accepts_lazy = True

    def __init__(self, tpl):
        self.tpl = tpl

    def typer(self, inf, call, args, kwargs):
        from .. import registry
        return registry.call_type(inf, call, self.tpl, args, kwargs)

    def lower(self, L, call, args, kwargs):
        from . import ufuncs
        if isinstance(call.type, T.ArrayType):
            return ufuncs.lift_lower(self.tpl, L, call, args, kwargs)
        return self.tpl.lower(L, call, args, kwargs)


def method_template(name):
    from .. import registry
    from .reductions import METHODS
    if name in _SPECIAL:
        return _SPECIAL[name]
    from ..numeric.sign_round import METHODS as ROUNDING
    from ..sorting.sort import METHODS as SORTING
    from ..indexing.put import METHODS as PUT
    from ..indexing.take import METHODS as TAKE
    from ..indexing.nonzero import METHODS as NONZERO
    from .shape import METHODS as SHAPE
    from .cumulative import METHODS as CUMULATIVE
    from ..linalg.dot import METHODS as DOT
    from ..statistics.var_std_norm import METHODS as STATS      # var / std (axis=, ddof=)
    from .squeeze_resize import METHODS as SQUEEZE
    for extra in (SORTING, ROUNDING, TAKE, PUT, NONZERO, SHAPE, CUMULATIVE, DOT, STATS,
                  SQUEEZE):
        if name in extra:
            return extra[name]
    path = METHODS.get(name) or FUNCTION_METHODS.get(name)
    if path is None:
        return None
    import numpy
    tpl = registry.lookup(getattr(numpy, path.split(".")[1]))
    return UfuncMethod(tpl) if getattr(tpl, "ufunc", False) else tpl
