"""np.linalg.eig and np.linalg.eigvals against NumPy, bit for bit: the same LAPACK
function of NumPy's own OpenBLAS (dgeev/zgeev, JOBVL='N', JOBVR='V' or 'N', after
NumPy's workspace query) on the same Fortran-ordered float64/complex128 copy.
Dtypes, C/Fortran/strided/reversed inputs, sizes 0 to 6 and 20, symmetric and
triangular matrices (real eigenvalues: the compiled path), rotations and random
real matrices (complex eigenvalues: the call re-runs in the interpreter for
NumPy's complex result), EigResult's fields, NaN/inf and the errors and
fallbacks."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.lib.linalg import lapack
from hanajit.testing.dispatch_modes import jitted

pytestmark = pytest.mark.skipif(not lapack.available("dgeev"),
                                reason="NumPy's LAPACK is not its wheels' OpenBLAS")


def eig(a):
    w, v = np.linalg.eig(a)
    return w, v


def eigvals(a):
    return np.linalg.eigvals(a)


def eig_fields(a):
    r = np.linalg.eig(a)
    return r.eigenvalues, r.eigenvectors, r[0]


def residual(a):
    # the factors used inside a kernel
    w, v = np.linalg.eig(a)
    return a @ v - v * w


def of_expression(a):
    return np.linalg.eigvals(a + a.T), np.linalg.eig(a.T * 2)[1]


def eig_result(a):
    return np.linalg.eig(a)


def eig_in_tuple(a):
    return np.linalg.eig(a), np.linalg.eigvals(a), 2


def eig_stack(a):
    return np.linalg.eig(a)[0]


def eigvals_stack(a):
    return np.linalg.eigvals(a)


def eig_writes(a):
    a[0, 0] = 1.0
    return np.linalg.eig(a), np.linalg.eigvals(a)


ALL = (eig, eigvals, eig_fields, residual, of_expression)
FUNCS = {f.__name__: jit(f, fallback=False) for f in ALL}
PLAIN = {f.__name__: f for f in ALL}


def same(got, want):
    """Same type, shape, dtype and bits, at every level (NumPy's named tuples
    included)."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    if not isinstance(want, np.ndarray):
        assert got == want
        return
    assert got.shape == want.shape and got.dtype == want.dtype, (got, want)
    assert got.tobytes() == want.tobytes(), (got, want)


def outcome(f, a):
    with np.errstate(all="ignore"):
        try:
            return "ok", f(a)
        except Exception as exc:                    # noqa: BLE001
            return type(exc).__name__, str(exc)


def compare(name, a):
    want = outcome(PLAIN[name], np.copy(a))
    got = outcome(FUNCS[name], a)
    if want[0] != "ok" or got[0] != "ok":
        assert got == want
        return
    same(got[1], want[1])


def matrix(rng, n, dtype, kind="random"):
    if np.dtype(dtype).kind == "b":
        x = rng.random((n, n)) < 0.5
    elif np.dtype(dtype).kind in "iu":
        x = rng.integers(0, 9, (n, n))
    else:
        x = rng.standard_normal((n, n))
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal((n, n))
    if kind == "symmetric":
        x = x + x.T
    elif kind == "triangular":
        x = np.triu(x)
    return x.astype(dtype)


