"""List and tuple displays where NumPy takes an array (``np.take(a, [0, 2])``,
``np.isin(x, [1, 2])``, ``np.digitize(x, bins=[0, 1])``, ``np.polyval([1, 2], x)``,
``np.interp(x, [0, 1], [2, 3])``, ``a.take([3, 1])``): read as ``np.asarray`` of the
display (``registry.sequences_as_arrays``), compiled, NumPy's values and types."""
import numpy as np
import pytest

from hanajit import jit

X = np.linspace(-2, 9, 12)
X32 = X.astype(np.float32)
I8 = np.arange(10, dtype=np.int8)

CASES = [
    (lambda a: np.take(a, [0, 2, -1]), X),
    (lambda a: a.take([3, 1]), X),
    (lambda a: np.take(a, (1, 1)), X32),
    (lambda a: np.isin(a, [1.0, 2.0, 5.0]), X),
    (lambda a: np.isin(a, [1, 2, 300]), I8),
    (lambda a: np.isin([1, 2, 7], a), I8),
    (lambda a: np.digitize(a, [0.0, 2.5, 5.0]), X),
    (lambda a: np.digitize(a, [0, 3]), X32),
    (lambda a: np.digitize(a, bins=[1, 2], right=True), I8),
    (lambda a: np.polyval([1.0, -2.0, 0.5], a), X),
    (lambda a: np.polyval([1, 2], a), X32),
    (lambda a: np.polyval([3, 1], a), I8),
    (lambda a: np.polyval([3, 1], a[2]), I8),
    (lambda a: np.interp(a, [0.0, 1.0, 5.0], [10.0, 0.0, 2.0]), X),
    (lambda a: np.interp(a, (0, 4), (1, 3)), X32),
    (lambda a: np.interp(2.5, [0.0, 5.0], [0.0, 1.0]) + a[0], X),
]


@pytest.mark.parametrize("k", range(len(CASES)))
def test_displays_are_read_as_arrays(k):
    fn, a = CASES[k]
    want = fn(a)
    got = jit(fn, fallback=False)(a)
    assert type(got) is type(want)
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def test_index_errors_as_numpy():
    fn = jit(lambda a: np.take(a, [0, 40]), fallback=False)
    with pytest.raises(IndexError):
        fn(X)
    with pytest.raises(IndexError):
        np.take(X, [0, 40])
