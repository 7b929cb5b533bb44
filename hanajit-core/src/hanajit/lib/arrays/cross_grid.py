"""Vectors and grids: ``np.cross`` of (stacks of) 3-vectors and ``np.meshgrid``.

``np.cross`` follows NumPy's ``numeric.cross`` step by step: both operands cast
to ``promote_types`` of their dtypes, each component a separately rounded
product minus another (``multiply(a1, b2, out=cp0); cp0 -= a2 * b1``), so the
signs of zeros and integer wrap-around are NumPy's.  NumPy 2 deprecates
2-element vectors (a DeprecationWarning, and with two of them a result of one
dimension less), so a call meeting one at run time re-runs in the interpreter.

``np.meshgrid(x1, ..., xn, indexing='xy'|'ij')`` returns NumPy 2's tuple of new
C-contiguous arrays, each input raveled first; ``'xy'`` swaps the first two
output axes.
"""
from __future__ import annotations

import functools

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from .shape import contiguous, reshape_view
from ..statistics.var_std_norm import const_arg
from .creation import allocate, fill
from ..python.operators import C
from .reductions import loops
from ..registry import CallTemplate, register

I = T.INT64
_CROSS_LENGTH = "incompatible dimensions for cross product\n(dimension must be 2 or 3)"


def cross_dtype(a: T.ArrayType, b: T.ArrayType) -> T.Scalar:
    t = promote(a.dtype, b.dtype)
    if t.is_bool:
        raise Incompatible("np.cross() of booleans (NumPy's boolean subtract raises "
                           "TypeError)")
    if t.is_float and t.bits == 16:
        raise Incompatible("np.cross() of float16")
    if t.is_complex:
        cross_complex_form(t.bits)
    return t


