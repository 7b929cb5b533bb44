"""Stacks of matrices (3-D and more) for ``np.linalg.solve``, ``inv``, ``det``,
``slogdet``, ``cholesky``, ``eigvalsh`` and ``svd(compute_uv=False)``/``svdvals`` on
the CPU target: NumPy's gufuncs loop over the stack calling the same LAPACK per
matrix, and so does the compiled code (``lib/linalg/stacks.py``), so results are
NumPy's bit for bit (bytes, dtype, shape) and its errors are raised
(``LinAlgError`` for a singular matrix anywhere in an ``inv``/``solve`` stack, 0 as
that matrix's ``det``).  ``fallback=False`` throughout."""
import numpy as np
import pytest
from hanajit.testing.jitted import jitted

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")
L = np.linalg


def inv(a):
    return L.inv(a)


def det(a):
    return L.det(a)


def slogdet(a):
    r = L.slogdet(a)
    return r.sign, r.logabsdet


def slogdet_result(a):
    return L.slogdet(a)


def cholesky(a):
    return L.cholesky(a), L.cholesky(a, upper=True)


def eigvalsh(a):
    return L.eigvalsh(a), L.eigvalsh(a, UPLO="U")


def svdvals(a):
    return L.svd(a, compute_uv=False), L.svdvals(a)


def solve(a, b):
    return L.solve(a, b)


SQUARE = (inv, det, slogdet, eigvalsh, svdvals)


def same(got, exp):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        assert type(got).__name__ == type(exp).__name__
        for g, e in zip(got, exp):
            same(g, e)
        return
    assert isinstance(got, np.ndarray) == isinstance(exp, np.ndarray), (got, exp)
    g, e = np.asarray(got), np.asarray(exp)
    assert g.dtype == e.dtype and g.shape == e.shape, (got, exp)
    assert g.tobytes() == e.tobytes(), (got, exp)


def compare(fn, *args):
    try:
        exp = fn(*args)
    except Exception as e:                    # noqa: BLE001
        with pytest.raises(type(e)):
            jitted(fn, fallback=False)(*args)
        return
    same(jitted(fn, fallback=False)(*args), exp)


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * 4
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    elif np.dtype(dtype).kind in "iu":
        a = np.round(a)
    return a.astype(dtype)


def spd(shape, dtype, seed=0):
    """Hermitian positive definite matrices (a stack), of ``dtype``."""
    a = data(shape, np.complex128 if np.dtype(dtype).kind == "c" else np.float64, seed)
    n = shape[-1]
    return (a @ np.swapaxes(a.conj(), -1, -2) + n * np.eye(n)).astype(dtype)


DTYPES = [np.float64, np.float32, np.complex128, np.int64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_square_stacks_every_dtype(dtype):
    four = [(3, 1, 4, 4)] if dtype == np.float64 else []    # (4-D: the same loops)
    for shape in [(2, 3, 3), (0, 2, 2), (2, 0, 0), (4, 1, 1)] + four:
        a = data(shape, dtype, len(shape))
        for fn in SQUARE:
            compare(fn, a)
        compare(cholesky, spd(shape, dtype))
    compare(svdvals, data((2, 3, 5), dtype))
    compare(svdvals, data((3, 6, 2), dtype))
    compare(svdvals, data((2, 0, 3), dtype))


def test_layouts():
    """Fortran-ordered, reversed and strided stacks (float64)."""
    a = data((3, 4, 5, 5), np.float64, 3)
    p = spd((3, 5, 5), np.float64, 4)
    for x in (np.asfortranarray(a), a[::-1, :, ::-1], a[:, ::2, 1:, :-1],
              np.moveaxis(a, 0, -1)[..., :4]):
        for fn in SQUARE:
            compare(fn, x)
    for x in (np.asfortranarray(p), p[::-1, ::-1, ::-1], np.swapaxes(p, 1, 2)):
        compare(cholesky, x)
        compare(eigvalsh, x)


def test_sizes_zero_to_six():
    for n in range(7):
        a = data((2, n, n), np.float64, n)
        for fn in (inv, det, slogdet):
            compare(fn, a)
        compare(svdvals, data((2, n, 6 - n), np.float64, n))
        compare(solve, a, data((2, n, 3), np.float64, n + 1))
        compare(solve, a, data((n,), np.float64, n + 2))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex64])
