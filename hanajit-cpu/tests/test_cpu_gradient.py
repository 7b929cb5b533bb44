"""``np.gradient`` compiled (``lib/numeric/gradient.py``, ``gradient_stencil.py``)
and checked bit for bit against NumPy 2: ``edge_order`` 1 and 2, no spacing, one
number for every axis, a number or an array of coordinates per axis (uniform or
not, integer or float, decided at run time as NumPy decides), NEP 50's types for
Python numbers and NumPy scalars, NaN and inf, views, and NumPy's errors in its
order; complex data (complex arithmetic as NumPy's: its complex division, its
complex products' rounding, signed zeros, inf and NaN in either part).  A
fallback fails these tests, except the one that expects it."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.compare import assert_same_bits, check_on_copies

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]

RNG = np.random.default_rng(8)
SPECIAL = np.array([0.0, -0.0, 1.5, -2.0, 3.25, np.nan, np.inf, -np.inf])


def _same(fn, *args):
    """``fn`` compiled gives NumPy's result, or raises NumPy's exception."""
    check_on_copies(fn, _compiled(fn), args, assert_same_bits)


_JITTED = {}


def _compiled(fn):
    if fn not in _JITTED:
        _JITTED[fn] = jit(fn)
    return _JITTED[fn]


def _data():
    """Float64, float32 and integer data of one to three dimensions, views,
    NaN and inf."""
    yield RNG.standard_normal(10)
    yield RNG.standard_normal(3)
    yield RNG.choice(SPECIAL, size=12)
    yield RNG.choice(SPECIAL, size=(4, 5)).astype(np.float32)
    yield np.arange(60).reshape(3, 4, 5) ** 2
    yield RNG.standard_normal((7, 8))[::2, ::-3]


def gradients(f):
    return np.gradient(f), np.gradient(f, axis=-1)


def spaced(f, dx):
    return np.gradient(f, dx), np.gradient(f, dx, axis=0)


def test_gradient_as_numpy_computes_it():
    """``np.gradient`` with uniform spacing: central differences inside, one-sided
    ones at the ends, each in NumPy's types -- a Python spacing keeps float32
    data float32, a NumPy float64 one computes the quotient in float64 -- and
    NumPy's ValueError for an axis of one value."""
    jg, js = jit(gradients), jit(spaced)
    rng = np.random.default_rng(8)
    spacings = (0.3, np.float64(0.3), 2, np.float32(0.25))
    for k, f in enumerate((rng.standard_normal(10), rng.standard_normal((4, 5)),
                           rng.standard_normal((3, 4, 2)).astype(np.float32),
                           np.arange(12).reshape(3, 4) ** 2,
                           np.array([1.0, np.inf, 3.0, np.nan]),
                           rng.standard_normal((5, 6))[::2, ::-1])):
        # every spacing type with each data type (float64 1-D, float32, integers);
        # the float64 2-D arrays (a C and a strided layout, whose quotients are
        # float64 with any of these spacings: as the 1-D array's) two each
        forms = {1: spacings[::2], 5: spacings[1::2]}.get(k, spacings)
        with np.errstate(all="ignore"):
            assert_same_bits(jg(f), tuple(x if not isinstance(x, list) else tuple(x)
                                          for x in gradients(f)))
            for dx in forms:
                want = spaced(f, dx)
                assert_same_bits(js(f, dx), tuple(tuple(w) if isinstance(w, list) else w
                                                   for w in want))
    with pytest.raises(ValueError, match="too small to calculate"):
        jg(np.array([1.0]))


def second(f, py, npf, pyint, f32, npint):
    return (np.gradient(f, edge_order=2), np.gradient(f, py, edge_order=2),
            np.gradient(f, npf, edge_order=2), np.gradient(f, pyint, edge_order=2),
            np.gradient(f, f32, edge_order=2), np.gradient(f, npint, edge_order=2),
            np.gradient(f, npint, axis=0), np.gradient(f, f32, axis=-1, edge_order=2))


