"""Loop versioning inside a versioned nest (passes/version_bounds.py): the checks the
outer nest's test cannot prove -- an inner loop whose count is an outer counter,
``for i in range(k)`` -- are proven by a test per inner nest, where the count is
invariant (Levinson-Durbin, Cholesky).  Results and IndexErrors stay CPython's."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit
from hanajit.ir import nodes as N


def levinson_like(r, y, z):
    n = r.shape[0]
    for k in range(1, n):
        y[k] = r[k] + y[k - 1]
        for i in range(k):
            z[i] = y[i] + 0.5 * y[k - i - 1]
        for i in range(k):
            y[i] = z[i]
    return y


def cholesky_like(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            for k in range(j):
                A[i, j] -= A[i, k] * A[j, k]
            A[i, j] /= A[j, j]
        for k in range(i):
            A[i, i] -= A[i, k] * A[i, k]
        A[i, i] = np.sqrt(A[i, i])
    return A


LEV, CHOL = jit(levinson_like, fallback=False), jit(cholesky_like, fallback=False)


def _fast_raises(body) -> int:
    """IndexError raises of ``body``, the general copies of versioned nests left out
    (only their fast copies are followed)."""
    n = 0
    for s in body:
        if isinstance(s, N.Raise) and s.exc is IndexError:
            n += 1
        if isinstance(s, N.If) and getattr(s, "versioned", False):
            n += _fast_raises(s.then)
            continue
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                n += _fast_raises(sub)
    return n


def _unchecked_inner_loops(f) -> bool:
    """The fast copies, all the way down, raise no IndexError."""
    fn = f.ir_module().functions[f.ir_module().entry]
    outer = next(s for s in fn.body if getattr(s, "versioned", False))
    return _fast_raises([outer]) == 0


def _outcome(f, g, *args):
    a1 = [a.copy() for a in args]
    a2 = [a.copy() for a in args]
    try:
        want = f(*a1)
    except IndexError as exc:
        with pytest.raises(IndexError, match=str(exc).split(" is ")[0]):
            g(*a2)
        for x, y in zip(a1, a2):          # what ran before the error, too
            assert x.tobytes() == y.tobytes()
        return
    got = g(*a2)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("n, ny, nz", [(12, 12, 12), (1, 1, 1), (0, 0, 0), (9, 9, 8),
                                       (9, 6, 9), (5, 9, 3)])
def test_levinson_like(n, ny, nz):
    rng = np.random.default_rng(n)
    r = rng.random(n) * 0.1
    _outcome(levinson_like, LEV, r, np.zeros(ny), np.zeros(nz))


def test_levinson_inner_loops_unchecked():
    LEV(np.ones(4), np.zeros(4), np.zeros(4))
    assert _unchecked_inner_loops(LEV)


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_cholesky_like(n):
    m = np.random.default_rng(n).random((n, n))
    spd = m @ m.T + n * np.eye(n)
    _outcome(cholesky_like, CHOL, spd)
    _outcome(cholesky_like, CHOL, np.asfortranarray(spd))
    big = np.random.default_rng(9).random((2 * n + 1, 2 * n + 1)) + 3 * np.eye(2 * n + 1)
    _outcome(cholesky_like, CHOL, big[::2, ::2])


def test_cholesky_inner_loops_unchecked():
    CHOL(np.eye(3))
    assert _unchecked_inner_loops(CHOL)
