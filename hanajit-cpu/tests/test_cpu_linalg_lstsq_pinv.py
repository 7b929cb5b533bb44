"""np.linalg.lstsq and np.linalg.pinv against NumPy, bit for bit: lstsq calls
?gelsd of NumPy's own OpenBLAS on the same Fortran-ordered float64/complex128
copies (its workspace query included) and builds NumPy's 4-tuple; pinv follows
NumPy's Python source (svd, cutoff, reciprocals, matmul of transposed views).
Dtypes, C/Fortran/strided/reversed inputs, square, tall, wide, rank-deficient and
empty matrices, 1-D/2-D/column-less b, rcond/rtol in their forms, errors and
fallbacks."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.lib.linalg import lapack
from hanajit.testing.dispatch_modes import jitted, mode  # noqa: F401  (a fixture)

pytestmark = pytest.mark.skipif(not lapack.available("dgelsd"),
                                reason="NumPy's LAPACK is not its wheels' OpenBLAS")


def lstsq(a, b):
    return np.linalg.lstsq(a, b)


def lstsq_rcond(a, b, rc):
    return np.linalg.lstsq(a, b, rc)


def lstsq_minus_one(a, b):
    x, res, rank, s = np.linalg.lstsq(a, b, rcond=-1)
    return x, res, rank + 0, s


def pinv(a):
    return np.linalg.pinv(a)


def pinv_rcond(a, rc):
    return np.linalg.pinv(a, rc)


def pinv_rtol(a, rt):
    return np.linalg.pinv(a, rtol=rt)


def pinv_rtol_none(a):
    return np.linalg.pinv(a, None, False, rtol=None)


def pinv_both(a):
    return np.linalg.pinv(a, rcond=0.1, rtol=0.1)


def pinv_hermitian(a):
    return np.linalg.pinv(a, hermitian=True)


def lstsq_3d(a, b):
    return np.linalg.lstsq(a, b)


_JIT = {}


def J(f):
    if f not in _JIT:
        _JIT[f] = jit(f, fallback=False)
    return _JIT[f]


def same(got, want):
    if isinstance(want, tuple):
        return type(got) is tuple and len(got) == len(want) and all(
            same(g, w) for g, w in zip(got, want))
    return (type(got) is type(want) and got.dtype == want.dtype
            and np.shape(got) == np.shape(want)
            and np.asarray(got).tobytes() == np.asarray(want).tobytes())


def check(f, *args):
    want = f(*args)
    got = J(f)(*args)
    assert same(got, want), (got, want)
    return want


RNG = np.random.default_rng(7)


def matrix(shape, dtype):
    x = RNG.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    if np.dtype(dtype).kind in "iu":
        x = np.abs(x) * 5
    if np.dtype(dtype).kind == "b":
        x = x > 0
    return x.astype(dtype)


def deficient(m, n, dtype):
    """A rank-deficient ``m x n`` matrix (its last column the sum of two others)."""
    a = matrix((m, n), dtype)
    a[:, -1] = a[:, 0] + a[:, 1]
    return a


SHAPES = [(5, 5), (8, 3), (3, 8), (1, 1), (1, 6), (6, 1), (40, 30), (30, 40)]
DTYPES = [np.float64, np.float32, np.complex128, np.complex64, np.int64, np.int32,
          np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES)
def test_lstsq_bits_over_dtypes_and_shapes(dtype):
    for m, n in SHAPES:
        a = matrix((m, n), dtype)
        for b in (matrix((m,), dtype), matrix((m, 3), dtype)):
            r = check(lstsq, a, b)
            assert type(r[2]) is np.int32
    check(lstsq, deficient(6, 4, np.float64 if dtype == np.bool_ else dtype),
          matrix((6, 2), dtype))
    if dtype in (np.float64, np.complex128):     # ?gelsd's QR/LQ-first paths
        for m, n in ((90, 30), (30, 90)):
            check(lstsq, matrix((m, n), dtype), matrix((m, 3), dtype))


@pytest.mark.parametrize("f", [lstsq, lstsq_minus_one])
def test_returned_tuples_under_both_dispatchers(f, mode):  # noqa: F811 (the fixture)
    a, b = matrix((7, 3), np.float32), matrix((7,), np.float32)
    j = jitted(f)
    for _ in range(3):              # the native dispatcher from the second call
        assert same(j(a, b), f(a, b))
    h = hermitian_matrix(4, np.complex128)
    j = jitted(pinv_hermitian)
    for _ in range(3):
        assert same(j(h), pinv_hermitian(h))


def test_lstsq_residuals_rank_and_types():
    a, b = matrix((9, 4), np.float64), matrix((9,), np.float64)
    x, res, rank, s = check(lstsq, a, b)
    assert res.shape == (1,) and rank == 4 and s.shape == (4,)
    # rank-deficient or m <= n: no residuals
    assert check(lstsq, deficient(9, 4, np.float64), b)[1].shape == (0,)
    assert check(lstsq, matrix((4, 4), np.float64), b[:4])[1].shape == (0,)
    # mixed dtypes: NumPy's _commonType
    check(lstsq, matrix((6, 3), np.float32), matrix((6,), np.float64))
    check(lstsq, matrix((6, 3), np.complex64), matrix((6, 2), np.float32))
    check(lstsq, matrix((6, 3), np.int64), matrix((6, 2), np.complex64))
    check(lstsq, matrix((6, 3), np.float32), matrix((6, 2), np.bool_))


def test_lstsq_layouts():
    big = matrix((14, 10), np.float64)
    bb = matrix((14, 6), np.complex128)
    for a in (np.asfortranarray(big), big[::2, ::-2], big[::-1, 1:8].T):
        m = a.shape[0]
        for b in (np.asfortranarray(bb[:m]), bb[m - 1::-1, ::2], bb[:m, 3]):
            check(lstsq, a, b)
        check(lstsq, a, big[:m, ::-3])


def test_lstsq_empty():
    for m, n, k in ((0, 3, 2), (3, 0, 2), (0, 0, 1), (4, 3, 0), (3, 4, 0), (0, 3, 0)):
        check(lstsq, matrix((m, n), np.float64), matrix((m, k), np.float64))
        check(lstsq, matrix((m, n), np.complex64), matrix((m, k), np.complex64))
        check(lstsq, matrix((m, n), np.float32), matrix((m,), np.float32))


def test_lstsq_rcond():
    a = deficient(7, 5, np.float64)
    a[:, 2] *= 1e-9
    b = matrix((7, 2), np.float64)
    for rc in (None, -1, 0, 0.5, 1e-12, 1e-8, np.float32(1e-3), np.float64(0.1), 3,
               np.int32(1), True):
        check(lstsq_rcond, a, b, rc)
    check(lstsq_minus_one, a, b)
    check(lstsq_rcond, a.astype(np.complex64), b.astype(np.float32), 1e-6)


def test_lstsq_nan_in_b():
    a, b = matrix((6, 3), np.float64), matrix((6, 2), np.float64)
    b[2, 1] = np.nan
    b[4, 0] = np.inf
    check(lstsq, a, b)


def test_lstsq_errors():
    for a, b in ((np.eye(3), np.ones(4)), (np.eye(3), np.ones((2, 2))),
                 (np.ones((2, 3)), np.ones((3,)))):
        with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
            np.linalg.lstsq(a, b)
        with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
            J(lstsq)(a, b)


def test_lstsq_dimension_errors():
    for a, b, words in ((np.eye(3), np.ones((3, 3, 3)), "3-dimensional array given"),
                        (np.ones(3), np.ones(3), "1-dimensional array given"),
                        (np.ones((2, 3, 3)), np.ones(3), "3-dimensional array given")):
        with pytest.raises(np.linalg.LinAlgError, match=words):
            np.linalg.lstsq(a, b)
        with pytest.raises(np.linalg.LinAlgError, match=words):
            J(lstsq_3d)(a, b)


# (int32 and uint8 go through pinv's helper as int64 does, converted element by
# element: each is a compile of the whole helper; lstsq runs them)
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d not in (np.int32, np.uint8)])
def test_pinv_bits_over_dtypes_and_shapes(dtype):
    for m, n in SHAPES:
        check(pinv, matrix((m, n), dtype))
    check(pinv, deficient(6, 4, np.float64 if dtype == np.bool_ else dtype))
    check(pinv, deficient(4, 6, np.float64 if dtype == np.bool_ else dtype))
    check(pinv, np.zeros((3, 4), dtype))


def test_pinv_layouts():
    big = matrix((14, 10), np.complex128)
    # (the strided view first: the Fortran-ordered one then runs through its
    # any-layout specialisation, as pinv reads any layout through the same copy;
    # test_pinv_hermitian compiles a Fortran one)
    for a in (big, big[::2, ::-2], np.asfortranarray(big), big[::-1, 1:8].T, big.real):
        check(pinv, a)


def test_pinv_empty():
    for shape in ((0, 3), (3, 0), (0, 0)):
        for dtype in (np.float64, np.float32, np.complex64, np.complex128):
            check(pinv, np.zeros(shape, dtype))
        # an integer one: NumPy's empty result keeps the integer dtype (re-run there)
        a = np.zeros(shape, np.int64)
        got, want = J(pinv)(a), np.linalg.pinv(a)
        assert same(got, want)


def test_pinv_rcond_and_rtol():
    for dtype in (np.float64, np.float32, np.complex64, np.complex128):
        a = deficient(7, 5, dtype)
        a[:, 2] *= 1e-6
        # every kind of rcond (int, float, np.float32: a compile each) for two of
        # the dtypes; Python floats (NumPy's cutoff in float64) for all
        kinds = dtype in (np.float64, np.complex64)
        for rc in ((0, 1e-3, 1e-8, 0.5, np.float32(1e-6), np.float32(1e-8), 2, np.nan)
                   if kinds else (1e-3, 1e-8, 0.5, np.nan)):
            check(pinv_rcond, a, rc)
            check(pinv_rtol, a, rc)
        check(pinv_rtol_none, a)
        check(pinv_rcond, a, None)
    check(pinv_rcond, deficient(5, 5, np.int32), 1e-3)


def test_pinv_cutoff_dtype():
    # float32 singular values against a float64 cutoff (a Python float rcond) or
    # a float32 one (a float32 rcond, or rtol=None of float32 data)
    a = np.diag(np.array([1.0, 0.1], np.float32))
    assert check(pinv_rcond, a, 0.1)[1, 1] == 10
    assert check(pinv_rcond, a, np.float32(0.1))[1, 1] == 0
    assert check(pinv_rtol, a, np.float32(0.1))[1, 1] == 0
    for dtype, eps in ((np.float32, np.finfo(np.float32).eps),
                       (np.complex64, np.finfo(np.float32).eps),
                       (np.float64, np.finfo(np.float64).eps)):
        for t in (2 * eps, 3 * eps):
            check(pinv_rtol_none, np.diag(np.array([1.0, t])).astype(dtype))


def test_pinv_errors_and_fallbacks():
    with pytest.raises(ValueError, match="can't be both set"):
        pinv_both(np.eye(2))
    with pytest.raises(ValueError, match="can't be both set"):
        J(pinv_both)(np.eye(2))
    a = np.eye(3)
    a[1, 1] = np.nan
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        np.linalg.pinv(a)
    with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
        J(pinv)(a)
    # NaN: eigh's LinAlgError; infinities give NumPy's zeros
    a[2, 0] = 1
    with pytest.raises(np.linalg.LinAlgError, match="Eigenvalues did not converge"):
        pinv_hermitian(a)
    with pytest.raises(np.linalg.LinAlgError, match="Eigenvalues did not converge"):
        J(pinv_hermitian)(a)
    for bad in (np.inf, -np.inf):
        a[1, 1] = bad
        check(pinv, a)
        check(pinv_hermitian, a)
    stack = np.ones((2, 3, 3))
    with pytest.warns(HanaJitFallbackWarning, match="3-D matrix"):
        got = jit(pinv)(stack)
    assert same(got, pinv(stack))


def hermitian_matrix(n, dtype):
    a = RNG.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * RNG.standard_normal((n, n))
    return (a + a.conj().T).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64,
                                   np.int64])
def test_pinv_hermitian(dtype):
    for n in (1, 4, 9, 30):
        # eigenvalues of equal magnitude (ties in NumPy's argsort) and zeros too
        ties = np.diag(np.resize([1, -1, 2, -2, 0], n)).astype(dtype)
        for a in (hermitian_matrix(n, dtype), np.eye(n, dtype=dtype), ties):
            check(pinv_hermitian, a)
    check(pinv_hermitian, np.zeros((0, 0), np.float64 if dtype == np.int64 else dtype))
    # only the lower triangle is read, as NumPy's eigh reads it
    check(pinv_hermitian, np.triu(hermitian_matrix(5, dtype)))
    if dtype == np.complex128:
        big = hermitian_matrix(12, dtype)
        check(pinv_hermitian, np.asfortranarray(big))
        check(pinv_hermitian, big[::-2, ::-2])
    elif dtype == np.float32:       # (the same copy of any layout: the strided view
        big = hermitian_matrix(12, dtype)   # first, the Fortran one through it)
        check(pinv_hermitian, big[::-2, ::-2])
        check(pinv_hermitian, np.asfortranarray(big))
    with pytest.raises(np.linalg.LinAlgError, match="must be square"):
        np.linalg.pinv(np.ones((2, 3), dtype), hermitian=True)
    with pytest.raises(np.linalg.LinAlgError, match="must be square"):
        J(pinv_hermitian)(np.ones((2, 3), dtype))
