"""More ``np.random.Generator`` methods on a generator argument (``generator.py``'s
conventions): ``standard_normal``, ``standard_exponential`` (``method='zig'`` or
any other, which NumPy reads as ``'inv'``) and ``standard_gamma`` with
``dtype=`` float64 or float32 (``ziggurat_float.py``), ``hypergeometric``
(``hypergeometric.py``), ``multinomial`` and ``dirichlet`` (``vector_draws.py``).

Scalar parameters only (an array of ``n``, ``ngood`` ... falls back); ``pvals``
and ``alpha`` are a 1-D array of a real dtype (float32 ``pvals`` falls back:
NumPy's message for their sum differs) or a tuple of reals.  ``out=`` falls
back.  A method not taken here is ``generator.METHODS``'.
"""
from __future__ import annotations

import numpy as np

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python import operators as ops
from . import distributions as hr
from . import ziggurat_float as zf
from .generator import (Method, call_void, dtype_name, is_absent, is_absent_expr,
                        is_integer_type, is_real_type, new_array, sized)

F, I = T.FLOAT64, T.INT64


def float_bits(t, what):
    """64 or 32: the float dtype of a ``dtype=`` argument's type (absent:
    float64); another dtype falls back (NumPy raises TypeError)."""
    if is_absent(t):
        return 64
    name = dtype_name(t, what, "f")
    if name not in ("float64", "float32"):
        raise Incompatible(f"{what} with dtype {name} (NumPy raises TypeError)")
    return 64 if name == "float64" else 32


def is_inv(t, what) -> bool:
    """Is ``method=`` other than ``'zig'`` (NumPy's inversion)?  A string constant."""
    if t is None:
        return False
    if not (isinstance(t, T.ConstType) and isinstance(t.value, str)):
        raise Incompatible(f"{what} with a method that is not a string constant")
    return t.value != "zig"


class Dtyped(Method):
    """A method with ``dtype=`` (and ``method=``): ``variants[(bits, inv)]`` is
    ``(scalar helper, fill helper, check)``; the scalar helper makes the check
    itself, a size makes it once before allocating.  A float32 scalar is a
    Python float."""

    def __init__(self, name, params, floats, variants):
        super().__init__(name, params, floats=floats)
        self.variants = variants

    def variant(self, bound, typed):
        what = f"Generator.{self.name}()"
        t = bound.get("dtype")
        m = bound.get("method")
        if not typed:
            t, m = getattr(t, "type", None), getattr(m, "type", None)
        return float_bits(t, what), is_inv(m, what)

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        if not is_absent(bound.get("out")):
            raise Incompatible(f"Generator.{self.name}() with out=")
        bits, _ = self.variant(bound, True)
        for p in self.floats:
            if p not in bound:
                raise Incompatible(f"Generator.{self.name}() missing argument '{p}'")
            if not is_real_type(bound[p]):
                raise Incompatible(f"Generator.{self.name}() with {p} of type {bound[p]}")
        if is_absent(bound.get("size")):
            return F
        return sized(bound, F if bits == 64 else T.FLOAT32)

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        one, fill, check = self.variants[self.variant(bound, False)]
        values = [L.let(v) for v in self.values(L, bound)]
        if is_absent_expr(bound.get("size")):
            return L.call_helper(one, [args[0]] + values)
        if check is not None:
            call_void(L, check, values)
        out, flat = new_array(L, call.type, bound["size"])
        call_void(L, fill, [args[0], flat] + values)
        return out


def _dtyped():
    from . import more_distributions as md
    normal = {(64, False): (hr.standard_normal, hr.fill_standard_normal, None),
              (32, False): (zf.standard_normal_f_scalar, zf.fill_standard_normal_f, None)}
    exponential = {
        (64, False): (zf.standard_exponential_scalar, hr.fill_standard_exponential, None),
        (32, False): (zf.standard_exponential_f_scalar, zf.fill_standard_exponential_f,
                      None),
        (64, True): (zf.exponential_inv, zf.fill_exponential_inv, None),
        (32, True): (zf.exponential_inv_f_scalar, zf.fill_exponential_inv_f, None)}
    gamma = {(64, False): (zf.standard_gamma_scalar, zf.fill_standard_gamma, md.check_shape),
             (32, False): (zf.standard_gamma_f_scalar, zf.fill_standard_gamma_f,
                           zf.check_shape_f)}
    return {"standard_normal": Dtyped("standard_normal", ("size", "dtype", "out"), (),
                                      normal),
            "standard_exponential": Dtyped("standard_exponential",
                                           ("size", "dtype", "method", "out"), (),
                                           exponential),
            "standard_gamma": Dtyped("standard_gamma", ("shape", "size", "dtype", "out"),
                                     ("shape",), gamma)}


