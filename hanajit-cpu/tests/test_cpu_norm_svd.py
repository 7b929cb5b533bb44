"""``np.linalg.norm`` of matrices with ``ord`` 2, -2 and ``'nuc'`` on the CPU
target, checked against NumPy running the same function, on both paths (each test
runs twice, ``path``):

* ``lapack``: the singular values come from NumPy's own LAPACK (``?gesdd``) as
  NumPy's ``_multi_svd_norm`` gets them, so every result is NumPy's bit for bit
  (same dtype, shape and bytes);
* ``jacobi``: the one-sided Jacobi SVD of ``svd_algorithms`` (the path of targets
  that cannot call NumPy's LAPACK, forced here by making
  ``norm_steps.svd_available`` false).  LAPACK and Jacobi round differently, and
  both are backward stable: each singular value is within a small multiple of
  ``max(m, n) * eps * sigma_max`` of the exact one (the smallest can be no better
  in relative terms -- LAPACK's guarantee is absolute).  So a result must be within
  ``rtol * |expected| + 8 * max(m, n) * eps * sigma_max`` of NumPy's, with ``rtol``
  1e-12 (float64 work) or 1e-5 (float32/complex64 input, where NumPy works in
  single precision and hanajit in float64), ``eps`` the input's float epsilon and
  ``sigma_max`` the matrix's largest singular value (per matrix of a stack); a
  complex ``m x n`` matrix counts as the real ``2m x 2n`` one hanajit works on.

Every compiled call has ``fallback=False``.
"""
import functools
import itertools
import math

import numpy as np
import pytest
from hanajit.testing.jitted import jitted
from hanajit.testing.compare import check_on_copies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
ORDS = (2, -2, "nuc")
DTYPES = (np.float64, np.float32, np.int64, np.bool_, np.complex128, np.complex64)

def compiled(fn):
    return jitted(fn, fallback=False)


_PATH = ["lapack"]          # the path the running tests compile for


@pytest.fixture(autouse=True, scope="module", params=["lapack", "jacobi"])
def path(request):
    """Every test on NumPy's LAPACK, then on the Jacobi SVD."""
    from hanajit.lib.statistics import norm_steps
    saved = norm_steps.svd_available
    if request.param == "jacobi":
        norm_steps.svd_available = lambda L, t: False
    _PATH[0] = request.param
    yield request.param
    norm_steps.svd_available = saved
    _PATH[0] = "lapack"


def kernel(o, axis=None, keepdims=False):
    """``np.linalg.norm(x, o, ...)`` with constant arguments (a closure, one per
    path: each compiles for its path)."""
    return _kernel(o, axis, keepdims, _PATH[0])


@functools.cache
def _kernel(o, axis, keepdims, path):
    if axis is None:
        def norm(x):
            return np.linalg.norm(x, o)
    elif keepdims:
        def norm(x):
            return np.linalg.norm(x, o, axis=axis, keepdims=True)
    else:
        def norm(x):
            return np.linalg.norm(x, ord=o, axis=axis)
    return norm


def _sigma_max(x, axes):
    """The largest singular value of every matrix of ``x`` (float64, NaN where a
    matrix has a NaN or an infinity), shaped like the norm with keepdims."""
    wide = np.complex128 if np.asarray(x).dtype.kind == "c" else np.float64
    y = np.moveaxis(np.asarray(x, wide), axes, (-2, -1))
    y = np.where(np.isfinite(y), y, 0.0)
    s = np.linalg.svd(y, compute_uv=False) if 0 not in y.shape[-2:] else \
        np.zeros(y.shape[:-2] + (0,))
    s = s.max(axis=-1, initial=0.0)
    bad = ~np.isfinite(np.asarray(x, wide)).all(axis=axes)
    return np.where(bad, np.nan, s)


def _close_jacobi(x, axes):
    """A ``same(got, expected)`` for ``check_on_copies`` with the tolerance the
    module docstring explains."""
    def same(got, exp):
        exp_a = np.asarray(exp)
        got_a = np.asarray(got)
        assert got_a.shape == exp_a.shape, (got, exp)
        if isinstance(exp, np.ndarray):
            assert isinstance(got, np.ndarray) and got.dtype == exp.dtype, (got, exp)
        float32 = exp_a.dtype == np.float32
        eps = np.finfo(np.float32 if float32 else np.float64).eps
        rtol = 1e-5 if float32 else 1e-12
        p = max(x.shape[axes[0]], x.shape[axes[1]], 1) * (2 if x.dtype.kind == "c" else 1)
        sig = _sigma_max(x, axes).reshape(exp_a.shape)
        g = got_a.astype(np.float64)
        e = exp_a.astype(np.float64)
        assert np.array_equal(np.isnan(g), np.isnan(e)), (got, exp)
        ok = np.isnan(e) | (np.abs(g - e) <= rtol * np.abs(e) + 8 * p * eps * sig)
        ok |= (g == e)                   # infinities
        assert ok.all(), (got, exp, x)
    return same


