"""``np.add.outer(a, b)``, ``np.multiply.outer``, ``np.less.outer`` ... of the
binary ufuncs hanajit compiles: NumPy's ``ufunc.outer``, which converts both
operands with ``asarray`` (so Python scalars are *strong* here: a Python int is
int64, a float float64, unlike in ``np.add(a, b)``) and calls the ufunc on
``a[(..., ) + (None,) * b.ndim]`` and ``b``: result shape ``a.shape + b.shape``,
the ufunc's own dtype rules, values and errors.  The call is a small helper
compiled from Python source (one per ufunc, operand kinds and ``b.ndim``);
keywords (``out=``, ``dtype=``, ``where=``) and ``b`` of more than
:data:`MAX_NDIM` dimensions fall back."""
from __future__ import annotations

import numpy as np

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, typed_helper

MAX_NDIM = 4
_helpers: dict = {}


def _cast(t: T.Scalar):
    """The NumPy scalar type ``asarray`` gives a scalar of hanajit type ``t``."""
    return getattr(np, "bool_" if t.is_bool else t.name)


def _helper(ufunc, ka, kb, nd):
    """The compiled helper for ``ufunc.outer``: ``ka``/``kb`` 'a' (array) or the
    scalar type the operand is converted to, ``nd`` the ndim of ``b``."""
    key = (ufunc.__name__, ka, kb, nd)
    h = _helpers.get(key)
    if h is not None:
        return h
    ca = None if ka == "a" else _cast(ka)
    cb = None if kb == "a" else _cast(kb)
    u = ufunc
    if ka != "a" and kb != "a":
        def h(a, b):
            return u(ca(a), cb(b))
    elif ka != "a":
        def h(a, b):
            return u(ca(a), np.asarray(b))
    elif kb != "a":
        def h(a, b):
            return u(np.asarray(a), cb(b))
    elif nd == 1:
        def h(a, b):
            return u(np.asarray(a)[..., None], np.asarray(b))
    elif nd == 2:
        def h(a, b):
            return u(np.asarray(a)[..., None, None], np.asarray(b))
    elif nd == 3:
        def h(a, b):
            return u(np.asarray(a)[..., None, None, None], np.asarray(b))
    else:
        def h(a, b):
            return u(np.asarray(a)[..., None, None, None, None], np.asarray(b))
    h.__name__ = h.__qualname__ = f"{ufunc.__name__}_outer_{nd}"
    _helpers[key] = h
    return h


def _kind(t, what):
    if isinstance(t, T.ArrayType):
        return "a", t.ndim
    if isinstance(t, T.Scalar):
        return t, 0
    raise Incompatible(f"{what} of {t} (arrays and numbers only)")


class UfuncOuter(CallTemplate):
    """``ufunc.outer(a, b)`` of a binary ufunc as a compiled helper."""

    array_like = (0, 1)      # (list and tuple displays: their ``asarray``)

    def __init__(self, ufunc):
        self.owner = ufunc   # (not ``ufunc``: templates with one lift elementwise)
        self.name = f"np.{ufunc.__name__}.outer"

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible(f"{self.name}(a, b) (keywords fall back)")
        (ka, _), (kb, nb) = _kind(args[0], self.name), _kind(args[1], self.name)
        if kb == "a" and nb > MAX_NDIM:
            raise Incompatible(f"{self.name}() with b of more than {MAX_NDIM} dimensions")
        call.call_plan = typed_helper(inf, _helper(self.owner, ka, kb, nb), args)
        return call.call_plan.return_type

    def lower(self, L, call, args, kwargs):
        spec = call.call_plan
        return L.call_symbol(spec.symbol, [L.let(a) for a in args], spec.return_type)


def lookup(owner):
    """The template of ``owner.outer`` for a binary ufunc hanajit compiles, else None."""
    from .. import registry
    if owner.nin != 2 or registry.lookup(owner) is None:
        return None
    return UfuncOuter(owner)
