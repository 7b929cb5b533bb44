"""``np.cumsum`` / ``np.cumprod`` and the methods: NumPy's ``add.accumulate`` /
``multiply.accumulate``, along an axis or over the flattened array, in the order and
accumulator type NumPy uses (and the rounding of its complex products)."""
from __future__ import annotations

import functools

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import elementwise as ew
from ..python import operators as ops
from ..complex.product_forms import cmul
from .creation import allocate, dtype_of
from ..python.operators import C
from .reductions import loops, sum_dtype, total_size
from ..registry import CallTemplate, register

I = T.INT64


class Cumulative(CallTemplate):
    """``np.cumsum`` / ``np.cumprod`` (and the methods) of the flattened array or
    along a constant ``axis``, with an optional constant ``dtype``: NumPy's
    ``add.accumulate`` / ``multiply.accumulate``, sequential along the axis, in
    ``np.sum``'s accumulator type (bool and narrow ints widen to int64 / uint64)."""

    accepts_lazy = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def plan(self, call, t: T.ArrayType):
        """(axis or None for the flattened array, accumulator dtype)."""
        axis = _cum_const(call, 1, "axis")
        if axis is not None:
            if type(axis) is not int:
                raise Incompatible(f"np.{self.name}(): axis must be a constant integer")
            nd = max(t.ndim, 1)
            if not -nd <= axis < nd:
                raise Incompatible(f"np.{self.name}(): axis {axis} is out of bounds for "
                                   f"array of dimension {nd}")
            axis = None if t.ndim <= 1 else axis % t.ndim
        dt = _cum_const(call, 2, "dtype")
        if dt is None:
            return axis, sum_dtype(t.dtype)
        acc = dtype_of(dt)
        if (t.dtype.is_float and acc.is_int) \
                or (t.dtype.is_complex and not acc.is_complex) \
                or (acc.bits == 16 and acc.is_float and acc != t.dtype):
            # float -> int (NaN and overflow), complex -> real (ComplexWarning),
            # to float16 (NumPy may round twice): not cast as NumPy casts
            raise Incompatible(f"np.{self.name}(): dtype={acc} from {t.dtype}")
        if self.name == "cumprod" and acc.is_complex and acc != t.dtype:
            # NumPy multiplies cast input in buffered chunks, each chunk's products
            # in one inner-loop call: where its rounding changes is not modelled
            raise Incompatible(f"np.cumprod(): dtype={acc} from {t.dtype}")
        return axis, acc

    def typer(self, inf, call, args, kwargs):
        if len(args) > 3 or set(kwargs) - {"axis", "dtype"} or not args \
                or not isinstance(args[0], (T.ArrayType, T.Scalar)):
            raise Incompatible(f"np.{self.name}(a, axis=None, dtype=None) without out")
        t = _as_array_type(args[0])
        axis, acc = self.plan(call, t)
        return T.ArrayType(acc, 1 if axis is None else t.ndim, "C")

    def lower(self, L, call, args, kwargs):
        a = args[0]
        if isinstance(a.type, T.Scalar):        # a number: NumPy's 0-d array
            x = L.let(a)
            a = ew.Lazy(_as_array_type(x.type), [], lambda idx: x)
        a = a if isinstance(a, ew.Lazy) else L.let(a)
        z = ew.to_lazy(L, a)
        axis, t = self.plan(call, z.type)
        # the stride NumPy's inner loop reads the input with: its own along the
        # axis (a 1-D array's even without one); raveled copies and new arrays
        # (an expression) are contiguous
        sk = axis if axis is not None else 0 if a.type.ndim == 1 else None
        stride = (L.let(N.ArrayAttr(a, "stride", sk, I))
                  if sk is not None and not isinstance(a, ew.Lazy) else C(8, I))
        if axis is None:
            n = L.let(total_size(z.dims))
            out = allocate(L, call.type, [n])
            k = L.temp(I, "k")
            L.emit(N.Assign(target=k, value=C(0, I)))
            acc = L.temp(t, "acc")
            L.emit(N.Assign(target=acc, value=ops.zero(t)))     # (the first element's)

            def body(idx):
                self.step(L, acc, z.elem(idx), t, N.Var(k, I), n, stride)
                L.emit(N.Store(array=out, indices=[N.Var(k, I)], value=N.Var(acc, t)))
                L.emit(N.Assign(target=k, value=N.BinOp("add", N.Var(k, I), C(1, I), I)))
            loops(L, z.dims, body)
            return out
        dims = [L.let(d) for d in z.dims]
        out = allocate(L, call.type, dims)
        outer = [d for k, d in enumerate(dims) if k != axis]

        def line(fixed):
            acc = L.temp(t, "acc")
            L.emit(N.Assign(target=acc, value=ops.zero(t)))     # (the first element's)

            def body(idx):
                full = list(fixed)
                full.insert(axis, idx[0])
                self.step(L, acc, z.elem(full), t, idx[0], dims[axis], stride)
                L.emit(N.Store(array=out, indices=full, value=N.Var(acc, t)))
            loops(L, [dims[axis]], body)
        loops(L, outer, line)
        return out

    def step(self, L, acc, elem, t, i, n, stride):
        """``acc`` after element ``i`` of a line of ``n`` read with ``stride``:
        NumPy copies the first element (so ``-0.0`` and ``inf + 0j`` survive)
        and combines the others."""
        x = L.let(ops.convert(L, elem, t))
        cur = N.Var(acc, t)
        if t.is_bool:                   # NumPy's boolean add / multiply: or / and
            v = ops.bor(cur, x) if self.name == "cumsum" else ops.band(cur, x)
        elif self.name == "cumsum" or not t.is_complex:
            op = "add" if self.name == "cumsum" else "mul"
            v = ops.complex_arith(L, op, cur, x, t) if t.is_complex else N.BinOp(op, cur, x, t)
        else:
            # NumPy's inner loop multiplies a line's elements 1.. in one call; with
            # a single product (a line of 2) it does not overlap its output and
            # takes the SIMD loop, which may round with fused multiply-adds
            v = cmul(L, cur, x, t)
            fused = C(False, T.BOOL)
            for cmp, sign in (("lt", -1), ("eq", 0), ("gt", 1)):
                if cumprod_pair_form(t.bits, sign) == "fma":
                    fused = ops.bor(fused, N.Cmp(cmp, stride, C(0, I), T.BOOL))
            if not (isinstance(fused, N.Const) and not fused.value):
                pair = ops.band(N.Cmp("eq", n, C(2, I), T.BOOL), fused)
                v = N.Select(pair, cmul(L, cur, x, t, "fma"), v, t)
        L.emit(N.Assign(target=acc, value=N.Select(N.Cmp("eq", i, C(0, I), T.BOOL), x,
                                                   v, t)))


