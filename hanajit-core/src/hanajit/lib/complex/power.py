"""``**`` of complex numbers with NumPy's semantics, operation for operation.

* ``np.power``, ``**`` on NumPy complex scalars, and ``**`` on complex arrays
  in general: NumPy's ``npy_cpow`` -- ``b == 0`` gives 1; a zero base gives 0
  for ``b.real > 0``, else NaN; an integer exponent ``|n| < 100`` (zero
  imaginary part) multiplies by squaring (``n`` 1, 2 and 3 unrolled as NumPy
  does) and takes the reciprocal for a negative one; anything else calls the
  C library's ``cpow`` (CPU target; ``lowering/llvm.py``).
* ``complex_array ** k`` with a Python int ``k`` of 2 or -1, or a Python float
  0.5 (``fast_scalar_power`` in NumPy's ``number.c``): ``np.square``,
  ``np.reciprocal``, ``np.sqrt`` of the array (the square rounded as NumPy's
  loop rounds it here: ``product_forms``).
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from .product_forms import cmul, cmul_form
from ..python.operators import C


def _parts(L, z):
    c = z.type.component
    return (L.let(N.ComplexPart(z, "real", c)), L.let(N.ComplexPart(z, "imag", c)))


def _cmul(L, a, b, t):
    """NumPy's ``cmul`` in ``npy_cpow``: ``(ar*br - ai*bi, ar*bi + ai*br)``."""
    return L.let(cmul(L, a, b, t))


def np_cpow(L, a, b, t):
    """NumPy's ``npy_cpow(a, b)`` (see the module docstring), branch-free: every
    case is computed and the applicable one selected."""
    from ..arrays.elementwise import np_complex_div
    c = t.component
    a, b = L.let(a), L.let(b)
    (ar, ai), (br, bi) = _parts(L, a), _parts(L, b)
    zero, one = C(0.0, c), C(1.0, c)

    def cmp(op, x, y):
        return N.Cmp(op, x, y, T.BOOL)

    def both(p, q):
        return N.BinOp("and", p, q, T.BOOL)

    def pick(cond, x, y):
        return N.Select(cond, x, y, t)

    # an integer exponent below 100 in magnitude (so n = (npy_intp) b.real is exact)
    small = both(both(cmp("eq", bi, zero), cmp("lt", N.Intrinsic("fabs", [br], c),
                                               C(100.0, c))),
                 cmp("eq", N.Intrinsic("trunc", [br], c), br))
    n = L.let(N.Cast(N.Select(small, br, zero, c), T.INT64))
    m = L.let(N.Select(cmp("lt", n, C(0, T.INT64)), N.UnOp("neg", n, T.INT64), n, T.INT64))
    # binary powering: bit k of |n| multiplies in a**(2**k) (|n| < 128: 7 bits)
    acc = L.let(N.MakeComplex(one, zero, t))
    p = a
    for k in range(7):
        bit = cmp("ne", N.BinOp("and", m, C(1 << k, T.INT64), T.INT64), C(0, T.INT64))
        acc = L.let(pick(bit, _cmul(L, acc, p, t), acc))
        if k < 6:
            p = _cmul(L, p, p, t)
    unit = L.let(N.MakeComplex(one, zero, t))
    powered = pick(cmp("lt", br, zero), np_complex_div(L, unit, acc, t), acc)
    square = _cmul(L, a, a, t)
    by_int = pick(cmp("eq", n, C(1, T.INT64)), a,
                  pick(cmp("eq", n, C(2, T.INT64)), square,
                       pick(cmp("eq", n, C(3, T.INT64)), _cmul(L, a, square, t),
                            powered)))
    general = N.Intrinsic("pow", [a, b], t)       # the C library's cpow
    nan = C(float("nan"), c)
    zero_base = pick(cmp("gt", br, zero), N.MakeComplex(zero, zero, t),
                     N.MakeComplex(nan, nan, t))
    r = pick(small, by_int, general)
    r = pick(both(cmp("eq", ar, zero), cmp("eq", ai, zero)), zero_base, r)
    return pick(both(cmp("eq", br, zero), cmp("eq", bi, zero)),
                N.MakeComplex(one, zero, t), r)


def complex_square(L, a, t, path="square", plain_if=None):
    """NumPy's ``np.square`` of a complex number, rounded as NumPy's ``path``
    does on this machine (``product_forms``; ``plain_if``: its
    ``plain_flag``)."""
    from .product_forms import cmul_plain_if
    return cmul_plain_if(L, a, a, t, cmul_form(path, t.bits), plain_if)


def python_exponent_power(L, a, b, t, kind, plain_if=None):
    """``complex_array ** k`` with ``k`` a Python int (``kind`` INT64) or float:
    NumPy's operator tries its fast paths on the value first."""
    from .math_functions import agrees_with_numpy
    from ..numeric.operator_ufuncs import complex_reciprocal
    c = t.component
    a = L.let(a)
    general = np_cpow(L, a, N.MakeComplex(N.Cast(b, c) if b.type != c else b, C(0.0, c), t),
                      t)
    if kind == T.INT64:
        b = L.let(b)
        return N.Select(N.Cmp("eq", b, C(2, T.INT64), T.BOOL),
                        complex_square(L, a, t, plain_if=plain_if),
                        N.Select(N.Cmp("eq", b, C(-1, T.INT64), T.BOOL),
                                 complex_reciprocal(L, a, t), general, t), t)
    if not agrees_with_numpy("sqrt", t.bits):
        raise Incompatible("complex ** 0.5: NumPy's complex sqrt is not the C library's here")
    b = L.let(b)
    return N.Select(N.Cmp("eq", b, C(0.5, T.FLOAT64), T.BOOL),
                    N.Intrinsic("sqrt", [a], t), general, t)
