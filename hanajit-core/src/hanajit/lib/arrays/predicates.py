"""Questions NumPy answers about arrays and numbers, and ``np.real_if_close``.

``np.ndim(a)``, ``np.shape(a)``, ``np.size(a, axis=None)`` and ``np.isscalar(x)``
of arrays, numbers and flat tuple displays of numbers: answered from the types
(``ndim``, ``isscalar``: constants) or read from the array (Python ints and a
tuple of them, as NumPy returns); ``axis`` a constant int or tuple of ints.

``np.isposinf(x)`` / ``np.isneginf(x)``: NumPy's ``logical_and(isinf(x),
~signbit(x))`` (``signbit(x)``), of arrays and numbers; complex input raises
NumPy's TypeError; ``out=`` falls back.

``np.real_if_close(a, tol=100)`` of an array: a real array is ``a`` itself; a
complex one is the view ``a.real`` when every ``|a.imag| < tol`` (``tol``
scaled by the dtype's ``finfo.eps`` when above 1, compared in the real dtype as
NumPy does); when some imaginary part is larger NumPy returns the complex
array, and the call re-runs in the interpreter.  ``tol`` must be a constant.

``np.array_equiv(a1, a2)`` of arrays: False where the shapes do not broadcast,
else ``bool((a1 == a2).all())``."""
from __future__ import annotations

import numpy as np

from ...ir import types as T
from ...typing_rules import Incompatible
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register
from . import predicates_algorithms as hp
from .source_calls import SourceCall, const_node

I = T.INT64


def _flat_numbers(t) -> bool:
    return isinstance(t, T.TupleType) and not isinstance(t, T.NamedTupleType) and all(
        isinstance(i, T.Scalar) for i in t.items)


def _dims(name, t) -> int:
    """The number of dimensions NumPy's ``asarray`` gives a value of type ``t``."""
    if isinstance(t, T.ArrayType):
        return t.ndim
    if isinstance(t, T.Scalar):
        return 0
    if _flat_numbers(t):
        return 1
    raise Incompatible(f"{name}() of {t} (an array, a number or a flat tuple of numbers)")


@register
class Ndim(CallTemplate):
    paths = ("numpy.ndim",)

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.ndim", ("a",), args, kwargs)
        if "a" not in b:
            raise Incompatible("np.ndim(a)")
        call.plan = _dims("np.ndim", b["a"])
        return I

    def lower(self, L, call, args, kwargs):
        return C(call.plan, I)


@register
class IsScalar(CallTemplate):
    paths = ("numpy.isscalar",)

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.isscalar", ("element",), args, kwargs)
        if "element" not in b:
            raise Incompatible("np.isscalar(element)")
        t = b["element"]
        if isinstance(t, T.Scalar):
            call.plan = True
        elif isinstance(t, T.ConstType) and isinstance(t.value, (str, bytes, int, float)):
            call.plan = True
        elif isinstance(t, (T.ArrayType, T.TupleType)) or t == T.NONE:
            call.plan = False
        else:
            raise Incompatible(f"np.isscalar() of {t}")
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        return C(call.plan, T.BOOL)


@register
class Shape(SourceCall):
    paths = ("numpy.shape",)
    name, params = "np.shape", ("a",)

    def choose(self, call, nodes, types):
        if "a" not in types:
            raise Incompatible("np.shape(a)")
        n = _dims(self.name, types["a"])
        if isinstance(types["a"], T.ArrayType):
            return hp.array_shape, ["a"]
        return (hp.no_shape, ["a"]) if n == 0 else (hp.tuple_shape, ["a"])


@register
class Size(SourceCall):
    paths = ("numpy.size",)
    name, params = "np.size", ("a", "axis")

    def choose(self, call, nodes, types):
        if "a" not in types:
            raise Incompatible("np.size(a, axis=None)")
        t = types["a"]
        n = _dims(self.name, t)
        axis = self.const(call, nodes, "axis", None)
        if axis is None:
            if isinstance(t, T.ArrayType):
                return hp.array_size, ["a"]
            return (hp.one, ["a"]) if n == 0 else (hp.tuple_size, ["a"])
        axes = axis if isinstance(axis, tuple) else (axis,)
        if not all(type(k) is int and -n <= k < n for k in axes) or \
                len({k % n for k in axes}) != len(axes):
            raise Incompatible("np.size(): axis must be distinct constant axes of the array "
                               "(NumPy's AxisError or ValueError otherwise)")
        mask = sum(1 << (k % n) for k in axes)
        if isinstance(t, T.ArrayType):
            return hp.masked_size, ["a", const_node(mask, I)]
        return (hp.tuple_size, ["a"]) if mask else (hp.one, ["a"])


@register
class RealIfClose(SourceCall):
    paths = ("numpy.real_if_close",)
    name, params = "np.real_if_close", ("a", "tol")

    def choose(self, call, nodes, types):
        a = types.get("a")
        if not isinstance(a, T.ArrayType):
            raise Incompatible(f"np.real_if_close() of {a} (an array)")
        tol = self.const(call, nodes, "tol", 100)
        if type(tol) not in (int, float):
            raise Incompatible("np.real_if_close(): tol must be a constant int or float")
        if not a.dtype.is_complex:
            return hp.same, ["a"]
        part = a.dtype.component
        if tol > 1:
            tol = np.finfo(np.dtype(T.numpy_name(part))).eps * tol
        thr = float(np.dtype(T.numpy_name(part)).type(tol))
        return hp.real_part_if_close, ["a", const_node(thr, part)]


class _SignedInf(SourceCall):
    params = ("x", "out")

    def choose(self, call, nodes, types):
        x = types.get("x")
        if "out" in types:
            raise Incompatible(f"{self.name}() with out=")
        if not isinstance(x, (T.Scalar, T.ArrayType)):
            raise Incompatible(f"{self.name}() of {x} (an array or a number)")
        if x.is_complex if isinstance(x, T.Scalar) else x.dtype.is_complex:
            return hp.ambiguous_sign, ["x"]
        return self.helper, ["x"]


@register
class IsPosInf(_SignedInf):
    paths, name, helper = ("numpy.isposinf",), "np.isposinf", staticmethod(hp.isposinf)


@register
class IsNegInf(_SignedInf):
    paths, name, helper = ("numpy.isneginf",), "np.isneginf", staticmethod(hp.isneginf)


@register
class ArrayEquiv(SourceCall):
    paths = ("numpy.array_equiv",)
    name, params = "np.array_equiv", ("a1", "a2")
    array_like = (0, 1, "a1", "a2")

    def choose(self, call, nodes, types):
        for k in self.params:
            if not isinstance(types.get(k), T.ArrayType):
                raise Incompatible(f"np.array_equiv() of {types.get(k)} (arrays)")
        return hp.array_equiv, ["a1", "a2"]
