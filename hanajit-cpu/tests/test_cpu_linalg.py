"""np.linalg.solve / inv / det against NumPy, bit for bit: the same LAPACK
functions of NumPy's own OpenBLAS on the same Fortran-ordered float64/complex128
copies.  Dtypes (ints, bool, float32, complex64, mixed), sizes 0 to 130 (OpenBLAS's
blocked paths), strided, transposed and reversed views, NaN and infinities,
singular and non-square matrices, a right-hand side of the wrong length."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.lib.linalg import lapack
from hanajit.testing.jitted import jitted

pytestmark = pytest.mark.skipif(not lapack.available("dgesv"),
                                reason="NumPy's LAPACK is not its wheels' OpenBLAS")


def solve(a, b):
    return np.linalg.solve(a, b)


def inv(a):
    return np.linalg.inv(a)


def det(a):
    return np.linalg.det(a)


def stacked(a):
    return np.linalg.matrix_rank(a.astype(np.float32))


def cholesky(a):
    return np.linalg.cholesky(a)


def cholesky_upper(a):
    return np.linalg.cholesky(a, upper=True)


def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def eigvalsh_upper(a):
    return np.linalg.eigvalsh(a, UPLO="U")


def eigvalsh_u(a):
    return np.linalg.eigvalsh(a, "u")


def svd_values(a):
    return np.linalg.svd(a, compute_uv=False)


def svd_positional(a):
    return np.linalg.svd(a, False, False)


def svdvals(a):
    return np.linalg.svdvals(a)


def matrix_rank(a):
    return np.linalg.matrix_rank(a)


def svd_full(a):
    return np.linalg.svd(a)


ALL = (solve, inv, det, cholesky, cholesky_upper, eigvalsh, eigvalsh_upper, eigvalsh_u,
       svd_values, svd_positional, svdvals, matrix_rank)
FUNCS = {f.__name__: jit(f, fallback=False) for f in ALL}
PLAIN = {f.__name__: f for f in ALL}


def same(got, want):
    """Equal bits, except that a NaN matches any NaN: which NaN an operation on a NaN
    returns (its sign) is not promised (docs/optimizers.md), and NumPy's own
    differs between OpenBLAS's kernels for different CPUs.  Signed zeros and
    infinities are compared exactly."""
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape or g.dtype != w.dtype:
        return False

    def sign_agrees(x, y):
        keep = ~(np.isnan(x) | np.isnan(y))
        return np.array_equal(np.signbit(x[keep]), np.signbit(y[keep]))
    return g.tobytes() == w.tobytes() or (
        np.array_equal(g, w, equal_nan=True)
        and sign_agrees(g.real, w.real) and sign_agrees(np.imag(g), np.imag(w)))


def outcome(f, *args):
    with np.errstate(all="ignore"):
        try:
            return "ok", f(*args)
        except Exception as exc:                    # noqa: BLE001
            return type(exc).__name__, str(exc)


def compare(name, *args):
    want = outcome(PLAIN[name], *[np.copy(a) if isinstance(a, np.ndarray) else a
                                  for a in args])
    got = outcome(FUNCS[name], *args)
    if want[0] != "ok" or got[0] != "ok":
        assert got == want
    else:
        r = got[1]
        if not isinstance(r, np.ndarray):           # det: a number
            r = np.asarray(r, dtype=np.asarray(want[1]).dtype)
        assert same(r, want[1]), (name, r, want[1])


def matrix(rng, n, dtype, m=None):
    m = n if m is None else m
    if np.dtype(dtype).kind == "c":
        x = rng.standard_normal((n, m)) + 1j * rng.standard_normal((n, m))
    elif np.dtype(dtype).kind == "b":
        x = rng.random((n, m)) < 0.6
    elif np.dtype(dtype).kind in "iu":
        x = rng.integers(0, 9, (n, m))
    else:
        x = rng.standard_normal((n, m))
    return x.astype(dtype)


DTYPES = [np.float64, np.float32, np.int64, np.int8, np.uint16, np.bool_,
          np.complex128, np.complex64]
SIZES = [0, 1, 2, 3, 5, 8, 17, 64, 130]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_every_dtype_and_size(dtype, n):
    rng = np.random.default_rng(n * 31 + DTYPES.index(dtype))
    a = matrix(rng, n, dtype)
    b1, b2 = matrix(rng, n, dtype, 1)[:, 0], matrix(rng, n, dtype, 3)
    for name, args in (("det", (a,)), ("inv", (a,)), ("solve", (a, b1)),
                       ("solve", (a, b2))):
        compare(name, *args)


@pytest.mark.parametrize("pair", [(np.float32, np.float64), (np.float32, np.complex64),
                                  (np.int32, np.float32), (np.complex64, np.complex128),
                                  (np.float64, np.complex64), (np.bool_, np.int8)])
def test_mixed_dtypes_follow_numpys_common_type(pair):
    rng = np.random.default_rng(7)
    a, b = matrix(rng, 6, pair[0]), matrix(rng, 6, pair[1], 2)
    compare("solve", a, b)
    compare("solve", a, b[:, 0])


def test_views_transposes_and_strides():
    rng = np.random.default_rng(3)
    big = rng.standard_normal((20, 21))
    for a in (big[:9, :9], big[::2, ::2][:9, :9], big[:9, :9].T, big[8::-1, 9::-1][:9, :9],
              np.asfortranarray(big[:9, :9])):
        compare("det", a)
        compare("inv", a)
        compare("solve", a, big[:9, 20])
        compare("solve", a, big[::-2, ::5][:9])


def test_special_values():
    rng = np.random.default_rng(5)
    for v in (np.nan, np.inf, -np.inf, 0.0, -0.0, 1e300, 1e-310):
        a = rng.standard_normal((4, 4))
        a[1, 2] = v
        for dtype in (np.float64, np.complex128):
            compare("det", a.astype(dtype))
            compare("inv", a.astype(dtype))
            compare("solve", a.astype(dtype), np.arange(4.0))
    # complex matrices with signed-zero imaginary parts: NumPy's mult rounding
    for sign in (1.0, -1.0):
        z = np.diag([2.0, -3.0, 0.5]).astype(complex)
        z.imag = sign * 0.0
        compare("det", z)
        compare("det", z * 1j)


def test_singular_non_square_and_mismatched():
    compare("det", np.zeros((3, 3)))                 # singular: 0.0
    compare("det", np.array([[1.0, 2.0], [2.0, 4.0]]))
    compare("det", np.zeros((3, 3), complex))
    for name, args in (("inv", (np.ones((3, 3)),)), ("solve", (np.ones((3, 3)), np.ones(3))),
                       ("inv", (np.ones((2, 3)),)), ("det", (np.ones((3, 2)),)),
                       ("solve", (np.ones((3, 2)), np.ones(3))),
                       ("solve", (np.eye(3), np.ones(4))),
                       ("solve", (np.eye(3), np.ones((2, 5)))),
                       ("inv", (np.zeros((2, 2), complex),))):
        compare(name, *args)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        FUNCS["inv"](np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"solve1: Input operand 1 has a mismatch in its "
                       r"core dimension 0, with gufunc signature \(m,m\),\(m\)->\(m\) "
                       r"\(size 4 is different from 3\)"):
        FUNCS["solve"](np.eye(3), np.ones(4))


def hermitian(rng, n, dtype):
    """A Hermitian positive definite matrix of ``dtype`` (ints: symmetric)."""
    m = rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        m = m + 1j * rng.standard_normal((n, n))
    h = m @ m.conj().T + n * np.eye(n)
    return (np.round(h) + 3 * n * np.eye(n) if np.dtype(dtype).kind in "iu" else h).astype(dtype)


SYMMETRIC = ("cholesky", "cholesky_upper", "eigvalsh", "eigvalsh_upper", "eigvalsh_u")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128,
                                   np.complex64])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 33, 100])
def test_cholesky_and_eigvalsh(dtype, n):
    rng = np.random.default_rng(n + 100 * DTYPES.index(dtype))
    a = hermitian(rng, n, dtype)
    for name in SYMMETRIC:
        compare(name, a)
        compare(name, np.asfortranarray(a))
    if n > 1:
        compare("eigvalsh", matrix(rng, n, dtype))      # only one triangle is read
        compare("eigvalsh_upper", matrix(rng, n, dtype))


def test_cholesky_and_eigvalsh_errors():
    for name in SYMMETRIC:
        compare(name, np.ones((2, 3)))                  # not square
    for bad in (-np.eye(3), np.zeros((3, 3)), np.full((3, 3), np.nan),
                np.array([[1.0, 2.0], [2.0, 1.0]])):
        compare("cholesky", bad)
        compare("cholesky_upper", bad)
        compare("eigvalsh", bad)
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        FUNCS["cholesky"](-np.eye(2))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16, np.complex128,
                                   np.complex64])
@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (1, 1), (3, 5), (5, 3), (9, 9),
                                   (40, 25), (70, 130)])
def test_singular_values_and_rank(dtype, shape):
    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    a = matrix(rng, shape[0], dtype, shape[1])
    for name in ("svd_values", "svd_positional", "svdvals"):
        compare(name, a)
        compare(name, a[::-1].T)
    if dtype not in (np.float32, np.complex64):
        compare("matrix_rank", a)
        if min(shape) > 2:                              # rank 2 by construction
            low = matrix(rng, shape[0], dtype, 2) @ matrix(rng, 2, dtype, shape[1])
            compare("matrix_rank", low)
            assert FUNCS["matrix_rank"](low) == 2 or dtype == np.int16


def test_singular_values_special_and_refused_forms():
    for v in (np.nan, np.inf):
        a = np.eye(3)
        a[0, 1] = v
        compare("svd_values", a)
        compare("matrix_rank", a)
    compare("matrix_rank", np.zeros((3, 4)))
    r = jit(svd_full, fallback=False)(np.eye(2))    # NumPy's SVDResult, compiled
    want = svd_full(np.eye(2))
    assert type(r) is type(want)
    assert all(g.tobytes() == w.tobytes() for g, w in zip(r, want))


def test_inside_a_kernel_with_other_work():
    from hanajit.testing.sourcefile import load_module
    mod = load_module("import numpy as np\n"
                      "def lsq(x, y):\n"
                      "    a = x.T @ x\n"
                      "    c = np.linalg.solve(a, x.T @ y)\n"
                      "    return c, np.linalg.det(a), np.linalg.inv(a)[0, 0]\n", "linalg_lsq")
    rng = np.random.default_rng(9)
    x, y = rng.standard_normal((40, 4)), rng.standard_normal(40)
    got, want = jitted(mod.lsq, fallback=False)(x, y), mod.lsq(x, y)
    assert np.allclose(got[0], want[0], rtol=1e-12)   # x.T @ x: sequential sums here
    assert np.isclose(got[1], want[1], rtol=1e-12)


def test_stacks_fall_back_naming_the_call():
    # (matrix_rank of float32 falls back; stacks loop: test_cpu_linalg_stacks.py)
    f = jit(stacked)
    a = np.random.default_rng(0).standard_normal((2, 3, 3))
    with pytest.warns(HanaJitFallbackWarning, match="matrix_rank"):
        r = f(a)
    assert np.array_equal(r, np.linalg.matrix_rank(a.astype(np.float32)))


def test_helpers_run_in_the_interpreter_too():
    # the helpers' primitives have Python bodies (ctypes calls of the same
    # functions): the helper gives NumPy's result uncompiled as well
    from hanajit.lib.linalg import solve_inv_det_algorithms as hl
    a = np.random.default_rng(4).standard_normal((5, 5))
    w = np.empty(25)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert hl.det_d(a, w) == np.linalg.det(a)
    x, w, bw = np.empty(5), np.empty(25), np.empty(5)
    hl.solve1(a, np.arange(5.0), x, w, bw)
    assert np.array_equal(x, np.linalg.solve(a, np.arange(5.0)))


def test_other_targets_refuse_lapack(tmp_path):
    from hanajit.errors import UnsupportedError
    f = jit(det, fallback=False)
    for export in ("export_wasm", "export_executable"):
        if not hasattr(f, export):
            continue
        with pytest.raises(UnsupportedError, match="LAPACK, which only the CPU target"):
            getattr(f, export)(str(tmp_path / export), sig="f64[:, :]")