def test_edge_order_two_with_numbers():
    """NumPy's ``a = -1.5 / dx`` ... at the ends: a Python number as a Python
    float (rounded to float32 with float32 data), a NumPy float32 in float32, a
    NumPy int in float64; also a spacing 0 from NumPy (infinities, no error)."""
    for f in _data():
        _same(second, f, 0.3, np.float64(0.7), 3, np.float32(0.1), np.int64(-2))
    _same(second, RNG.standard_normal((3, 4)), 1e-300, np.float64(0.0), True,
          np.float32(3e38), np.int8(0))


def coordinates(f, x, y):
    return (np.gradient(f, x, y), np.gradient(f, x, y, edge_order=2),
            np.gradient(f, 0.5, y, edge_order=2))


def line(v, x):
    return np.gradient(v, x), np.gradient(v, x, edge_order=2), np.gradient(v, x, axis=(0,))


def _coords(n):
    """Float64 coordinates of ``n`` values: not uniform, uniform (NumPy then
    takes the scalar formulas with its first difference), a difference 0, NaN."""
    steps = np.cumsum(RNG.random(n)) - 2.0
    yield steps
    yield np.arange(n) * 0.5 + 3.0                # equal differences
    yield np.arange(n) * 0.1                      # nearly: not equal
    c = steps.copy()
    c[1] = c[2]
    yield c
    c = steps.copy()
    c[-1] = np.nan
    yield c
    yield np.full(n, 2.0)                         # all differences 0


def _typed_coords(n):
    """Coordinates of other types: float32 (uniform or not), integers (as
    float64 before their differences: uint8 does not wrap), a view."""
    yield (np.cumsum(RNG.random(n)) - 2.0).astype(np.float32)
    yield (np.arange(n) * 0.25).astype(np.float32)
    yield np.arange(n) * 3 - 5
    yield np.cumsum(RNG.integers(1, 4, n))
    yield np.array([200, 150, 120, 50, 40, 1, 0][:n], dtype=np.uint8)
    yield np.array([0.0, 1.0, 3.0, 2.0, 7.0, 7.5, 9.0][:n])[::-1]


def test_coordinate_arrays():
    """A 1-D array of coordinates per axis (and numbers beside them): NumPy's
    differences, its uniform check at run time, its non-uniform coefficients,
    inside and at the ends for both edge orders, in NumPy's types."""
    f = RNG.choice(SPECIAL, (4, 5))
    for data in (RNG.standard_normal((4, 5)), f, f.astype(np.float32),
                 RNG.standard_normal((9, 11))[::2, 1::2]):
        for x, y in zip(_coords(4), _coords(5)):
            _same(coordinates, data, x, y)
    x, y = (np.arange(n, dtype=np.float32) ** 2 for n in (4, 5))
    _same(coordinates, f.astype(np.float32), x, y)
    v, w = RNG.standard_normal(7), RNG.choice(SPECIAL, 7).astype(np.float32)
    for x in _typed_coords(7):
        _same(line, v, x)
        if x.dtype != np.uint8:
            _same(line, w if x.dtype.kind == "f" else np.arange(7) ** 3, x)


def three(f, x, y, z):
    return np.gradient(f, x, y, z, edge_order=2), np.gradient(f, z, x, axis=(2, 0))


def test_three_dimensions_each_axis_its_spacing():
    f = RNG.standard_normal((3, 4, 5))
    for g in (f.astype(np.float32), f.transpose(2, 0, 1).copy().transpose(1, 2, 0)):
        _same(three, g, np.array([0.0, 0.5, 2.0]), np.float32(0.25), np.arange(5) * 2)


def none(f):
    return np.gradient(f)


def one(f, a):
    return np.gradient(f, a)


def two(f, a, b):
    return np.gradient(f, a, b)


def three_spacings(f, a, b, c):
    return np.gradient(f, a, b, c)


def none2(f):
    return np.gradient(f, edge_order=2)


def one2(f, a):
    return np.gradient(f, a, edge_order=2)


def edge3(f):
    return np.gradient(f, edge_order=3)


def last_axis(f, x):
    return np.gradient(f, x, axis=1)


