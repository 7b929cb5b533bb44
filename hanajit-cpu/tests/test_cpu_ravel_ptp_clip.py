"""NumPy calls that fell back, now compiled and checked against NumPy:
``ravel``/``flatten`` with ``order=``, ``np.ptp``, ``np.clip`` with a bound
``None``, ``np.count_nonzero`` along an axis, and the methods ``a.clip()``,
``a.repeat()``, ``a.trace()``."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.jitted import jitted

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")


def orders(m):
    return (m.ravel(order="F"), m.ravel("C"), m.flatten("F"), np.ravel(m, "F"),
            m.T.ravel("K"), m.flatten())


def ptps(m):
    return np.ptp(m), np.ptp(m, axis=0), np.ptp(m, axis=1, keepdims=True), np.ptp(m * 2)


def clips(m):
    return (m.clip(0, 3), np.clip(m, None, 3), np.clip(m, 1, None), m.clip(m[0, 0], 2),
            m.repeat(2, axis=1), m.repeat(3), m.trace())


def counts(m):
    return (np.count_nonzero(m, axis=0), np.count_nonzero(m > 2, axis=1),
            np.count_nonzero(m, axis=-1, keepdims=True), np.count_nonzero(m))


def _arrays():
    rng = np.random.default_rng(9)
    f = rng.choice(np.array([0.0, -0.0, 1.5, -2.0, 3.0, np.nan, np.inf]), size=(4, 6))
    i = rng.integers(-3, 4, (4, 6))
    u = rng.integers(0, 250, (4, 6)).astype(np.uint8)
    # each (dtype, layout) is a compile of its own, and the layouts' code is the
    # same for every dtype: float64 in all three, the others in one or two
    for a, layouts in ((f, "CFS"), (i, "FS"), (u, "C"), (f.astype(np.float32), "S")):
        for layout in layouts:
            yield {"C": a, "F": np.asfortranarray(a), "S": a[::-1, ::2]}[layout]


@pytest.mark.parametrize("f", [orders, ptps, clips, counts])
def test_against_numpy(f):
    jf = jit(f)
    for a in _arrays():
        if f is orders and not (a.flags.c_contiguous or a.flags.f_contiguous):
            continue        # order='K' of a strided view: below
        with np.errstate(all="ignore"):
            want = f(a)
        assert_same_bits(jf(a), want)


def test_count_nonzero_of_booleans_a_block_at_a_time():
    """Contiguous booleans are counted in int16 blocks of 32767 bytes
    (``count_algorithms``): lengths about a block's, strided and reversed views,
    2-D in either order -- the count NumPy gives, of NumPy's type."""
    @jit
    def count(b):
        return np.count_nonzero(b)

    rng = np.random.default_rng(4)
    for n in (0, 1, 31, 32767, 32768, 65535, 100_003):
        b = rng.random(n) < 0.7
        for x in (b, b[::2], b[::-1], np.ones(n, bool), b.reshape(1, -1)):
            got = count(x)
            assert got == np.count_nonzero(x) and type(got) is type(np.count_nonzero(x))
    m = rng.random((300, 401)) < 0.5
    for x in (m, m.T, m[:, ::3], np.asfortranarray(m)):
        assert count(x) == np.count_nonzero(x)


def runtime_orders(m):
    return (m.ravel("A"), m.ravel("K"), m.flatten("A"), m.flatten("K"), np.ravel(m, "K"),
            np.ravel(m, order="A"))


def test_orders_known_only_at_run_time():
    """``'A'``/``'K'`` of an array whose layout only the run time knows: ``'A'``
    reads Fortran order when the array is Fortran- and not C-contiguous; ``'K'``
    (2-D) reads C- and Fortran-contiguous arrays as they lie (a view) and any
    other in the order of its strides' sizes, ties and a stride of 0 in C
    order, each axis in index order; views where NumPy gives views."""
    jf = jit(runtime_orders, fallback=False)
    m = np.arange(24.0).reshape(4, 6)
    f = np.asfortranarray(m)
    for x in (m, m.T, m[:, ::2], m[::-1], m[:, ::-1], m.T[::2], m.T[:, ::-1],
              m[::2, ::3].T, f[1:], f[:, ::-1], m[:1], m[:, :1], m[:0],
              np.broadcast_to(m[0], (3, 6)), np.broadcast_to(m[:, :1], (4, 5))):
        got, want = jf(x), runtime_orders(x)
        assert_same_bits(got, want)
        for g, w in zip(got, want):
            assert np.shares_memory(g, x) == np.shares_memory(w, x), (x.shape, x.strides)
    c = np.arange(24.0).reshape(2, 3, 4)

    def three_a(c):
        return c.ravel("A"), c.flatten("A")
    for x in (c, c[:, ::2], np.asfortranarray(c), np.asfortranarray(c)[:, 1:]):
        assert_same_bits(jit(three_a, fallback=False)(x), three_a(x))


