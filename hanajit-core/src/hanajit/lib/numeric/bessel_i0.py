"""``np.i0(x)``: NumPy's pure-Python implementation (``numpy/lib/
_function_base_impl.py``) step by step on each element: ``x`` as float64 unless
it is float32/float64 already (float16 falls back; complex raises TypeError in
NumPy: it falls back too), ``a = abs(x)``, then ``piecewise(a, [a <= 8.0],
[_i0_1, _i0_2])``: ``exp(a) * _chbevl(a / 2.0 - 2, _i0A)`` or ``exp(a) *
_chbevl(32.0 / a - 2.0, _i0B) / sqrt(a)`` (both computed, one selected; a NaN
takes the second, as ``piecewise``'s otherwise-branch), ``_chbevl`` the
Clenshaw recurrence with NumPy's coefficient tables, Python floats rounded to
float32 for a float32 ``x`` as NEP 50 rounds them.  The result has ``x``'s shape,
0-d for a number, as NumPy's.

Every step is a correctly rounded operation except ``exp``, which is the C
library's ``exp``/``expf`` here (scalar in every loop, so the same on every
layout); NumPy's ``exp`` is its own SIMD code on AVX-512 hosts, within an ulp
of it but not always equal: where the two agree on ``abs(x)``, ``i0`` gives
NumPy's bits, elsewhere it is within a few ulp."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python.operators import C
from ..registry import CallTemplate, register


def _tables():
    from numpy.lib import _function_base_impl as impl
    return [float(v) for v in impl._i0A], [float(v) for v in impl._i0B]


def chbevl(L, y, vals, t):
    """NumPy's ``_chbevl(y, vals)`` in ``t``."""
    b0, b1, b2 = C(vals[0], t), C(0.0, t), C(0.0, t)
    for v in vals[1:]:
        b2 = b1
        b1 = b0
        b0 = L.let(N.BinOp("add", N.BinOp("sub", N.BinOp("mul", y, b1, t), b2, t),
                           C(v, t), t))
    return N.BinOp("mul", C(0.5, t), N.BinOp("sub", b0, b2, t), t)


def i0(L, x, t):
    a_tab, b_tab = _tables()
    a = L.let(N.Intrinsic("fabs", [x], t))
    e = N.Intrinsic("exp", [a], t)
    e.libm_exact = True             # the C library's exp, in every loop (no vector exp)
    e = L.let(e)
    small = N.BinOp("sub", N.BinOp("fdiv", a, C(2.0, t), t), C(2.0, t), t)
    small = N.BinOp("mul", e, chbevl(L, L.let(small), a_tab, t), t)
    big = L.let(N.BinOp("sub", N.BinOp("fdiv", C(32.0, t), a, t), C(2.0, t), t))
    big = N.BinOp("fdiv", N.BinOp("mul", e, chbevl(L, big, b_tab, t), t),
                  N.Intrinsic("sqrt", [a], t), t)
    return N.Select(N.Cmp("le", a, C(8.0, t), T.BOOL), small, big, t)


@register
class I0(CallTemplate):
    paths = ("numpy.i0",)
    accepts_lazy = True
    array_like = (0, "x")

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs:
            raise Incompatible("np.i0() takes one argument, x")
        d = ew.elem_type(args[0])
        if not isinstance(d, T.Scalar):
            raise Incompatible(f"np.i0() of {args[0]}")
        if d.is_complex:
            raise Incompatible("np.i0() of complex values (NumPy raises TypeError)")
        t = d if d in (T.FLOAT32, T.FLOAT64) else T.FLOAT64
        if d.kind == "f" and t != d:
            raise Incompatible(f"np.i0() of {d}")
        ndim = args[0].ndim if isinstance(args[0], T.ArrayType) else 0
        return T.ArrayType(t, ndim, "C")

    def lower(self, L, call, args, kwargs):
        rt = call.type
        x = args[0]
        if not (isinstance(x.type, T.ArrayType) or isinstance(x, ew.Lazy)):
            from ..arrays.creation import allocate
            out = L.let(allocate(L, rt, []))
            v = i0(L, L.let(ew.cast_to(L, x, rt.dtype)), rt.dtype)
            L.emit(N.Store(array=out, indices=[], value=v))
            return out
        return ew.lift(L, [x], rt, lambda v: i0(L, L.let(ew.cast_to(L, v, rt.dtype)),
                                                 rt.dtype))