def test_numpys_errors_in_its_order():
    v, m = np.arange(5.0) ** 2, np.ones((3, 4))
    cases = [
        (one, (m, np.arange(3.0)), TypeError, "invalid number of arguments"),
        (three_spacings, (m, 1.0, 2.0, 3.0), TypeError, "invalid number of arguments"),
        (one, (v, m), ValueError, "either scalars or 1d"),
        (one, (v, np.arange(4.0)), ValueError, "must match the length"),
        (last_axis, (m, np.arange(3.0)), ValueError, "must match the length"),
        (two, (m, np.arange(3.0), np.arange(5)), ValueError, "must match the length"),
        (one, (np.ones(1), np.ones(1)), IndexError, "out of bounds"),
        (two, (np.ones((1, 0)), np.ones(1), np.ones(0)), IndexError, "out of bounds"),
        (two, (np.ones((2, 0)), np.ones(2), np.ones(0)), IndexError, "out of bounds"),
        (none, (np.ones(1),), ValueError, "too small"),
        (none, (np.ones((3, 0)),), ValueError, "too small"),
        (none2, (np.ones(2),), ValueError, "too small"),
        (one2, (np.ones(2), np.arange(2.0)), ValueError, "too small"),
        (one2, (np.ones((3, 2)), 1.0), ValueError, "too small"),
        (one2, (v, 0.0), ZeroDivisionError, "float division by zero"),
        (one2, (v, 0), ZeroDivisionError, "float division by zero"),
        (one2, (np.ones((3, 2)), 0.0), ZeroDivisionError, "float division by zero"),
        (edge3, (v,), ValueError, "greater than 2 not supported"),
        (edge3, (np.ones(1),), ValueError, "greater than 2 not supported"),
    ]
    for fn, args, exc, words in cases:
        with pytest.raises(exc, match=words):
            fn(*args)
        with pytest.raises(exc, match=words):
            _compiled(fn)(*args)
    # no errors: an empty other axis, a NumPy scalar 0 (infinities), coordinates
    # all equal (differences 0)
    _same(last_axis, np.ones((0, 3)), np.arange(3))
    for args in [(v, np.float64(0.0)), (v, np.float32(-0.0)), (np.arange(3), np.zeros(3))]:
        _same(one, *args)
        _same(one2, *args)


def complex_spacing(f, d):
    return np.gradient(f, d)


def boolean_coordinates(f, x):
    return np.gradient(f, x)


def test_unsupported_forms_fall_back_with_a_warning():
    """A complex spacing and boolean coordinates run in the interpreter (NumPy's
    results, a HanaJitFallbackWarning), never a different answer."""
    z = np.array([1 + 2j, 3 - 1j, 0.5j])
    for fn, args in ((complex_spacing, (z, 0.5 + 1j)),
                     (boolean_coordinates, (np.arange(3.0), np.array([True, False, True])))):
        with pytest.warns(HanaJitFallbackWarning):
            got = jit(fn)(*args)
        assert_same_bits(got, fn(*args))


def _axis_coords(draw, n):
    kind = draw(st.sampled_from(["uniform", "steps", "random"]))
    if kind == "uniform":
        start = draw(st.sampled_from([0.0, -1.5, 10.0]))
        return start + np.arange(n) * draw(st.sampled_from([0.5, 0.1, -2.0, 3.0]))
    if kind == "steps":
        return np.cumsum(draw(st.lists(st.sampled_from([0.25, 0.5, 1.0, -0.75]),
                                       min_size=n, max_size=n)))
    return np.array(draw(st.lists(st.floats(-1e3, 1e3), min_size=n, max_size=n)))


def random1(f, x, d):
    return (np.gradient(f, x), np.gradient(f, x, edge_order=2), np.gradient(f, d),
            np.gradient(f, d, edge_order=2))


def random2(f, x, y, d):
    return (np.gradient(f, x, y), np.gradient(f, x, y, edge_order=2),
            np.gradient(f.T, y, d))