class Hypergeometric(Method):
    """``rng.hypergeometric(ngood, nbad, nsample, size=None)``: int64 counts; the
    parameters integers (NumPy's safe cast to int64 refuses floats)."""

    result = I
    ints = ("ngood", "nbad", "nsample")

    def __init__(self):
        from . import hypergeometric as hg
        super().__init__("hypergeometric", self.ints + ("size",),
                         check=hg.check_hypergeometric, draw=hg.hypergeometric_draw)

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        for p in self.ints:
            if not is_integer_type(bound.get(p)):
                raise Incompatible(f"Generator.hypergeometric() with {p} of type "
                                   f"{bound.get(p)}")
        return sized(bound, I)

    def values(self, L, bound):
        return [ops.convert(L, bound[p], I) for p in self.ints]


def vector_type(t, what, name):
    """Is ``t`` a 1-D array of a real dtype or a tuple of reals?  (Else the call
    falls back.)"""
    if isinstance(t, T.ArrayType):
        if t.ndim != 1 or not is_real_type(t.dtype):
            raise Incompatible(f"{what} with {name} of type {t}")
        return
    if isinstance(t, T.TupleType) and all(is_real_type(i) for i in t.items):
        return
    raise Incompatible(f"{what} with {name} of type {t}")


def as_float64(a):
    return a.astype(np.float64)


def tuple_float64(a):
    return np.array(a, dtype=np.float64)


def vector_value(L, e):
    """A lowered ``pvals``/``alpha`` as a 1-D float64 array (NumPy's
    ``PyArray_FROM_OTF(..., NPY_DOUBLE)``)."""
    t = e.type
    if isinstance(t, T.ArrayType) and t.dtype == F:
        return L.let(e)
    helper = as_float64 if isinstance(t, T.ArrayType) else tuple_float64
    return L.let(L.call_helper(helper, [e]))


class VectorMethod(Method):
    """``multinomial`` / ``dirichlet``: rows of ``len(vector)`` items, shaped
    ``size + (len,)``; ``scalar`` names the scalar parameter (or None)."""

    def __init__(self, name, params, vector, scalar, check, fill, result):
        super().__init__(name, params, result=result)
        self.vector, self.scalar = vector, scalar
        self.check_vector, self.fill_rows = check, fill

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        what = f"Generator.{self.name}()"
        if self.scalar is not None and not is_integer_type(bound.get(self.scalar)):
            raise Incompatible(f"{what} with {self.scalar} of type {bound.get(self.scalar)}")
        t = bound.get(self.vector)
        vector_type(t, what, self.vector)
        if self.name == "multinomial" and isinstance(t, T.ArrayType) and \
                t.dtype.is_float and t.dtype != F:
            raise Incompatible(f"{what} with pvals of {t.dtype} (NumPy's message differs)")
        size = bound.get("size")
        if is_absent(size):
            return T.ArrayType(self.result, 1, "C")
        from ..arrays.creation import shape_types
        return T.ArrayType(self.result, shape_types(size) + 1, "C")

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        vec = vector_value(L, bound[self.vector])
        call_void(L, self.check_vector, [vec])
        out, flat = new_rows(L, call.type, bound.get("size"),
                             N.ArrayAttr(vec, "shape", 0, I))
        lead = [args[0], flat]
        if self.scalar is not None:
            lead.append(L.let(ops.convert(L, bound[self.scalar], I)))
        call_void(L, self.fill_rows, lead + [vec])
        return out


def new_rows(L, t, size, d):
    """A new array of type ``t`` shaped ``size + (d,)`` (``(d,)`` without a size:
    NumPy's ValueError for a negative dimension), and a 1-D view of it all."""
    from ..arrays.creation import allocate, shape_values
    dims = [] if is_absent_expr(size) else shape_values(L, size)
    dims = dims + [L.let(d)]
    out = allocate(L, t, dims)
    n = dims[0]
    for x in dims[1:]:
        n = N.BinOp("mul", n, x, I)
    flat_t = T.ArrayType(t.dtype, 1, "C")
    itemsize = max(1, t.dtype.bits // 8)
    flat = L.let(N.ArrayView(out, ops.C(0, I), [L.let(n)], [ops.C(itemsize, I)], flat_t))
    return out, flat


def _vector():
    from . import vector_draws as vd
    return {"multinomial": VectorMethod("multinomial", ("n", "pvals", "size"), "pvals", "n",
                                        vd.check_pvals, vd.fill_multinomial, I),
            "dirichlet": VectorMethod("dirichlet", ("alpha", "size"), "alpha", None,
                                      vd.check_alpha, vd.fill_dirichlet, F)}


MORE_METHODS = {**_dtyped(), "hypergeometric": Hypergeometric(), **_vector()}