@functools.cache
def cumprod_pair_form(bits: int, sign: int) -> str:
    """``"plain"`` or ``"fma"``: how ``np.cumprod`` rounds the one product of a
    line of two ``bits``-bit complex numbers read with a stride of ``sign``
    (NumPy's SIMD loop may fuse it -- on AVX-512 for complex64 only with a
    non-negative stride); measured once, exactly.  Longer lines overlap their
    output, which keeps NumPy's loop scalar: plain, also checked here."""
    import fractions

    import numpy as np
    ft, ct = (np.float32, np.complex64) if bits == 64 else (np.float64, np.complex128)
    rng = np.random.default_rng(1234)
    parts = rng.standard_normal((4, 64)) * np.exp(rng.uniform(-6, 6, (4, 64)))
    a = np.stack([parts[0] + 1j * parts[1], parts[2] + 1j * parts[3]]).astype(ct)
    if sign < 0:
        a = a[::-1]
    elif sign == 0:
        a = np.broadcast_to(a[:1], a.shape)
    triple = np.concatenate([a, a[:1]]) if sign > 0 else None

    def fma(x, y, w):
        exact = fractions.Fraction(float(x)) * fractions.Fraction(float(y)) + \
            fractions.Fraction(float(w))
        return ft(float(exact))

    forms = {"plain": lambda x, y: (x.real * y.real - x.imag * y.imag,
                                    x.real * y.imag + x.imag * y.real),
             "fma": lambda x, y: (fma(x.real, y.real, -(x.imag * y.imag)),
                                  fma(x.real, y.imag, x.imag * y.real))}

    def matches(got, first, second, form):
        return all((g.real, g.imag) == forms[form](x, y)
                   for g, x, y in zip(got, first, second))
    with np.errstate(all="ignore"):
        got = np.cumprod(a, axis=0)[1]
        if triple is not None:
            t2 = np.cumprod(triple, axis=0)
            if not (matches(t2[1], triple[0], triple[1], "plain")
                    and matches(t2[2], t2[1], triple[2], "plain")):
                raise Incompatible("np.cumprod() of complex numbers: NumPy rounds it "
                                   "in an unknown way here")
        for name in forms:
            if matches(got, a[0], a[1], name):
                return name
    raise Incompatible("np.cumprod() of complex numbers: NumPy rounds it in an unknown "
                       "way here")


def _as_array_type(t):
    return t if isinstance(t, T.ArrayType) else T.ArrayType(t, 0, "C")


def _cum_const(call, pos, name):
    # imported here: var_std_norm imports this module's helpers
    from ..statistics.var_std_norm import const_arg
    return const_arg(call, pos, name)


register(Cumulative("cumsum"))
register(Cumulative("cumprod"))

METHODS = {"cumsum": Cumulative("cumsum"), "cumprod": Cumulative("cumprod")}
