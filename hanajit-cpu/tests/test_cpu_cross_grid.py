"""np.cumsum / np.cumprod along an axis (and with dtype=), np.cross and
np.meshgrid against NumPy bit for bit: dtypes, shapes and bytes, on empty and
length-1 axes, 0-d to 3-D arrays, negative axes, strided, reversed and Fortran
views, broadcasting, NaN / inf / -0.0, complex products that NumPy's SIMD loop
fuses; 2-element cross vectors re-run in the interpreter (NumPy 2 deprecates
them); plus what still falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.jitted import jitted

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")    # NaN, inf * 0


def cumulative(a):
    return (np.cumsum(a, axis=0), np.cumprod(a, axis=-1), a.cumsum(-1), a.cumprod(axis=0),
            np.cumsum(a), a.cumprod())


def cumulative_3d(a):
    return np.cumsum(a, 1), a.cumprod(axis=-2), np.cumsum(a, axis=2), np.cumprod(a, 0)


def cumulative_1d(a):
    return np.cumsum(a, axis=0), a.cumprod(-1), np.cumprod(a), np.cumsum(a * 2, 0)


def cumulative_dtype(a):
    return (np.cumsum(a, 0, np.float32), a.cumprod(-1, dtype=np.int64),
            np.cumsum(a, dtype=np.complex128), a.cumsum(axis=-1, dtype=np.uint8),
            np.cumsum(a, 1, dtype=bool), np.cumprod(a, axis=0, dtype=bool))


def cumulative_float_dtype(a):
    return (np.cumsum(a, 0, dtype=bool), a.cumprod(-1, dtype=np.float32),
            np.cumsum(a, dtype=np.complex64), np.cumprod(a, axis=1, dtype=np.float64))


def cumsum_out(a, o):
    return np.cumsum(a, axis=0, out=o)


def cumsum_float_to_int(a):
    return np.cumsum(a, axis=0, dtype=np.int64)


def cumprod_cast_complex(a):
    return np.cumprod(a, axis=0, dtype=np.complex128)


def cross(a, b):
    return np.cross(a, b)


def cross_axis(a, b):
    return np.cross(a, b, axis=0)


def grid2(x, y):
    return np.meshgrid(x, y)


def grid3(x, y, z):
    return np.meshgrid(x, y, z), np.meshgrid(x, y, z, indexing="ij")


def grid_ij(x, y):
    return np.meshgrid(x, y, indexing="ij")


def grid_sparse(x, y):
    return np.meshgrid(x, y, sparse=True)


CROSS = jit(cross, fallback=False)
CUMULATIVE = jit(cumulative, fallback=False)
CUMULATIVE_3D = jit(cumulative_3d, fallback=False)
CUMULATIVE_1D = jit(cumulative_1d, fallback=False)
CUMULATIVE_DTYPE = jit(cumulative_dtype, fallback=False)
CUMULATIVE_FLOAT_DTYPE = jit(cumulative_float_dtype, fallback=False)


def _bits(x):
    """The bytes of ``x`` with every NaN made the same NaN: which NaN an operation
    on NaNs returns (sign, payload) is promised by no compilation (see
    docs/optimizers.md); -0.0 stays apart from 0.0."""
    x = np.array(x).reshape(-1)
    if x.dtype.kind in "fc":
        parts = x.view(x.real.dtype)
        parts[np.isnan(parts)] = np.nan
    return x.tobytes()


def _same(got, want):
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
        assert _bits(g) == _bits(w), (g, w)


def _values(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.6
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -9, 10, shape).astype(dt)
    a = rng.standard_normal(shape) * 3
    if dt.kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dt)
    if a.size >= 3:
        a.flat[0], a.flat[-1], a.flat[a.size // 2] = -0.0, np.inf, np.nan
    return a


DTYPES = [np.bool_, np.int8, np.uint8, np.int64, np.float32, np.float64, np.complex64,
          np.complex128]


# dtypes compiled for each layout (one of each kind); the others get the views
# of any layout first, and their C and Fortran arrays run through that compilation
EVERY_LAYOUT = {np.dtype(t) for t in (np.int64, np.float64, np.complex128)}


def _views(a):
    views = [a, a.T, a[::-1, ::2], np.asfortranarray(a), a[:, ::-1]]
    return views if a.dtype in EVERY_LAYOUT else [views[2], views[4], views[0], views[1],
                                                  views[3]]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_cumulative_axes_match_numpy(dtype):
    for shape in [(3, 4), (2, 5), (5, 2), (2, 2), (0, 3), (3, 0), (1, 4), (4, 1)]:
        for v in _views(_values(dtype, shape)):
            _same(CUMULATIVE(v), cumulative(v))


@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_cumulative_3d_and_1d_match_numpy(dtype):
    a = _values(dtype, (2, 3, 4), seed=1)
    for v in (a, a.transpose(2, 0, 1), a[:, ::-1, ::2], np.zeros((2, 0, 3), dtype)):
        _same(CUMULATIVE_3D(v), cumulative_3d(v))
    for v in (a[0, 0], a[0, 0, ::-1], a[0, 0, :2], a[0, 0, 1::-1], a[0, 0, :1], a[0, 0, :0],
              np.array(a[0, 0, 0])):
        _same(CUMULATIVE_1D(v), cumulative_1d(v))


def test_cumulative_dtype_matches_numpy():
    for dtype in (np.bool_, np.int8, np.uint64):
        a = _values(dtype, (3, 4), seed=2)
        for v in (a, a.T):
            _same(CUMULATIVE_DTYPE(v), cumulative_dtype(v))
    for dtype in (np.float32, np.float64):
        a = _values(dtype, (3, 4), seed=3)
        a[1, 1] = 0.0
        for v in (a, a[::-1]):
            _same(CUMULATIVE_FLOAT_DTYPE(v), cumulative_float_dtype(v))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=["c64", "c128"])
def test_complex_cumprod_pairs_match_numpy(dtype):
    """A line of two is one product, which NumPy's SIMD loop may round with fused
    multiply-adds (for complex64 not when read backwards): many random pairs."""
    rng = np.random.default_rng(5)
    for _ in range(10):
        a = (rng.standard_normal((2, 16)) + 1j * rng.standard_normal((2, 16))).astype(dtype)
        a *= np.exp(rng.uniform(-4, 4, (2, 16)))
        for v in (a, a[::-1], a.T, a.T[::-1], np.broadcast_to(a[:1], (2, 16)), a[:, :2]):
            _same(CUMULATIVE(v), cumulative(v))
            _same(CUMULATIVE_1D(v[0, :2]), cumulative_1d(v[0, :2]))
            _same(CUMULATIVE_1D(v[0, 1::-1]), cumulative_1d(v[0, 1::-1]))


def test_cumulative_first_element_is_copied():
    """NumPy starts each line with its first element: -0.0 stays -0.0 in cumsum,
    inf + 0j stays finite in its imaginary part in cumprod."""
    for a in (np.array([[-0.0, 1.0], [-0.0, -0.0]]),
              np.array([[np.inf + 0j, 1j], [-0.0 - 0.0j, np.nan + 0j]])):
        _same(CUMULATIVE(a), cumulative(a))


@pytest.mark.parametrize("fn,args,match", [
    (cumsum_out, (np.ones((2, 2)), np.zeros((2, 2))), "without out"),
    (cumsum_float_to_int, (np.ones((2, 2)),), "dtype=int64 from float64"),
    (cumprod_cast_complex, (np.ones((2, 2)),), "dtype=complex128 from float64"),
])
def test_cumulative_falls_back(fn, args, match):
    with pytest.warns(HanaJitFallbackWarning, match=match):
        got = jit(fn)(*args)
    want = fn(*args)
    _same([got], [want])


def _vectors(dtype, shape, rng):
    v = rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v > 0 if dtype is np.bool_ else v.astype(dtype)


@pytest.mark.parametrize("da,db", [
    (np.float64, np.float64), (np.float32, np.float32), (np.int8, np.uint8),
    (np.bool_, np.int64), (np.complex128, np.complex128), (np.complex64, np.float32)],
    ids=lambda d: np.dtype(d).name)
def test_cross_matches_numpy(da, db):
    rng = np.random.default_rng(11)
    for sa, sb in [((3,), (3,)), ((4, 3), (4, 3)), ((3,), (5, 3)), ((2, 1, 3), (4, 3)),
                   ((0, 3), (3,)), ((1, 3), (6, 3))]:
        a, b = _vectors(da, sa, rng), _vectors(db, sb, rng)
        views = [(a, b), (a[..., ::-1], b)]
        if a.ndim == 2:
            views.append((np.asfortranarray(a), b[::-1]))
        for x, y in views:
            _same([CROSS(x, y)], [cross(x, y)])


def test_cross_special_values():
    a = np.array([[-0.0, 0.0, 1.0], [np.nan, 1.0, -0.0], [np.inf, 2.0, 0.0]])
    b = np.array([[0.0, -0.0, np.inf], [1.0, 0.0, 0.0], [-0.0, -0.0, -1.0]])
    for x, y in ((a, b), (b, a), (a, a[0]), (a.T, b)):
        _same([CROSS(x, y)], [cross(x, y)])
    big = np.array([[100, -128, 127]], np.int8)
    _same([CROSS(big, big[:, ::-1])], [cross(big, big[:, ::-1])])


def test_cross_errors_and_two_element_vectors():
    with pytest.raises(ValueError, match="incompatible dimensions"):
        CROSS(np.ones(4), np.ones(3))
    with pytest.raises(ValueError):
        CROSS(np.ones((2, 3)), np.ones((3, 3)))
    # NumPy 2 deprecates 2-element vectors: the interpreter runs those calls
    for a, b in ((np.ones(2), np.arange(3.0)), (np.arange(2.0), np.array([3.0, -1.0])),
                 (np.ones((4, 3)), np.arange(8.0).reshape(4, 2))):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = CROSS(a, b)
            want = cross(a, b)
        assert [w.category for w in seen] == [DeprecationWarning] * 2
        _same([got], [want])


def test_meshgrid_matches_numpy():
    x, y, z = np.arange(3.0), np.arange(4, dtype=np.int8)[::-1], np.array([True, False])
    m = np.arange(6.0).reshape(2, 3).T
    for f, args in [(grid2, (x, y)), (grid2, (m, x[::2])), (grid2, (np.zeros(0), y)),
                    (grid_ij, (x, y)), (grid_ij, (y, m)), (grid3, (x, y, z))]:
        got, want = jitted(f, fallback=False)(*args), f(*args)
        assert type(got) is type(want)
        if f is grid3:
            got, want = got[0] + got[1], want[0] + want[1]
        assert type(got) is tuple and len(got) == len(want)
        _same(got, want)
        for g in got:
            assert g.flags.c_contiguous and g.flags.writeable


@pytest.mark.parametrize("fn,args,match", [
    (cross_axis, (np.ones((3, 2)), np.ones((3, 2))), "without axisa"),
    (grid_sparse, (np.ones(2), np.ones(3)), "sparse=True"),
])
def test_cross_grid_fall_back(fn, args, match):
    with pytest.warns(HanaJitFallbackWarning, match=match):
        got = jit(fn)(*args)
    want = fn(*args)
    _same(got if isinstance(got, tuple) else [got], want if isinstance(want, tuple)
          else [want])


def test_cross_of_booleans_falls_back_to_numpys_type_error():
    with pytest.warns(HanaJitFallbackWarning, match="booleans"), pytest.raises(TypeError):
        jit(cross)(np.ones(3, bool), np.ones(3, bool))
