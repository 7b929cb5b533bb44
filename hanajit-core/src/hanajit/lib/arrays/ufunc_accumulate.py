"""``np.maximum.accumulate(a, axis=0)`` and ``np.minimum.accumulate``: the running
maximum / minimum along an axis (a running peak, a drawdown), NumPy's
``ufunc.accumulate`` -- ``out[0] = a[0]``, then ``out[i] = u(out[i - 1], a[i])``
along the axis, in the input's dtype (bool, integers, floats: NaN propagates,
and of equal values the later one is kept, so signed zeros come out as NumPy's).
The call is a small helper compiled from Python source (one per ufunc and
operand type); the running value of a 1-D array stays in a register.  Complex
arrays, ``dtype=``/``out=``, a non-constant axis, a 0-d operand (NumPy's
TypeError) and the other ufuncs' ``accumulate`` (``np.add``/``np.multiply``
are ``np.cumsum``/``np.cumprod``: ``ufunc_methods``) fall back."""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, typed_helper

UFUNCS = ("maximum", "minimum")
_helpers: dict = {}


def _helper(ufunc, nd, ax):
    """The compiled helper of ``ufunc.accumulate`` for ``nd``-dimensional arrays
    along axis ``ax`` (a constant of the helper: ``np.moveaxis`` wants one)."""
    key = (ufunc.__name__, nd == 1, ax)
    h = _helpers.get(key)
    if h is not None:
        return h
    u = ufunc
    if nd == 1:
        def h(a, axis):
            out = np.empty_like(a)
            n = a.shape[0]
            if n > 0:
                acc = a[0]
                out[0] = acc
                for i in range(1, n):
                    acc = u(acc, a[i])
                    out[i] = acc
            return out
    else:
        def h(a, axis):
            out = np.empty_like(a)
            src = np.moveaxis(a, ax, 0)
            dst = np.moveaxis(out, ax, 0)
            if src.shape[0] > 0:
                dst[0] = src[0]
                for i in range(1, src.shape[0]):
                    dst[i] = u(dst[i - 1], src[i])
            return out
    h.__name__ = h.__qualname__ = f"{ufunc.__name__}_accumulate_{min(nd, 2)}d_{ax}"
    _helpers[key] = h
    return h


class UfuncAccumulate(CallTemplate):
    """``ufunc.accumulate(a, axis=0)`` of np.maximum / np.minimum as a helper."""

    array_like = (0,)        # (list and tuple displays: their ``asarray``)

    def __init__(self, ufunc):
        self.owner = ufunc   # (not ``ufunc``: templates with one lift elementwise)
        self.name = f"np.{ufunc.__name__}.accumulate"

    def axis(self, call, t):
        from ..statistics.var_std_norm import const_arg
        axis = const_arg(call, 1, "axis", 0)
        if type(axis) is not int:
            raise Incompatible(f"{self.name}(): axis must be a constant integer")
        if not -t.ndim <= axis < t.ndim:
            raise Incompatible(f"{self.name}(): axis {axis} is out of bounds for array "
                               f"of dimension {t.ndim}")
        return axis % t.ndim

    def typer(self, inf, call, args, kwargs):
        if len(args) > 2 or set(kwargs) - {"axis"} or not args:
            raise Incompatible(f"{self.name}(a, axis=0) (dtype= and out= fall back)")
        t = args[0]
        if not isinstance(t, T.ArrayType) or t.ndim == 0:
            raise Incompatible(f"{self.name}() of a scalar (NumPy: cannot accumulate "
                               "on a scalar)")
        if t.dtype.is_complex or not isinstance(t.dtype, T.Scalar):
            raise Incompatible(f"{self.name}() of {t.dtype} (real numbers and bools)")
        helper = _helper(self.owner, t.ndim, self.axis(call, t))
        call.call_plan = typed_helper(inf, helper, [t, T.INT64])
        return call.call_plan.return_type

    def lower(self, L, call, args, kwargs):
        spec = call.call_plan
        axis = N.Const(self.axis(call, args[0].type), T.INT64)
        return L.call_symbol(spec.symbol, [L.let(args[0]), axis], spec.return_type)


def lookup(owner):
    """The template of ``owner.accumulate`` where this module has it, else None."""
    if owner.__name__ not in UFUNCS:
        return None
    return UfuncAccumulate(owner)
