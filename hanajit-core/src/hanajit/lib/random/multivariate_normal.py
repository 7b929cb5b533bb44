"""``multivariate_normal``: ``Generator`` method, ``np.random`` function and
``RandomState`` method.

``mean`` a 1-D and ``cov`` a 2-D array of a real dtype (or a tuple of numbers,
or of tuples, read as ``np.array`` reads it), ``size`` None, an int or
a tuple of ints, ``check_valid`` a string constant, ``tol`` a number and (the
``Generator``'s) ``method`` ``'svd'``, ``'eigh'`` or ``'cholesky'``, a constant.
As NumPy: the shape checks, then ``standard_normal(size + (d,))`` drawn from the
generator (the ziggurat) or the ``RandomState`` (the polar method and its cached
Gaussian) into a new ``(m, d)`` array, then NumPy's own factorisation, checks and
products (``multivariate_algorithms.py``), the result viewed with the shape
``size + (d,)``.  "covariance is not symmetric positive-semidefinite." is a
RuntimeWarning through ``prims.warn`` (raised where a filter makes it an
error) or the ValueError of ``check_valid='raise'``.  Other argument types,
mean or cov of other dimensions or complex (NumPy's ValueError/TypeError) and
another ``method`` fall back to the interpreter naming the call.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from . import distributions as hr
from . import legacy_algorithms as hl
from . import multivariate_algorithms as hm
from .generator import call_void, is_absent, is_absent_expr, is_real_type
from .legacy import state_address
from ..registry import CallTemplate, bind_arguments, register, sequences_as_arrays

F, I = T.FLOAT64, T.INT64
METHODS = ("svd", "eigh", "cholesky")


def _text(t, default):
    """A string argument's value (a constant or a str argument), else None."""
    if t is None:
        return default
    value = getattr(t, "value", None)
    return value if isinstance(value, str) else None


def _type(e):
    return None if e is None else e.type


class MultivariateNormal(CallTemplate):
    """``legacy``: the ``RandomState`` form, of the global state or (``method``)
    a receiver's; else ``Generator.multivariate_normal``."""

    def __init__(self, legacy, method=False):
        self.legacy, self.method = legacy, method
        self.receiver = method or not legacy
        self.name = ("RandomState" if method else "np.random") if legacy else "Generator"
        self.name += ".multivariate_normal"
        self.paths = ("numpy.random.multivariate_normal",) if legacy and not method \
            else ()
        self.params = ("mean", "cov", "size", "check_valid", "tol") + \
            (() if legacy else ("method",))

    def bind(self, args, kwargs):
        return bind_arguments(self.name, self.params, args[1:] if self.receiver else args,
                              kwargs)

    def typer(self, inf, call, args, kwargs):
        if self.legacy and self.method:
            from .random_state import check_receiver
            check_receiver(inf, args[0])
        # a tuple or list display of numbers: np.asarray of it, as NumPy reads it
        where = (1, 2, "mean", "cov") if self.receiver else (0, 1, "mean", "cov")
        args, kwargs = sequences_as_arrays(inf, call, where, args, kwargs, 0)
        bound = self.bind(args, kwargs)
        for p, ndim in (("mean", 1), ("cov", 2)):
            t = bound.get(p)
            if not (isinstance(t, T.ArrayType) and is_real_type(t.dtype)):
                raise Incompatible(f"{self.name}() with {p} of type {t} (an array of "
                                   "a real dtype compiles)")
            if t.ndim != ndim:
                raise Incompatible(f"{self.name}() with a {t.ndim}-D {p} (NumPy's "
                                   "ValueError)")
        if _text(bound.get("check_valid"), "warn") is None:
            raise Incompatible(f"{self.name}() with a check_valid that is not a string "
                               "constant")
        if _text(bound.get("method"), "svd") not in METHODS:
            raise Incompatible(f"{self.name}() with a method other than the constants "
                               "'svd', 'eigh' and 'cholesky'")
        tol = bound.get("tol")
        if tol is not None and not is_real_type(tol):
            raise Incompatible(f"{self.name}() with tol of type {tol}")
        size = bound.get("size")
        if is_absent(size):
            return T.ArrayType(F, 1, "C")
        from ..arrays.creation import shape_types
        return T.ArrayType(F, shape_types(size) + 1, "C")

    def lower(self, L, call, args, kwargs):
        from ..arrays.creation import allocate, shape_values
        bound = self.bind(args, kwargs)
        mean, cov = L.let(bound["mean"]), L.let(bound["cov"])
        check = _text(_type(bound.get("check_valid")), "warn")
        method = _text(_type(bound.get("method")), "svd")
        tol = ops.convert(L, bound["tol"], F) if "tol" in bound else ops.C(1e-8, F)
        tol = L.let(tol)
        call_void(L, hm.check_shapes, [mean, cov])
        d = L.let(N.ArrayAttr(mean, "shape", 0, I))
        size = bound.get("size")
        dims = [] if is_absent_expr(size) else shape_values(L, size)
        m = ops.C(1, I)
        for k in dims:
            m = N.BinOp("mul", m, k, I)
        x = allocate(L, T.ArrayType(F, 2, "C"), [L.let(m), d])
        n = L.let(N.BinOp("mul", N.ArrayAttr(x, "shape", 0, I), d, I))
        flat = L.let(N.ArrayView(x, ops.C(0, I), [n], [ops.C(8, I)], T.ArrayType(F, 1, "C")))
        if self.legacy:
            call_void(L, hl.fill_gauss, [state_address(L, args[0] if self.method else None),
                                         flat])
        else:
            call_void(L, hr.fill_standard_normal, [args[0], flat])
        helper = hm.legacy_svd if self.legacy else getattr(hm, method)
        code = ops.C(hm.CHECKS.get(check, 3), I)
        y = L.let(L.call_helper(helper, [x, mean, cov, code, tol]))
        if y.type.layout != "C":
            raise Incompatible(f"{self.name}(): the product is not C-contiguous")
        shape = list(dims) + [d]
        strides, step = [], ops.C(8, I)
        for k in reversed(shape):
            strides.insert(0, step)
            step = L.let(N.BinOp("mul", step, k, I))
        return N.ArrayView(y, ops.C(0, I), shape, strides, call.type)


register(MultivariateNormal(legacy=True))
GENERATOR_METHOD = MultivariateNormal(legacy=False)
RANDOMSTATE_METHOD = MultivariateNormal(legacy=True, method=True)