DTYPES = [np.float64, np.float32, np.int64, np.uint8, np.bool_, np.complex128,
          np.complex64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_and_sizes(dtype):
    rng = np.random.default_rng(1)
    for n in (0, 1, 2, 3, 4, 5, 6, 20):
        for kind in ("symmetric", "triangular", "random"):
            a = matrix(rng, n, dtype, kind)
            for name in ("eig", "eigvals"):
                compare(name, a)


def test_real_results_are_real_and_complex_ones_complex():
    rng = np.random.default_rng(2)
    s = matrix(rng, 5, np.float64, "symmetric")
    for f in (FUNCS["eig"], FUNCS["eigvals"]):
        assert np.asarray(f(s)[0]).dtype == np.float64
        assert np.asarray(f(s.astype(np.float32))[0]).dtype == np.float32
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    for f in (FUNCS["eig"], FUNCS["eigvals"]):
        assert np.asarray(f(rot)[0]).dtype == np.complex128          # (re-run)
        assert np.asarray(f(rot.astype(np.float32))[0]).dtype == np.complex64
    for name in ("eig", "eigvals", "eig_fields", "residual"):
        for a in (rot, rot.astype(np.float32), np.array([[1, -1], [1, 1]]),
                  matrix(rng, 6, np.float64), np.array([[2.0, 1.0], [1.0, 2.0]])):
            compare(name, a)


def test_layouts():
    """float64 compiled for each layout type; complex128 and float32 once, for
    their views of any layout first, which then run the C and Fortran arrays too
    (each copied to LAPACK's Fortran-ordered buffer as any view is)."""
    rng = np.random.default_rng(3)
    for dtype in (np.float64, np.complex128, np.float32):
        for kind in ("symmetric", "random"):
            base = matrix(rng, 10, dtype, kind)
            views = (base, np.asfortranarray(base), base[::2, ::2], base[::-1, ::-1],
                     base.T, base[1:6, 2:7])
            if dtype != np.float64:
                views = views[2:] + views[:2]
            for a in views:
                for name in ("eig", "eigvals"):
                    compare(name, a)


def test_fields_and_the_factors_inside_a_kernel():
    rng = np.random.default_rng(4)
    for dtype in (np.float64, np.complex128, np.int64, np.complex64):
        for kind in ("symmetric", "random"):
            a = matrix(rng, 5, dtype, kind)
            compare("eig_fields", a)
            compare("residual", a)
            compare("of_expression", a)


def test_special_values_and_errors():
    nan, inf = np.nan, np.inf
    cases = [np.array([[nan, 1.0], [1.0, 1.0]]), np.array([[1.0, inf], [1.0, 1.0]]),
             np.array([[1.0, 0.0], [0.0, -inf]], np.float32),
             np.array([[1.0, complex(0.0, nan)], [1.0, 1.0]]),
             np.array([[1.0, complex(inf, 0.0)], [1.0, 1.0]], np.complex64),
             np.zeros((2, 3)), np.full((2, 3), nan), np.zeros((0, 3)), np.zeros((3, 0)),
             np.zeros((0, 0), np.complex64), np.zeros((0, 0), np.int64),
             np.array([[-0.0, 0.0], [0.0, -0.0]]), np.array([[1e-300, 1e300], [1e-300, 1.0]]),
             np.eye(4), np.ones((4, 4)), np.diag([3.0, -2.0, 0.0, 2.0])]
    for a in cases:
        for name in ("eig", "eigvals"):
            compare(name, a)
    with pytest.raises(np.linalg.LinAlgError, match="must be square"):
        FUNCS["eig"](np.zeros((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="infs or NaNs"):
        FUNCS["eigvals"](np.array([[nan]]))


@pytest.mark.parametrize("f", [eig_result, eig_in_tuple])
def test_returned_named_tuples_are_numpys(f, mode):
    rng = np.random.default_rng(5)
    j = jitted(f)
    for a in (matrix(rng, 4, np.float64, "symmetric"), matrix(rng, 4, np.complex128),
              matrix(rng, 4, np.float64)):     # (the last re-runs: complex eigenvalues)
        for _ in range(3):              # the native dispatcher from the second call
            same(j(a), f(a))


@pytest.mark.parametrize("f", [eig_stack, eigvals_stack])
def test_stacks_fall_back(f):
    a = np.random.default_rng(6).standard_normal((2, 3, 3))
    with pytest.warns(HanaJitFallbackWarning, match="3-D"):
        got = jit(f)(a)
    same(got, f(a))


def test_a_function_that_writes_its_argument():
    # real eigenvalues: the compiled result (such a call is never re-run in the
    # interpreter); complex ones cannot be re-run in the interpreter
    from hanajit.errors import UnsupportedError
    f = jit(eig_writes, fallback=False)
    rng = np.random.default_rng(7)
    for kind, dtype in (("symmetric", np.float64), ("triangular", np.float64),
                        ("symmetric", np.float32), ("random", np.complex128)):
        for n in (1, 3, 20):
            a = matrix(rng, n, dtype, kind)
            want = eig_writes(a.copy())
            same(f(a), want)
    with pytest.raises(UnsupportedError, match="complex eigenvalues"):
        f(np.array([[0.0, -1.0], [1.0, 0.0]]))