def test_solve_broadcasting(dtype):
    a = data((2, 3, 4, 4), dtype, 1)
    for b in (data((2, 3, 4, 2), dtype, 2), data((4, 2), dtype, 3), data((4,), dtype, 4),
              data((3, 4, 1), dtype, 5), data((1, 1, 4, 3), dtype, 6),
              data((5, 2, 3, 4, 2), dtype, 7)):
        compare(solve, a, b)
    compare(solve, data((4, 4), dtype, 8), data((2, 4, 2), dtype, 9))
    compare(solve, a[:1, ::-1], data((2, 1, 4, 3), dtype, 10))


def test_singular_and_special_matrices():
    """A singular matrix in a stack: inv and solve raise LinAlgError, det gives 0
    and slogdet (0, -inf) for it; a non-positive-definite matrix makes cholesky
    raise; NaN makes svd raise; infinities and NaN pass through the others."""
    a = data((3, 3, 3), np.float64, 5)
    a[1] = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]]
    for fn in (inv, det, slogdet, slogdet_result):
        compare(fn, a)
    compare(solve, a, data((3, 3), np.float64, 6))
    with pytest.raises(L.LinAlgError, match="Singular matrix"):
        jitted(inv, fallback=False)(a)
    p = spd((2, 3, 3), np.complex128, 7)
    p[1, 0, 0] = -1.0
    with pytest.raises(L.LinAlgError, match="not positive definite"):
        jitted(cholesky, fallback=False)(p)
    compare(cholesky, p)
    b = data((2, 2, 2), np.float64, 8)
    b[0, 0, 1] = np.nan
    b[1, 1, 0] = np.inf
    for fn in (det, slogdet, eigvalsh, svdvals):
        compare(fn, b)
    z = np.zeros((2, 2, 2))
    z[1] = -0.0
    for fn in (det, slogdet, inv, svdvals, eigvalsh):
        compare(fn, z)


def test_errors():
    """NumPy's errors: matrices that are not square (LinAlgError, even in an
    empty stack), a right-hand side of the wrong length and stacks that do not
    broadcast (ValueError)."""
    for fn in (inv, det, slogdet, eigvalsh):
        with pytest.raises(L.LinAlgError, match="must be square"):
            jitted(fn, fallback=False)(np.ones((2, 2, 3)))
        with pytest.raises(L.LinAlgError, match="must be square"):
            jitted(fn, fallback=False)(np.ones((0, 2, 3)))
    a = data((2, 3, 3), np.float64)
    with pytest.raises(ValueError):
        jitted(solve, fallback=False)(a, np.ones((2, 4, 1)))
    with pytest.raises(ValueError):
        jitted(solve, fallback=False)(a, np.ones(4))
    with pytest.raises(ValueError):
        jitted(solve, fallback=False)(a, np.ones((3, 3, 2)))
    compare(solve, a, np.ones((3, 3, 2)))
    compare(solve, a, np.ones((2, 3)))          # (2, 3) is a matrix b in NumPy 2


def cond(a):
    return L.cond(a), L.cond(a, 2), L.cond(a, -2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex64, np.int64])
def test_cond_of_stacks(dtype):
    """``cond`` (p None, 2, -2) of a stack: the ratio of each matrix's singular
    values in their dtype, NaN (a zero matrix) made ``inf``; LinAlgError for empty
    matrices, an empty array of results for an empty stack of them."""
    for shape in [(3, 4, 4), (2, 2, 3, 5), (0, 3, 3), (2, 1, 1)]:
        a = data(shape, dtype, len(shape))
        if shape == (2, 1, 1):
            a[0] = 0
        compare(cond, a)
    compare(cond, np.asfortranarray(data((2, 3, 3), dtype))[::-1])
    with pytest.raises(L.LinAlgError, match="empty"):
        jitted(cond, fallback=False)(np.zeros((2, 0, 3), dtype))


def matrix_rank(a):
    return L.matrix_rank(a)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int64, np.bool_])
def test_matrix_rank_of_stacks(dtype):
    a = data((3, 4, 5), dtype, 2)
    a[1] = np.outer(a[1, :, 0], a[1, 1].conj()) if dtype != np.bool_ else False
    a[2, 3] = a[2, 0]
    for x in (a, a[::-1, ::-1], np.zeros((2, 0, 3), dtype), np.zeros((0, 2, 2), dtype)):
        compare(matrix_rank, x)
