"""More ``np.random.Generator`` methods on a generator argument (``generator.py``'s
conventions): ``standard_normal``, ``standard_exponential`` (``method='zig'`` or
any other, which NumPy reads as ``'inv'``) and ``standard_gamma`` with
``dtype=`` float64 or float32 (``ziggurat_float.py``), ``hypergeometric``
(``hypergeometric.py``), ``multinomial`` and ``dirichlet`` (``vector_draws.py``),
``multivariate_hypergeometric`` (``mvhg_algorithms.py``).

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
        return vector_call_type(self, self.bind(args, kwargs), f"Generator.{self.name}()")

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        vec, out, flat = vector_rows(L, call, bound[self.vector], self.check_vector,
                                     bound.get("size"))
        lead = [args[0], flat]
        if self.scalar is not None:
            lead.append(L.let(ops.convert(L, bound[self.scalar], I)))
        call_void(L, self.fill_rows, lead + [vec])
        return out


def vector_call_type(t, bound, what):
    """The type of ``multinomial``/``dirichlet`` of template ``t`` (its ``name``,
    ``scalar``, ``vector`` and ``result``) on the bound argument types."""
    if t.scalar is not None and not is_integer_type(bound.get(t.scalar)):
        raise Incompatible(f"{what} with {t.scalar} of type {bound.get(t.scalar)}")
    v = bound.get(t.vector)
    vector_type(v, what, t.vector)
    if t.name == "multinomial" and isinstance(v, T.ArrayType) and \
            v.dtype.is_float and v.dtype != F:
        raise Incompatible(f"{what} with pvals of {v.dtype} (NumPy's message differs)")
    return rows_type(bound.get("size"), t.result)


def rows_type(size, dtype):
    """A C-contiguous array of rows: ``size + (d,)`` dimensions."""
    if is_absent(size):
        return T.ArrayType(dtype, 1, "C")
    from ..arrays.creation import shape_types
    return T.ArrayType(dtype, shape_types(size) + 1, "C")


def vector_rows(L, call, vector, check, size):
    """The lowered vector as float64, ``check`` of it, then the new rows
    (``new_rows``): ``(vector, array, flat view)``."""
    vec = vector_value(L, vector)
    call_void(L, check, [vec])
    out, flat = new_rows(L, call.type, size, N.ArrayAttr(vec, "shape", 0, I))
    return vec, out, flat


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


def as_int64(a):
    return a.astype(np.int64)


def tuple_int64(a):
    return np.array(a, dtype=np.int64)


METHOD_CODES = {"marginals": 0, "count": 1}


class MultivariateHypergeometric(Method):
    """``rng.multivariate_hypergeometric(colors, nsample, size=None,
    method='marginals')``: ``colors`` a 1-D integer array or a non-empty tuple of
    ints (bool and uint64 items fall back), ``nsample`` an integer, ``method`` a
    string constant (``mvhg_algorithms.py``)."""

    def __init__(self):
        super().__init__("multivariate_hypergeometric",
                         ("colors", "nsample", "size", "method"), result=I)

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(args, kwargs)
        what = "Generator.multivariate_hypergeometric()"

        def ok(x):
            return isinstance(x, T.Scalar) and x.is_int and not x.is_bool and x != T.UINT64
        colors = bound.get("colors")
        if not (isinstance(colors, T.ArrayType) and colors.ndim == 1 and ok(colors.dtype)
                or isinstance(colors, T.TupleType) and colors.items
                and all(ok(x) for x in colors.items)):
            raise Incompatible(f"{what} with colors of type {colors}")
        if not is_integer_type(bound.get("nsample")):
            raise Incompatible(f"{what} with nsample of type {bound.get('nsample')}")
        method = bound.get("method")
        if not (is_absent(method) or isinstance(method, T.ConstType)
                and isinstance(method.value, str)):
            raise Incompatible(f"{what} with a method that is not a string constant")
        return rows_type(bound.get("size"), I)

    def lower(self, L, call, args, kwargs):
        from . import mvhg_algorithms as mv
        bound = self.bind(args, kwargs)
        colors = bound["colors"]
        if not (isinstance(colors.type, T.ArrayType) and colors.type.dtype == I):
            helper = as_int64 if isinstance(colors.type, T.ArrayType) else tuple_int64
            colors = L.call_helper(helper, [colors])
        colors = L.let(colors)
        method = bound.get("method")
        code = 0 if is_absent_expr(method) else METHOD_CODES.get(method.type.value, 2)
        code = ops.C(code, I)
        nsample = L.let(ops.convert(L, bound["nsample"], I))
        total = L.let(L.call_helper(mv.check_mvhg, [colors, nsample, code]))
        out, flat = new_rows(L, call.type, bound.get("size"),
                             N.ArrayAttr(colors, "shape", 0, I))
        call_void(L, mv.fill_mvhg, [args[0], flat, colors, nsample, total, code])
        return out


MORE_METHODS = {**_dtyped(), "hypergeometric": Hypergeometric(), **_vector(),
                "multivariate_hypergeometric": MultivariateHypergeometric()}
