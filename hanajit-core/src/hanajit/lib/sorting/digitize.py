"""``np.digitize(x, bins, right=False)``: ``x`` a real number or array, ``bins``
a 1-D real array, compared in their common type as NumPy's ``searchsorted``
compares them (``bins_algorithms.digitize_into``: NumPy's monotonicity check and
ValueError, ``searchsorted`` of rising bins, of the reversed falling ones).  The
result is int64, of ``x``'s shape (a number for a number)."""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.creation import allocate
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register
from . import bins_algorithms as hb

I = T.INT64


def real_dtype(t):
    """The element type of ``t`` (a number or an array) when it is a real
    number type, else None."""
    e = ew.elem_type(t)
    if isinstance(e, T.Scalar) and not e.is_complex:
        return e
    return None


def bind(call, args, kwargs, names, what):
    """``names`` (all but the first two optional) bound to ``args``/``kwargs``."""
    if len(args) > len(names) or set(kwargs) - set(names[len(args):]):
        raise Incompatible(what)
    bound = dict(zip(names, args))
    bound.update(kwargs)
    if names[0] not in bound or names[1] not in bound:
        raise Incompatible(what)
    return bound


def flat_values(L, x, dtype):
    """``x`` (a number or an array) as a C-contiguous array of ``dtype`` and its
    1-D view (one element for a number): ``x`` itself when it is one (read in
    place, as NumPy reads it), else a converted copy."""
    from ..arrays.shape import reshape_view
    from ..indexing.elements import element_value
    from .sort import fresh_copy
    if isinstance(x.type, T.ArrayType) and not isinstance(x, ew.Lazy) \
            and x.type.dtype == dtype and x.type.layout == "C":
        x = L.let(x)
        return x, L.let(reshape_view(L, x, [C(-1, I)], x.type.copy(ndim=1)))
    if isinstance(x.type, T.ArrayType) or isinstance(x, ew.Lazy):
        return fresh_copy(L, x, dtype)
    one = allocate(L, T.ArrayType(dtype, 1, "C"), [C(1, I)])
    L.emit(N.Store(array=one, indices=[C(0, I)], value=element_value(L, x, dtype)))
    return one, one


def as_dtype(L, a, dtype):
    """The 1-D array ``a`` itself when of ``dtype``, else a converted copy."""
    from .sort import fresh_copy
    a = ew.materialize(L, a)
    if a.type.dtype == dtype:
        return L.let(a)
    return fresh_copy(L, a, dtype)[1]


@register
class Digitize(CallTemplate):
    paths = ("numpy.digitize",)
    array_like = (0, 1, "x", "bins")
    accepts_lazy = True
    NAMES = ("x", "bins", "right")

    def typer(self, inf, call, args, kwargs):
        b = bind(call, args, kwargs, self.NAMES, "np.digitize(x, bins, right=False)")
        bins = b["bins"]
        if not (isinstance(bins, T.ArrayType) and bins.ndim == 1 and real_dtype(bins)):
            raise Incompatible("np.digitize(): bins must be a 1-D array of real numbers")
        if real_dtype(b["x"]) is None:
            raise Incompatible(f"np.digitize() of {b['x']}")
        if "right" in b and not (isinstance(b["right"], T.Scalar) and not b["right"].is_complex):
            raise Incompatible("np.digitize(): right must be a bool")
        x = b["x"]
        return T.ArrayType(I, x.ndim, "C") if isinstance(x, T.ArrayType) else I

    def lower(self, L, call, args, kwargs):
        b = bind(call, args, kwargs, self.NAMES, "")
        common = promote(b["bins"].type.dtype, real_dtype(b["x"].type))
        bins = as_dtype(L, b["bins"], common)
        _, flat = flat_values(L, b["x"], common)
        n = L.let(N.ArrayAttr(flat, "shape", 0, I))
        out = L.let(allocate(L, T.ArrayType(I, 1, "C"), [n]))
        right = ops.truth(L, b["right"]) if "right" in b else C(False, T.BOOL)
        L.call_helper(hb.digitize_into, [flat, bins, out, L.let(right)])
        if not isinstance(call.type, T.ArrayType):
            return N.Load(out, [C(0, I)], I)
        from ..arrays.shape import reshape_view
        x = ew.to_lazy(L, b["x"])
        return reshape_view(L, out, list(x.dims), call.type)