def random3(f, x, y, z, d):
    return np.gradient(f, x, y, z, edge_order=2), np.gradient(f, d, axis=(0, 2))


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_random_shapes_values_and_spacings(data):
    ndim = data.draw(st.integers(1, 3))
    shape = data.draw(st.lists(st.integers(3, 6), min_size=ndim, max_size=ndim))
    elems = st.one_of(st.floats(-1e6, 1e6), st.sampled_from(list(SPECIAL)))
    f = np.array(data.draw(st.lists(elems, min_size=int(np.prod(shape)),
                                    max_size=int(np.prod(shape))))).reshape(shape)
    if ndim == 1 and data.draw(st.booleans()):
        f = f.astype(np.float32)
    coords = [_axis_coords(data.draw, n) for n in shape]
    d = data.draw(st.floats(0.01, 100.0))
    fn = (random1, random2, random3)[ndim - 1]
    _same(fn, f, *coords, d)


# ------------------------------------------------------------ complex data
# Values that tell NumPy's complex arithmetic from a part-by-part one: signed
# zeros, inf and NaN (``(a+0j) * (x+yj)`` has ``0 * y`` in it), huge values
# (Smith's division), subnormals and values whose products underflow (the fused
# and plain rounding of a product differ in the zero's sign).
C128 = [0.0, -0.0, 1.5, -2.0, 3.25, np.nan, np.inf, -np.inf, 1e308, -1e308, 5e-324,
        -2e-310, 1e-200, -1e-200, 7e-160]
C64 = [0.0, -0.0, 1.5, -2.0, 3.25, np.nan, np.inf, -np.inf, 3e38, -3e38, 1e-45,
       -2e-40, 1e-30, -1e-30, 7e-25]
# spacings: Python numbers, NumPy scalars of each kind, and ones that make the
# coefficients tiny or huge (``-1.5 / dx`` times a tiny value underflows)
C_SPACINGS = [0.3, 2, -1e200, 1e-3, np.float64(0.7), np.float64(1e30), np.float32(0.1),
              np.float32(1e30), np.int64(-2)]


def _complex(draw_or_rng, shape, ct):
    values = C64 if ct == np.complex64 else C128
    pick = draw_or_rng.choice
    n = int(np.prod(shape))
    re = pick(values + list(draw_or_rng.standard_normal(8)), n)
    im = pick(values + list(draw_or_rng.standard_normal(8)), n)
    return (re + 1j * im).astype(ct).reshape(shape)


def cline(f, d, x):
    return (np.gradient(f), np.gradient(f, edge_order=2), np.gradient(f, d),
            np.gradient(f, d, edge_order=2), np.gradient(f, x),
            np.gradient(f, x, edge_order=2), np.gradient(f, x, axis=0))


def cplane(f, d, x, y):
    return (np.gradient(f, edge_order=2), np.gradient(f, d, axis=(1, 0)),
            np.gradient(f, x, y), np.gradient(f, d, y, edge_order=2),
            np.gradient(f, x, axis=0, edge_order=2))


def _c_views(F):
    """A 2-D array as C and Fortran order, strided, transposed and backwards."""
    yield F[1:-1, 1:]
    yield np.asfortranarray(F[1:-1, 1:])
    yield F.T[1:, ::2]
    yield F[::-1, 1:]
    yield F[1:-1, ::-2]


def _c_coords(rng, n):
    """Coordinates: float64 (not uniform, uniform, huge and tiny steps), float32
    (not uniform and uniform), integers."""
    yield np.cumsum(rng.random(n)) - 2.0
    yield np.arange(n) * 0.5 + 3.0
    yield np.cumsum(rng.choice([1e200, 3e199, 1e-200], n))
    yield (np.cumsum(rng.random(n)) * 1e30).astype(np.float32)
    yield (np.arange(n) * 0.25).astype(np.float32)
    yield np.cumsum(rng.integers(1, 4, n))


@pytest.mark.parametrize("ct", [np.complex128, np.complex64])
def test_complex_data(ct):
    """Complex data in every spacing form and both edge orders, 1-D (contiguous,
    strided, backwards) and 2-D views: NumPy's complex arithmetic, bit for bit."""
    rng = np.random.default_rng(21)
    v = _complex(rng, 14, ct)
    for k, f in enumerate((v[:7], v[::2], v[::-1][:7], v[:3])):
        for d, x in list(zip(C_SPACINGS[k::2], list(_c_coords(rng, len(f)))[k % 2::2]))[:2]:
            _same(cline, f, d, x)
    F = _complex(rng, (9, 8), ct)
    for k, f in enumerate(_c_views(F)):
        xs, ys = (list(_c_coords(rng, n)) for n in f.shape)
        _same(cplane, f, C_SPACINGS[(2 * k) % 9], xs[k], ys[(k + 1) % 6])