def keep_orders(c):
    return c.ravel("K"), c.flatten("K"), np.ravel(c, order="K")


@settings(max_examples=75, deadline=None)
@given(st.integers(3, 5), st.integers(0, 2**32 - 1))
def test_order_k_of_more_dimensions(nd, seed):
    """``'K'`` of 3 to 5 dimensions whose layout only the run time knows: the
    axes read in the order of NumPy's iterator (the larger stride outer, ties,
    strides of 0 and axes of length 1 in C order, each axis in index order),
    a view where NumPy gives one (its writes reach the array), else a copy."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(k) for k in rng.integers(1, 5, nd))
    big = tuple(2 * k for k in shape)
    base = np.arange(float(np.prod(big))).reshape(big)
    x = base[tuple(slice(None, None, int(rng.choice([1, 2, -1, -2]))) for _ in range(nd))]
    x = x.transpose(rng.permutation(nd))
    if rng.random() < 0.3:
        x = np.asfortranarray(x) if rng.random() < 0.5 else np.ascontiguousarray(x)
    if rng.random() < 0.2:
        x = np.broadcast_to(x[:1], (3,) + x.shape[1:])
    if rng.random() < 0.2:
        x = x[(slice(0, 1),) + (slice(None),) * (nd - 1)]
    jf = jitted(keep_orders, fallback=False)
    got, want = jf(x), keep_orders(x)
    assert_same_bits(got, want)
    for g, w in zip(got, want):
        assert np.shares_memory(g, x) == np.shares_memory(w, x), (x.shape, x.strides)
    if x.flags.writeable and np.shares_memory(want[0], x):
        y = x.copy(order="K")
        r = jf(y)[0]
        r[-1] = -7.0
        assert np.ravel(y, order="K")[-1] == -7.0


def equalities(a, b):
    return (np.array_equal(a, b), np.array_equal(a, b, equal_nan=True),
            np.allclose(a, b) if a.shape == b.shape else False)


def test_array_equal_and_allclose_give_python_bools():
    """``np.array_equal`` (it fell back) and ``np.allclose`` return Python bools,
    as NumPy's ``bool(...)`` of the answer -- ``np.allclose`` gave ``np.bool_``."""
    jf = jit(equalities)
    nan = np.array([1.0, np.nan, -0.0])
    cases = [(np.arange(5.0), np.arange(5.0)), (np.arange(5.0), np.arange(6.0)),
             (nan, nan.copy()), (nan, np.array([1.0, np.nan, 0.0])),
             (np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)),
             (np.arange(5), np.arange(5.0)), (np.arange(4), np.arange(4)[::-1]),
             (np.zeros((0, 3)), np.zeros((0, 3))), (np.array([2**53 + 1]), np.array([2**53])),
             (np.array([2**53 + 1]), np.array([2.0**53])), (np.arange(3.0), np.arange(3.0)[None])]
    for a, b in cases:
        got, want = jf(a, b), equalities(a, b)
        assert got == want and [type(g) for g in got] == [type(w) for w in want], (a, b)


def views(a):
    return (np.swapaxes(a, 0, 2), a.swapaxes(1, -1), np.moveaxis(a, 0, -1),
            np.moveaxis(a, -1, 0), a.swapaxes(0, 0))


def diagonals(m):
    return m.diagonal(), np.diagonal(m, 1), m.diagonal(-2), np.diagonal(m, offset=9)


