"""np.linalg.eigh, np.linalg.svd (U, S, Vh) and np.linalg.qr against NumPy, bit for
bit: the same LAPACK functions of NumPy's own OpenBLAS (?syevd/?heevd, ?gesdd,
?geqrf + ?orgqr/?ungqr) on the same Fortran-ordered float64/complex128 copies.
Dtypes, C/Fortran/strided/reversed inputs, sizes 0 to 40 (LAPACK's blocked and
divide-and-conquer paths), tall and wide matrices, NaN and infinities, the named
tuples' unpacking, indexing and fields, and the errors and fallbacks."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.lib.linalg import lapack
from hanajit.testing.dispatch_modes import jitted
from hanajit.testing.sourcefile import run_twice_cached

pytestmark = pytest.mark.skipif(not lapack.available("dgeqrf"),
                                reason="NumPy's LAPACK is not its wheels' OpenBLAS")


def eigh(a):
    w, v = np.linalg.eigh(a)
    return w, v


def eigh_upper(a):
    r = np.linalg.eigh(a, UPLO="U")
    return r.eigenvalues, r.eigenvectors


def eigh_vectors(a):
    return np.linalg.eigh(a, "u")[1]


def svd(a):
    u, s, vh = np.linalg.svd(a)
    return u, s, vh


def svd_reduced(a):
    r = np.linalg.svd(a, full_matrices=False)
    return r.U, r.S, r.Vh, r[1]


def qr(a):
    q, r = np.linalg.qr(a)
    return q, r


def qr_complete(a):
    res = np.linalg.qr(a, mode="complete")
    return res.Q, res.R


def qr_r(a):
    return np.linalg.qr(a, "r")


def slogdet(a):
    sign, logabsdet = np.linalg.slogdet(a)
    return sign, logabsdet


def slogdet_fields(a):
    r = np.linalg.slogdet(a)
    return r.sign, r.logabsdet, r[0] * 2.0


def rebuilt(a):
    # the factors used inside a kernel
    u, s, vh = np.linalg.svd(a, False)
    q, r = np.linalg.qr(a)
    return (u * s) @ vh, q @ r


ALL = (eigh, eigh_upper, eigh_vectors, svd, svd_reduced, qr, qr_complete, qr_r, slogdet,
       slogdet_fields)
FUNCS = {f.__name__: jit(f, fallback=False) for f in ALL}
PLAIN = {f.__name__: f for f in ALL}


def same(got, want):
    """Equal bits, except that a NaN matches any NaN (which NaN an operation on a
    NaN returns is not promised)."""
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape or g.dtype != w.dtype:
        return False
    return g.tobytes() == w.tobytes() or np.array_equal(g, w, equal_nan=True)


def outcome(f, a):
    with np.errstate(all="ignore"):
        try:
            r = f(a)
        except Exception as exc:                    # noqa: BLE001
            return type(exc).__name__, str(exc)
    return "ok", r if isinstance(r, tuple) else (r,)


def compare(name, a):
    want = outcome(PLAIN[name], np.copy(a))
    got = outcome(FUNCS[name], a)
    if want[0] != "ok" or got[0] != "ok":
        assert got == want
        return
    assert len(got[1]) == len(want[1])
    for g, w in zip(got[1], want[1]):
        assert type(g) is type(w)                    # (slogdet: NumPy scalars)
        assert same(g, w), (name, a.dtype, a.shape, g, w)
        assert np.asarray(g).flags.c_contiguous == np.asarray(w).flags.c_contiguous


def matrix(rng, n, m, dtype):
    if np.dtype(dtype).kind == "c":
        x = rng.standard_normal((n, m)) + 1j * rng.standard_normal((n, m))
    elif np.dtype(dtype).kind == "b":
        x = rng.random((n, m)) < 0.6
    elif np.dtype(dtype).kind in "iu":
        x = rng.integers(0, 9, (n, m))
    else:
        x = rng.standard_normal((n, m))
    return x.astype(dtype)


DTYPES = [np.float64, np.float32, np.int64, np.uint8, np.bool_, np.complex128,
          np.complex64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_dtypes_and_sizes(dtype):
    rng = np.random.default_rng(1)
    for n in (0, 1, 2, 5, 40):
        a = matrix(rng, n, n, dtype)
        for name in ("eigh", "eigh_upper", "eigh_vectors", "slogdet", "slogdet_fields"):
            compare(name, a)                         # (the other triangle is ignored)
            compare(name, a + a.T.conj() if dtype != np.bool_ else a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_svd_and_qr_dtypes_and_shapes(dtype):
    rng = np.random.default_rng(2)
    for shape in ((0, 0), (0, 3), (3, 0), (1, 1), (4, 4), (7, 3), (3, 7), (40, 25)):
        a = matrix(rng, *shape, dtype)
        for name in ("svd", "svd_reduced", "qr", "qr_complete", "qr_r"):
            compare(name, a)


def test_layouts():
    rng = np.random.default_rng(3)
    base = rng.standard_normal((12, 10))
    sym = base[:10] + base[:10].T
    for a in (np.asfortranarray(base), base[::2, ::-1], base[::-1], base.T):
        for name in ("svd", "svd_reduced", "qr", "qr_complete", "qr_r"):
            compare(name, a)
    for a in (np.asfortranarray(sym), sym[::-1, ::-1], sym[::2, ::2], sym.T):
        for name in ("eigh", "eigh_upper", "slogdet"):
            compare(name, a)


def test_special_values_and_singular_matrices():
    for v in (np.nan, np.inf, -np.inf):
        a = np.eye(3)
        a[0, 1] = a[1, 0] = v
        for f in ALL:                     # NaN: "SVD did not converge"; else NaNs
            if v == v and f.__name__.startswith("svd"):
                # (NumPy's own ?gesdd with U and Vh never returns for this one)
                continue
            compare(f.__name__, a)
    a = np.array([[1.0, np.inf], [np.inf, 2.0]])
    for name in ("svd", "svd_reduced"):
        compare(name, a)
    a = np.ones((5, 4))                                 # rank 1
    for name in ("svd", "qr", "qr_complete", "eigh", "slogdet"):
        compare(name, a if name in ("svd", "qr", "qr_complete") else np.ones((4, 4)))
    compare("qr", np.array([[0.0, -0.0], [-0.0, 0.0]]))


def test_errors():
    for name in ("eigh", "eigh_upper", "slogdet"):
        compare(name, np.ones((2, 3)))      # LinAlgError: ... must be square
        compare(name, np.ones((0, 3)))


def test_factors_inside_a_kernel():
    a = np.random.default_rng(5).standard_normal((6, 4))
    got, want = jit(rebuilt, fallback=False)(a), rebuilt(a)
    for g, w in zip(got, want):
        assert same(g, w)


def svd_result(a):
    return np.linalg.svd(a)


def eigh_pair(a):
    return np.linalg.eigh(a), 1


def qr_raw(a):
    return np.linalg.qr(a, "raw")


def svd_hermitian(a):
    return np.linalg.svd(a, hermitian=True)[1]


def eigh_stack(a):
    return np.linalg.eigh(a)[0]


def slogdet_result(a):
    return np.linalg.slogdet(a)


def qr_and_eigh(a):
    return np.linalg.qr(a), (np.linalg.eigh(a), 2.5)


def same_result(got, want):
    """Same type at every level (NumPy's named tuples included), same bits."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same_result(g, w)
    else:
        assert same(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("f", [svd_result, eigh_pair, slogdet_result, qr_and_eigh])
def test_returned_named_tuples_are_numpys(f, mode):
    a = np.random.default_rng(3).standard_normal((4, 4))
    a = a + a.T
    j = jitted(f)
    for _ in range(3):              # the native dispatcher from the second call
        same_result(j(a), f(a))


def test_returned_named_tuples_from_the_disk_cache(tmp_path):
    src = """
import numpy as np
from hanajit import cache, jit

@jit(cache=True, fallback=False)
def f(a):
    return np.linalg.eigh(a), np.linalg.slogdet(a)

a = np.eye(3) * 2.0
r = f(a)
w = (np.linalg.eigh(a), np.linalg.slogdet(a))
assert type(r[0]) is type(w[0]) and type(r[1]) is type(w[1]), r
assert all(x.tobytes() == y.tobytes() for x, y in zip(r[0], w[0]))
print(type(r[0]).__name__, type(r[1]).__name__, cache.stats["hits"])
"""
    first, second = run_twice_cached(tmp_path, src, "named_results", "test-cpu-named")
    assert first == "EighResult SlogdetResult 0"
    assert second == "EighResult SlogdetResult 1"


@pytest.mark.parametrize("f, words", [(qr_raw, "mode"),
    (svd_hermitian, "hermitian"), (eigh_stack, "3-D")])
def test_fallbacks_give_numpys_result(f, words):
    a = np.eye(3) if f is not eigh_stack else np.ones((2, 3, 3))
    with pytest.warns(HanaJitFallbackWarning, match=words):
        got = jit(f)(a)
    want = f(a)
    assert type(got) is type(want)
    if isinstance(want, tuple) and hasattr(want, "_fields"):
        for g, w in zip(got, want):
            assert same(g, w)


def cond(a):
    return np.linalg.cond(a)


def cond_minus_2(a):
    return np.linalg.cond(a, -2)


@pytest.mark.parametrize("f", [cond, cond_minus_2])
def test_cond(f):
    jf = jit(f, fallback=False)
    rng = np.random.default_rng(6)
    cases = [matrix(rng, 5, 5, d) for d in DTYPES] + [
        rng.standard_normal((3, 6)), rng.standard_normal((6, 3))[::-1], np.ones((3, 3)),
        np.zeros((3, 3)), np.array([[np.nan, 1.0], [1.0, 1.0]]),
        np.array([[np.inf, 1.0], [1.0, 1.0]]), np.array([[1e-300, 0.0], [0.0, 1e300]]),
        np.zeros((0, 3)), np.zeros((0, 0))]
    for a in cases:
        want = outcome(f, np.copy(a))
        got = outcome(jf, a)
        if want[0] != "ok":                 # LinAlgError: empty, or NaN in the SVD
            assert got == want
        else:
            assert type(got[1][0]) is type(want[1][0]) and same(got[1][0], want[1][0])


def cond_fro(a):
    return np.linalg.cond(a, "fro")


def test_cond_other_norms_fall_back():
    with pytest.warns(HanaJitFallbackWarning, match="p must be one of"):
        assert jit(cond_fro)(np.eye(2) * 2) == np.linalg.cond(np.eye(2) * 2, "fro")


def test_blocked_lapack_paths():
    # ?geqrf/?orgqr blocks of 32 columns, ?gesdd's and ?syevd's larger paths: the
    # workspace NumPy asks for decides them
    rng = np.random.default_rng(7)
    for shape in ((100, 70), (70, 100)):
        a = rng.standard_normal(shape)
        for x in (a, a + 1j * rng.standard_normal(shape)):
            for name in ("svd_reduced", "qr", "qr_complete"):
                compare(name, x)
    a = rng.standard_normal((130, 130))
    compare("eigh", a + a.T)
