"""``np.linalg.norm(x)`` (``axis=None``; ``ord`` None, ``'fro'`` of a matrix, 2 of
a vector) is ``sqrt(x.dot(x))`` of ``x.ravel(order='K')`` in NumPy: a BLAS dot,
whose order of additions is BLAS's own.  The compiled norm calls the same dot on
the same elements in the same order (``statistics/var_std_norm._dot_norm``), so
its value is NumPy's bit for bit -- an in-order sum of squares differed in the
last bits on most arrays."""
import numpy as np
import pytest

from hanajit import jit


def norm(a):
    return np.linalg.norm(a)


def norm_kept(a):
    return np.linalg.norm(a, keepdims=True)


def frobenius(a):
    return np.linalg.norm(a, "fro")


def two(a):
    return np.linalg.norm(a, 2)


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True), (got, want)


def data(dtype, n, rng):
    kind = np.dtype(dtype).kind
    if kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    if kind == "b":
        return rng.integers(0, 2, n).astype(dtype)
    return (rng.standard_normal(n) * 100).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64,
                                   np.int64, np.int32, np.uint8, np.bool_])
def test_bit_for_bit_in_every_layout(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    f, fk, ff, f2 = (jit(g, fallback=False) for g in (norm, norm_kept, frobenius, two))
    for n in (0, 1, 2, 7, 64, 1000, 2999):
        a = data(dtype, n, rng)
        for v in (a, a[::2], a[::-1], a[::-3]):
            same(f(v), np.linalg.norm(v))
            same(f2(v), np.linalg.norm(v, 2))
        m = a[: n - n % 6].reshape(-1, 6)
        for v in (m, m.T, m[::2], m[:, ::2], m[::-1], m.T[::-1], m[:, :1]):
            same(f(v), np.linalg.norm(v))
            same(fk(v), np.linalg.norm(v, keepdims=True))
            same(ff(v), np.linalg.norm(v, "fro"))
        c = a[: n - n % 12].reshape(-1, 3, 4)
        for v in (c, np.asfortranarray(c)):
            same(f(v), np.linalg.norm(v))


def test_an_in_order_sum_would_differ():
    """The check above is not vacuous: on these arrays the squares added in order
    give another last bit than NumPy's norm."""
    rng = np.random.default_rng(7)
    g = jit(norm, fallback=False)
    differs = 0
    for _ in range(20):
        a = rng.standard_normal(3001)
        same(g(a), np.linalg.norm(a))
        total = 0.0
        for x in a:
            total += x * x
        differs += np.sqrt(total) != np.linalg.norm(a)
    assert differs > 5


def test_other_strided_arrays_fall_back_with_the_reason():
    from hanajit.errors import HanaJitFallbackWarning
    a = np.arange(60.0).reshape(3, 4, 5)[:, ::2]
    with pytest.warns(HanaJitFallbackWarning, match="neither C- nor F-contiguous"):
        assert jit(norm)(a) == np.linalg.norm(a)