def close(x, axes):
    """A ``same(got, expected)`` for ``check_on_copies``: NumPy's bits exactly on
    the LAPACK path, within the module docstring's tolerance on the Jacobi one."""
    if _PATH[0] == "jacobi":
        return _close_jacobi(x, axes)
    def same(got, exp):
        exp_a = np.asarray(exp)
        got_a = np.asarray(got)
        assert got_a.shape == exp_a.shape, (got, exp)
        assert got_a.dtype == exp_a.dtype, (got, exp)
        if isinstance(exp, np.ndarray):
            assert isinstance(got, np.ndarray), (got, exp)
        assert got_a.tobytes() == exp_a.tobytes(), (got, exp, x)
    return same


def check(x, o, axis=None, keepdims=False):
    axes = (0, 1) if axis is None else tuple(k % x.ndim for k in axis)
    fn = kernel(o, axis, keepdims)
    check_on_copies(fn, compiled(fn), (x,), close(x, axes))


# ------------------------------------------------------------------ inputs
@st.composite
def values(draw, shape):
    """float64 values for ``shape``: random, rank-deficient, integer, huge,
    tiny, or with columns/rows scaled over a huge range."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["normal", "rank", "ints", "huge", "tiny", "cols",
                                 "rows", "mixed", "zeros"]))
    a = rng.standard_normal(shape)
    if kind == "rank" and len(shape) >= 2:
        r = draw(st.integers(0, max(min(shape[-2:]) - 1, 0)))
        a = rng.standard_normal(shape[:-1] + (r,)) @ rng.standard_normal(
            shape[:-2] + (r, shape[-1]))
    elif kind == "ints":
        a = rng.integers(-3, 4, shape).astype(np.float64)
    elif kind == "huge":
        a = a * 1e300
    elif kind == "tiny":
        a = a * 1e-300
    elif kind == "cols":
        a = a * 10.0 ** rng.integers(-300, 300, shape[-1:])
    elif kind == "rows" and len(shape) >= 2:
        a = a * 10.0 ** rng.integers(-300, 300, shape[-2:-1] + (1,))
    elif kind == "mixed":
        a = a * 10.0 ** rng.integers(-300, 300, shape)
    elif kind == "zeros":
        a = np.zeros(shape)
    return a


def as_dtype(a, dtype):
    """``a`` as ``dtype``; complex: ``a`` plus ``i`` times ``a`` reversed and
    halved (a matrix of the same kind, not a real multiple of ``a``)."""
    if np.dtype(dtype).kind == "c":
        b = a.reshape(-1)[::-1].reshape(a.shape) * 0.5
        with np.errstate(over="ignore", under="ignore"):
            return (a + 1j * b).astype(dtype)
    if dtype is np.bool_:
        return a > 0
    if dtype is np.int64:
        return np.clip(np.round(a), -1000, 1000).astype(np.int64)
    with np.errstate(over="ignore", under="ignore"):
        return a.astype(dtype)


@st.composite
def layout(draw, a):
    """``a`` as C, Fortran, strided or negative-stride array with the same
    values (``a`` is C-contiguous)."""
    how = draw(st.sampled_from(["C", "F", "strided", "reversed"]))
    if how == "F":
        return np.asfortranarray(a)
    if how == "strided":
        big = np.zeros(tuple(2 * d for d in a.shape), a.dtype)
        big[tuple(slice(None, None, 2) for _ in a.shape)] = a
        return big[tuple(slice(None, None, 2) for _ in a.shape)]
    if how == "reversed":
        r = np.ascontiguousarray(a[tuple(slice(None, None, -1) for _ in a.shape)])
        return r[tuple(slice(None, None, -1) for _ in a.shape)]
    return a


@st.composite
def matrices(draw, ndim=2, low=1):
    shape = tuple(draw(st.integers(low, 12 if ndim == 2 else 5)) for _ in range(ndim))
    a = as_dtype(draw(values(shape)), draw(st.sampled_from(DTYPES)))
    return draw(layout(a))


# ------------------------------------------------------------------- tests
@SETTINGS
@given(matrices(), st.sampled_from(ORDS))
def test_matrix_norms_match_numpy(x, o):
    check(x, o)


@SETTINGS
@given(matrices(), st.sampled_from(ORDS),
       st.sampled_from([(0, 1), (1, 0), (-1, 0), (-2, -1)]), st.booleans())
def test_axis_pairs_and_keepdims(x, o, axis, keepdims):
    check(x, o, axis, keepdims)


AXES_3D = [p for p in itertools.permutations(range(-3, 3), 2) if p[0] % 3 != p[1] % 3]


@SETTINGS
@given(matrices(ndim=3), st.sampled_from(ORDS), st.sampled_from(AXES_3D), st.booleans())
def test_stacked_matrices(x, o, axis, keepdims):
    check(x, o, axis, keepdims)


@pytest.mark.parametrize("o", ORDS)
@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (3, 3), (12, 12), (5, 12)])
def test_shapes(o, shape):
    rng = np.random.default_rng(sum(shape))
    check(rng.standard_normal(shape), o)


@pytest.mark.parametrize("o", ORDS)
@pytest.mark.parametrize("shape,axis", [((0, 3), None), ((3, 0), None), ((0, 0), None),
                                        ((2, 0, 3), (0, 2)), ((0, 2, 3), (1, 2)),
                                        ((2, 0, 3), (1, 2)), ((0, 0, 2), (0, 1)),
                                        ((3, 4, 0), (0, 1))])
def test_empty(o, shape, axis):
    """NumPy gives 0.0 for ord 2 and 'nuc' of an empty matrix, and for -2 raises
    ValueError (amin of no singular values) whenever the matrices are empty --
    even when there are none of them."""
    check(np.zeros(shape), o, axis)
    check(np.zeros(shape, np.int64), o, axis, keepdims=True)


@pytest.mark.parametrize("o", ORDS)
def test_nan_raises_and_inf_gives_nan(o):
    """NumPy's LAPACK fails on NaN (``LinAlgError: SVD did not converge``, a
    ValueError) and returns NaN for an infinite entry; compiled code raises the
    same ``LinAlgError``."""
    a = np.arange(6.0).reshape(2, 3)
    a[1, 2] = math.nan
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        compiled(kernel(o))(a)
    check(a, o)
    a[1, 2] = -math.inf
    assert math.isnan(compiled(kernel(o))(a))
    check(a, o)
    stack = np.ones((3, 2, 2))
    stack[1, 0, 0] = math.inf
    got = compiled(kernel(o, (1, 2)))(stack)
    assert np.isnan(got[1]) and not np.isnan(got[[0, 2]]).any()
    check(stack, o, (1, 2))
    stack[2, 1, 1] = math.nan
    check(stack, o, (2, 1))


@SETTINGS
@given(matrices(), st.sampled_from(ORDS), st.data())
def test_nan_and_inf_entries(x, o, data):
    """Real matrices: NaN raises, otherwise an infinity gives NaN.  Complex
    ones: an element whose ``abs`` is NaN raises -- ``(inf, nan)`` does not."""
    x = x.astype(np.float64) if x.dtype.kind not in "fc" else x.copy()
    n = data.draw(st.integers(1, 3))
    for _ in range(n):
        i = data.draw(st.integers(0, x.shape[0] - 1))
        j = data.draw(st.integers(0, x.shape[1] - 1))
        v = data.draw(st.sampled_from([math.nan, math.inf, -math.inf]))
        if x.dtype.kind == "c" and data.draw(st.booleans()):
            x[i, j] = complex(x[i, j].real, v)
        elif x.dtype.kind == "c":
            x[i, j] = complex(v, x[i, j].imag)
        else:
            x[i, j] = v
    check(x, o)


def test_extreme_scales():
    """Entries near the overflow and underflow thresholds: the matrix is scaled
    by its largest magnitude, and tiny singular values beside large ones are
    found (one-sided Jacobi is relatively accurate for them)."""
    f2, fm2, nuc = (compiled(kernel(o)) for o in ORDS)
    h = 1e300
    a = np.array([[h, h], [h, -h]])
    assert math.isclose(f2(a), math.sqrt(2) * h, rel_tol=1e-15)
    assert math.isclose(nuc(a), 2 * math.sqrt(2) * h, rel_tol=1e-15)
    assert fm2(np.diag([1.0, 1e-300])) == 1e-300
    assert fm2(np.diag([5e-324, 1.0])) == 5e-324
    assert f2(np.full((3, 3), 1e308)) == math.inf        # 3e308 overflows, as in NumPy
    assert f2(np.full((2, 2), 1.5e-323)) == np.linalg.norm(np.full((2, 2), 1.5e-323), 2)
    for o in ORDS:
        for s in (1e300, 1e-300, 1e-310):
            check(np.arange(12.0).reshape(3, 4) * s, o)


def test_integer_limits_and_bool():
    big = np.array([[2**63 - 1, -2**63], [0, 1]], np.int64)
    for o in ORDS:
        check(big, o)
        check(np.eye(4, dtype=bool), o)
        check(np.ones((3, 5), bool), o)


def test_results_are_float32_for_float32_matrices():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for o in ORDS:
        got = compiled(kernel(o, (1, 2)))(x)
        assert got.dtype == np.float32
        check(x, o, (1, 2))


@pytest.mark.parametrize("o", ORDS)
def test_complex(o):
    """A complex matrix's singular values are those of ``[[X, -Y], [Y, X]]``,
    each twice ('nuc' halves the sum); complex64 gives float32 like NumPy."""
    x = np.array([[1 + 2j, 3], [0, 1j], [2 - 1j, -1j]])
    check(x, o)
    check(x.T, o)
    check(x.astype(np.complex64), o, (1, 0), keepdims=True)
    got = compiled(kernel(o, (0, 1), True))(x.astype(np.complex64))
    assert got.dtype == np.float32
    for bad, raises in [(complex(math.inf, math.nan), False),
                        (complex(math.nan, 1.0), True), (complex(1.0, -math.inf), False)]:
        y = x.copy()
        y[1, 0] = bad
        if raises:
            with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
                compiled(kernel(o))(y)
        else:
            assert math.isnan(compiled(kernel(o))(y))
        check(y, o)