@register
class Cross(CallTemplate):
    """``np.cross(a, b)`` along the last axes (broadcast over the others)."""

    paths = ("numpy.cross",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs:
            raise Incompatible("np.cross(a, b) without axisa/axisb/axisc/axis")
        a, b = args
        if not (isinstance(a, T.ArrayType) and isinstance(b, T.ArrayType)):
            raise Incompatible("np.cross() of arrays")
        if a.ndim < 1 or b.ndim < 1:
            raise Incompatible("np.cross(): at least one array has zero dimension")
        return T.ArrayType(cross_dtype(a, b), max(a.ndim, b.ndim), "C")

    def lower(self, L, call, args, kwargs):
        a, b = (L.let(ew.materialize(L, x)) for x in args)
        t = call.type.dtype
        la = L.let(N.ArrayAttr(a, "shape", a.type.ndim - 1, I))
        lb = L.let(N.ArrayAttr(b, "shape", b.type.ndim - 1, I))

        def cmp(op, x, k):
            return N.Cmp(op, x, C(k, I), T.BOOL)
        bad = ops.bor(ops.band(cmp("ne", la, 2), cmp("ne", la, 3)),
                      ops.band(cmp("ne", lb, 2), cmp("ne", lb, 3)))
        L.raise_if(bad, ValueError, _CROSS_LENGTH)
        # a 2-vector: NumPy warns (deprecated), and two give one dimension less
        L.emit(N.If(cond=ops.bor(cmp("ne", la, 3), cmp("ne", lb, 3)),
                    then=[N.Raise(exc=ValueError, deopt=True, message="np.cross() of "
                                  "2-element vectors (deprecated in NumPy 2.0)")]))
        za, zb = _stack(L, a, t), _stack(L, b, t)
        dims = ew.broadcast(L, [za[0], zb[0]])
        ea = [ew.reindex(z, dims) for z in za]
        eb = [ew.reindex(z, dims) for z in zb]
        out = allocate(L, call.type, dims + [C(3, I)])

        def body(idx):
            x = [L.let(e(idx)) for e in ea]
            y = [L.let(e(idx)) for e in eb]

            def term(i, j):
                # multiply(a_i, b_j, out=cp); cp -= a_j * b_i
                first = L.let(ew.np_binop(L, "mul", x[i], y[j], t))
                return ew.np_binop(L, "sub", first, ew.np_binop(L, "mul", x[j], y[i], t), t)
            for k, (i, j) in enumerate(((1, 2), (2, 0), (0, 1))):
                L.emit(N.Store(array=out, indices=list(idx) + [C(k, I)], value=term(i, j)))
        loops(L, dims, body)
        return out


def _stack(L, arr, t):
    """The three components of ``arr``'s vectors (its last axis) as lazies of
    dtype ``t`` over the other axes."""
    nd = arr.type.ndim
    dims = [L.let(N.ArrayAttr(arr, "shape", k, I)) for k in range(nd - 1)]
    rt = T.ArrayType(t, nd - 1, "C")
    return [ew.Lazy(rt, dims, functools.partial(_component, L, arr, k, t))
            for k in range(3)]


def _component(L, arr, k, t, idx):
    return ops.convert(L, N.Load(arr, list(idx) + [C(k, I)], arr.type.dtype), t)


@functools.cache
def cross_complex_form(bits: int) -> None:
    """Check, once, that ``np.cross`` of ``bits``-bit complex numbers rounds its
    products as NumPy's array multiply does (``product_forms``) in the layouts
    its casts leave (stacks against stacks, one vector against a stack);
    Incompatible if not."""
    import numpy as np

    from ..complex.product_forms import cmul_form
    form = cmul_form("array", bits)
    ct = np.complex64 if bits == 64 else np.complex128
    rng = np.random.default_rng(77)

    def cvec(shape):
        r = rng.standard_normal((2,) + shape) * np.exp(rng.uniform(-4, 4, (2,) + shape))
        return (r[0] + 1j * r[1]).astype(ct)

    def model(a, b):
        import fractions
        ft = ct(0).real.dtype.type

        def mul(x, y):
            if form == "plain":
                return ct(complex(x.real * y.real - x.imag * y.imag,
                                  x.real * y.imag + x.imag * y.real))

            def fma(p, q, w):
                exact = fractions.Fraction(float(p)) * fractions.Fraction(float(q)) \
                    + fractions.Fraction(float(w))
                return ft(float(exact))
            return ct(complex(fma(x.real, y.real, -(x.imag * y.imag)),
                              fma(x.real, y.imag, x.imag * y.real)))
        a, b = np.broadcast_arrays(a, b)
        out = np.empty(a.shape, ct)
        for idx in np.ndindex(a.shape[:-1]):
            x, y = a[idx], b[idx]
            for k, (i, j) in enumerate(((1, 2), (2, 0), (0, 1))):
                out[idx + (k,)] = mul(x[i], y[j]) - mul(x[j], y[i])
        return out
    cases = [(cvec((3,)), cvec((3,))), (cvec((9, 3)), cvec((9, 3))),
             (cvec((3,)), cvec((9, 3))), (cvec((9, 3)), cvec((3,))),
             (cvec((4, 1, 3)), cvec((5, 3)))]
    with np.errstate(all="ignore"):
        for a, b in cases:
            if not np.array_equal(np.cross(a, b), model(a, b)):
                raise Incompatible("np.cross() of complex numbers: NumPy rounds the "
                                   "products in an unknown way here")


@register
class Meshgrid(CallTemplate):
    """``np.meshgrid(*xi, indexing='xy', sparse=False, copy=True)``."""

    paths = ("numpy.meshgrid",)

    def indexing(self, call):
        mode = const_arg(call, 10 ** 6, "indexing", "xy")
        if mode not in ("xy", "ij"):
            raise Incompatible(f"np.meshgrid(): indexing={mode!r}")
        return mode

    def typer(self, inf, call, args, kwargs):
        if set(kwargs) - {"indexing", "sparse", "copy"}:
            raise Incompatible("np.meshgrid(*xi, indexing=, sparse=, copy=)")
        if const_arg(call, 10 ** 6, "sparse", False) is not False \
                or const_arg(call, 10 ** 6, "copy", True) is not True:
            raise Incompatible("np.meshgrid() with sparse=True or copy=False (views)")
        self.indexing(call)
        if not args or not all(isinstance(x, T.ArrayType) for x in args):
            raise Incompatible("np.meshgrid() of one or more arrays")
        return T.TupleType(tuple(T.ArrayType(x.dtype, len(args), "C") for x in args))

    def lower(self, L, call, args, kwargs):
        n = len(args)
        flat = []
        for x in args:
            src = contiguous(L, x)
            flat.append(L.let(reshape_view(L, src, [C(-1, I)],
                                           src.type.copy(ndim=1, layout="C"))))
        sizes = [L.let(N.ArrayAttr(f, "shape", 0, I)) for f in flat]
        # the output axis each input varies along
        axis = list(range(n))
        if self.indexing(call) == "xy" and n > 1:
            axis[0], axis[1] = 1, 0
        dims = [None] * n
        for k in range(n):
            dims[axis[k]] = sizes[k]
        outs = []
        for k, (f, rt) in enumerate(zip(flat, call.type.items)):
            out = allocate(L, rt, dims)
            fill(L, out, dims, functools.partial(_grid_elem, f, axis[k]))
            outs.append(out)
        return N.MakeTuple(outs, call.type)


def _grid_elem(flat, axis, idx):
    return N.Load(flat, [idx[axis]], flat.type.dtype)
