"""Arrays of a fixed pattern, built as NumPy builds them: ``np.diagflat``,
``np.indices`` and ``np.vander``.

``diagflat(v, k=0)``: ``v`` (an array or a tuple display of numbers) flattened
onto diagonal ``k`` of a new square matrix of zeros of ``v``'s dtype; a scalar
``v`` falls back.  ``indices(dimensions, dtype=int, sparse=False)``: a tuple of
integers (its length known, the values at run time), a constant integer
``dtype``; ``sparse=True`` falls back.  ``vander(x, N=None, increasing=False)``
of a 1-D array: the powers in ``promote_types(x.dtype, int)`` (int64, float64 or
complex128), each the previous one times ``x`` as NumPy's ``multiply.accumulate``
computes them."""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, register
from . import pattern_arrays_algorithms as hp
from .creation import allocate, const_dtype, fill
from .source_calls import SourceCall, const_node

I = T.INT64


def _signed_int(name, what, t):
    if not (isinstance(t, T.Scalar) and t.is_int and not t.is_bool and t.kind != "u"):
        raise Incompatible(f"{name}(): {what} must be a signed integer")


@register
class Diagflat(SourceCall):
    paths = ("numpy.diagflat",)
    name, params = "np.diagflat", ("v", "k")
    array_like = (0, "v")

    def choose(self, call, nodes, types):
        v = types.get("v")
        if not isinstance(v, T.ArrayType):
            raise Incompatible(f"np.diagflat() of {v} (an array)")
        if "k" not in types:
            return hp.diagflat, ["v", const_node(0, I)]
        _signed_int(self.name, "k", types["k"])
        return hp.diagflat, ["v", "k"]


@register
class Vander(SourceCall):
    paths = ("numpy.vander",)
    name, params = "np.vander", ("x", "N", "increasing")
    array_like = (0, "x")

    def choose(self, call, nodes, types):
        x = types.get("x")
        if not isinstance(x, T.ArrayType) or x.ndim != 1:
            raise Incompatible(f"np.vander() of {x} (a 1-D array; NumPy's ValueError "
                               "otherwise)")
        dt = np.promote_types(np.dtype(T.numpy_name(x.dtype)), np.int64)
        helper = {"i": hp.vander_int, "f": hp.vander_float, "c": hp.vander_complex}.get(
            dt.kind)
        if helper is None or dt.itemsize > 16:
            raise Incompatible(f"np.vander() of {x} (computed in {dt})")
        items = ["x"]
        if types.get("N", T.NONE) == T.NONE:
            items += [const_node(0, I), const_node(False, T.BOOL)]
        else:
            n = types["N"]
            if not (isinstance(n, T.Scalar) and n.is_int and not n.is_bool):
                raise Incompatible("np.vander(): N must be an integer")
            items += ["N", const_node(True, T.BOOL)]
        inc = types.get("increasing")
        if inc is None:
            items.append(const_node(False, T.BOOL))
        elif isinstance(inc, T.Scalar) and not inc.is_complex:
            items.append("increasing")
        else:
            raise Incompatible("np.vander(): increasing must be a bool")
        return helper, items


@register
class Indices(CallTemplate):
    """``np.indices(dimensions, dtype=int)``: ``res[k][i0, i1, ...] = ik``."""

    paths = ("numpy.indices",)
    params = ("dimensions", "dtype", "sparse")

    def typer(self, inf, call, args, kwargs):
        from ..registry import bound_const
        b = bind_arguments("np.indices", self.params, args, kwargs)
        nodes = bind_arguments("np.indices", self.params, call.args, call.kwargs)
        dims = b.get("dimensions")
        if not isinstance(dims, T.TupleType) or isinstance(dims, T.NamedTupleType) or any(
                not (isinstance(d, T.Scalar) and d.is_int and not d.is_bool)
                for d in dims.items):
            raise Incompatible(f"np.indices() of {dims} (a tuple of integers)")
        if bound_const(call, nodes, "sparse", False) is not False:
            raise Incompatible("np.indices(): sparse=True (a tuple of arrays)")
        dt = b.get("dtype")
        dtype = T.INT64 if dt in (None, T.NONE) else const_dtype(dt)
        if dtype.is_float or dtype.is_complex or dtype.is_bool:
            raise Incompatible(f"np.indices() with dtype={dtype} (integer dtypes)")
        return T.ArrayType(dtype, len(dims.items) + 1, "C")

    def lower(self, L, call, args, kwargs):
        b = bind_arguments("np.indices", self.params, args, kwargs)
        tup = L.let(b["dimensions"])
        t = call.type
        n = t.ndim - 1
        dims = [C(n, I)]
        for k, it in enumerate(tup.type.items):
            d = L.let(ops.convert_wrap(N.TupleGet(tup, k, it), I))
            L.raise_if(N.Cmp("lt", d, C(0, I), T.BOOL), ValueError,
                       "negative dimensions are not allowed")
            dims.append(d)
        out = allocate(L, t, dims)

        def value(idx):
            v = C(0, I)
            for k in range(n):
                v = N.Select(N.Cmp("eq", idx[0], C(k, I), T.BOOL), idx[k + 1], v, I)
            return ops.convert_wrap(v, t.dtype)
        fill(L, out, dims, value)
        return out