def test_complex_errors_and_types():
    """NumPy's errors with complex data, and its result types: complex64 data
    with a NumPy float64 spacing or float64 coordinates computes in complex128
    and returns complex64."""
    z = np.array([1 + 2j, -3j, 0.5, np.inf], dtype=np.complex64)
    cases = [(none, (z[:1],), ValueError, "too small"),
             (none2, (z[:2],), ValueError, "too small"),
             (one2, (z, 0.0), ZeroDivisionError, "float division by zero"),
             (one, (z, np.arange(3.0)), ValueError, "must match the length"),
             (two, (z, 1.0, 2.0), TypeError, "invalid number of arguments")]
    for fn, args, exc, words in cases:
        with pytest.raises(exc, match=words):
            fn(*args)
        with pytest.raises(exc, match=words):
            _compiled(fn)(*args)
    for args in [(z, np.float64(0.0)), (z, np.arange(4.0) ** 2), (z, np.zeros(4)),
                 (z.astype(np.complex128), np.float32(-0.0))]:
        _same(one, *args)
        _same(one2, *args)


@settings(max_examples=16, deadline=None)
@given(st.data())
def test_random_complex(data):
    """Random complex values (special ones often) and coordinates, forwards and
    backwards (the types of ``test_complex_data``, compiled once)."""
    ct = data.draw(st.sampled_from([np.complex128, np.complex64]))
    ndim = data.draw(st.integers(1, 2))
    shape = data.draw(st.lists(st.integers(3, 6), min_size=ndim, max_size=ndim))
    values = C64 if ct == np.complex64 else C128
    elems = st.one_of(st.floats(-1e6, 1e6), st.sampled_from(values))
    n = int(np.prod(shape))
    parts = [np.array(data.draw(st.lists(elems, min_size=n, max_size=n))) for _ in "ri"]
    f = (parts[0] + 1j * parts[1]).astype(ct).reshape(shape)
    if data.draw(st.booleans()):
        f = f[::-1]
    coords = [_axis_coords(data.draw, k) for k in shape]
    d = data.draw(st.sampled_from([0.3, -1e200, 1e-3, 1e30, 1e-300]))
    if ndim == 1:
        _same(cline, f, d, coords[0])
    else:
        _same(cplane, f, d, *coords)


def cprod(f, d, x):
    return (np.gradient(f, d, axis=-1, edge_order=2), np.gradient(f, x, axis=-1),
            np.gradient(f, x, axis=-1, edge_order=2))


def test_complex_products_rounded_as_numpy():
    """``a * f`` with a real coefficient is NumPy's complex product, whose zeros
    take their sign from how it rounds: products that underflow, every sign of
    both parts, so the plain and the fused forms differ.  NumPy's array loop on
    rows of 2-D data (forwards, backwards, Fortran order), its scalar code at
    the ends of 1-D data (its array loop when a NumPy float64 promotes
    complex64), complex64 read backwards."""
    signs = np.array([[1 - 2 * ((k >> b) & 1) for b in range(4)] for k in range(16)])
    re, im = np.repeat(signs, 16, axis=0), np.tile(signs, (16, 1))
    for ct, tiny, big in ((np.complex128, 1e-200, 1e200), (np.complex64, 1e-30, 1e30)):
        f = (tiny * re + 1j * tiny * im).astype(ct)
        x = np.array([0.0, 1.0, 2.5, 3.0]) * big
        for g in (f, f[::-1], np.asfortranarray(f), f[:, ::-1]):
            _same(cprod, g, -big, x)
        for d in (big, np.float64(-1e200)):
            for row in f[::5]:
                _same(cprod, row, d, x)
                _same(cprod, row[::-1], d, x.astype(np.float32))