def test_axis_views_and_diagonals():
    jv, jd = jit(views), jit(diagonals)
    a = np.arange(24.0).reshape(2, 3, 4)
    for x in (a, np.asfortranarray(a), a[:, ::-1, ::2]):
        got, want = jv(x), views(x)
        assert_same_bits(got, want)
        assert [g.strides for g in got] == [w.strides for w in want]
    m = np.arange(20).reshape(4, 5)
    for x in (m, m.T, m[::-1, ::2]):
        got, want = jd(x), diagonals(x)
        assert_same_bits(got, want)
        assert not any(g.flags.writeable for g in got)


def polyval(p, x):
    return np.polyval(p, x)


def test_polyval_is_numpys_horner_loop():
    """``np.polyval``: NumPy's ``y = y * x + pv`` from zeros, bit for bit
    (``0 * inf`` is NaN on the first step), NumPy's result types; a number with
    no coefficients is a 0-d array in NumPy and re-runs in the interpreter."""
    jf = jit(polyval)
    rng = np.random.default_rng(4)
    special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e300])
    for p in (np.array([1.5, -2.0, 0.25]), np.array([]), np.array([3.0]),
              rng.standard_normal(9), np.array([1.0, 2.0], np.float32)):
        for x in (rng.standard_normal(50), rng.standard_normal((3, 4)).T, 0.7,
                  np.float64(2.5), special):
            with np.errstate(all="ignore"):
                want = polyval(p, x)
                got = jf(p, x)
            assert_same_bits(got, want)
            assert type(got) is type(want)
    for x in (np.arange(-5, 5), 3, np.int64(7)):
        p = np.array([2, -3, 1])
        assert_same_bits(jf(p, x), polyval(p, x))
        assert type(jf(p, x)) is type(polyval(p, x))


def rotations(m):
    return (np.rot90(m), np.rot90(m, 2), np.rot90(m, -1), np.rot90(m, 4), np.rot90(m, 1, (1, 0)),
            np.rot90(m, k=3, axes=(0, -1)))


def test_rot90_views():
    jf = jit(rotations)
    m = np.arange(24.0).reshape(2, 3, 4)
    for x in (m, np.asfortranarray(m), m[:, ::-1, ::2], np.zeros((0, 2, 3))):
        got, want = jf(x), rotations(x)
        assert_same_bits(got, want)
        assert [g.strides for g in got] == [w.strides for w in want]


def clip_both(x, lo, hi):
    return np.clip(x, lo, hi)


def clip_unit(x):
    return np.clip(x, 0.0, 1.0)


def clip_ints(x):
    return np.clip(x, 0, 1)


def clip_upper(x):
    return np.clip(x, None, 0.0)


def clip_lower(x):
    return np.clip(x, -0.0, None)


def _bits(r):
    if isinstance(r, np.ndarray):
        return ("array", r.dtype, r.shape, r.tobytes())
    return (type(r), np.asarray(r).tobytes())


@pytest.mark.parametrize("f", [clip_unit, clip_ints, clip_upper, clip_lower])
@pytest.mark.parametrize("x", [-0.0, 0.0, 0.5, 2.0, np.nan, np.float32(-0.0), np.float32(0.5),
                               np.uint8(200), np.int8(-100), np.int64(7), 5,
                               np.array([-0.0, 0.0, 0.5, 2.0, np.nan]),
                               np.array([-0.0, 0.3], np.float32), np.array([0, 200], np.uint8),
                               np.full(40, -0.0)])
def test_clip_ties_and_scalar_types_are_numpys(f, x):
    """With both bounds a tie keeps ``x`` (its zero's sign); with one None it
    gives the bound (np.minimum / np.maximum); a NumPy scalar clipped by Python
    numbers keeps its type (NEP 50: ``a`` is an array, the bounds are weak)."""
    with np.errstate(all="ignore"):
        assert _bits(jit(f, fallback=False)(x)) == _bits(f(x))


def test_clip_signed_zeros_and_nans_in_every_position():
    f = jit(clip_both, fallback=False)
    values = [-0.0, 0.0, np.nan, 1.0, 2.0, -1.0]
    for x, lo, hi in itertools.product(values, repeat=3):
        for arg in (x, np.full(9, x)):
            assert _bits(f(arg, lo, hi)) == _bits(clip_both(arg, lo, hi)), (x, lo, hi)
