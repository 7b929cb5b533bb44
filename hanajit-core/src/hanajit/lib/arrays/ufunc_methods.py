"""``np.add.reduce(a, axis=0)``, ``np.maximum.reduce``, ``np.add.accumulate`` ...:
the reductions and accumulations of NumPy ufuncs that are NumPy functions
already -- ``np.add.reduce`` is what ``np.sum`` calls, ``np.maximum.reduce``
``np.max``'s, ``np.add.accumulate`` ``np.cumsum``'s -- with the ufunc methods'
default ``axis=0`` (the functions' is None: all axes)."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..registry import CallTemplate

# (ufunc, method) -> the NumPy function it is
FUNCTIONS = {("add", "reduce"): "sum", ("multiply", "reduce"): "prod",
             ("maximum", "reduce"): "max", ("minimum", "reduce"): "min",
             ("logical_and", "reduce"): "all", ("logical_or", "reduce"): "any",
             ("add", "accumulate"): "cumsum", ("multiply", "accumulate"): "cumprod"}


class UfuncMethod(CallTemplate):
    """The ufunc method as its NumPy function, the axis 0 unless given."""

    accepts_lazy = True

    def __init__(self, tpl):
        self.tpl = tpl

    def typer(self, inf, call, args, kwargs):
        if len(call.args) < 2 and "axis" not in call.kwargs:
            # (the call site's own node: the lowering sees the same argument)
            call.kwargs["axis"] = N.Const(0, T.INT64)
            kwargs = dict(kwargs, axis=T.INT64)
        return self.tpl.typer(inf, call, args, kwargs)

    def lower(self, L, call, args, kwargs):
        return self.tpl.lower(L, call, args, kwargs)


def lookup(obj):
    """The template of ``obj`` when it is a ufunc's ``reduce``/``accumulate``
    method that is a NumPy function, else None."""
    import numpy
    owner = getattr(obj, "__self__", None)
    if not isinstance(owner, numpy.ufunc):
        return None
    if getattr(obj, "__name__", None) == "at":
        from . import ufunc_at
        return ufunc_at.lookup(owner)
    if getattr(obj, "__name__", None) == "outer":
        from . import ufunc_outer
        return ufunc_outer.lookup(owner)
    method = getattr(obj, "__name__", None)
    name = FUNCTIONS.get((owner.__name__, method))
    if name is None and method == "accumulate":
        from . import ufunc_accumulate
        return ufunc_accumulate.lookup(owner)
    if name is None:
        return None
    from .. import registry
    tpl = registry.lookup(getattr(numpy, name))
    return None if tpl is None else UfuncMethod(tpl)
