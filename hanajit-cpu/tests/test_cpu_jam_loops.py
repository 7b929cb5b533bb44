"""Unroll-and-jam (passes/jam_loops.py): four iterations of an outer loop whose
inner loops accumulate floats run side by side, each adding its own values in its
own order -- so every result is CPython's to the bit, for every size, remainder
and overlap of the arrays -- and loops where an iteration could see another's work
are left as they are."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted
from hanajit.ir import nodes as N
from hanajit.pipeline import compile_ir
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.loop_kernels import blur_clamped, calling, conv3
from hanajit.typing_rules import typeof
from hypothesis import given, settings
from hypothesis import strategies as st

blur = calling(blur_clamped, jit)


def matmul_into(a, b, c):
    """``c`` is an argument: it may share memory with ``a`` or ``b``."""
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            c[i, j] = s
    return c


def in_place_rows(x):
    """Each element of a row is computed from the whole row, the elements before
    it already replaced: stored and read in one array."""
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            s = 0.0
            for k in range(x.shape[1]):
                s += x[i, k] * (j + 1)
            x[i, j] = s * 0.125
    return x


def carried(x, m):
    """``s`` flows from one iteration to the next."""
    s = 1.0
    out = np.empty(m)
    for j in range(m):
        s = s * 0.5
        for k in range(x.shape[0]):
            s += x[k] * j
        out[j] = s
    return out


def live_after(x, m):
    out = np.empty(m)
    s = -1.0
    for j in range(m):
        s = 0.0
        for k in range(x.shape[0]):
            s += x[k] / (j + 1)
        out[j] = s
    return out, s


def triangle(x):
    """The inner count depends on the outer counter: not one loop for four."""
    out = np.empty(x.shape[0])
    for j in range(x.shape[0]):
        s = 0.0
        for k in range(j):
            s += x[k] * x[j - k]
        out[j] = s
    return out


def triangle_outer(x):
    """Jammed at ``j``: the inner count depends on ``i``, which ``j`` does not change."""
    n = x.shape[0]
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(i):
                s += x[j] * k - 0.25 * s
            out[i, j] = s
    return out


def branchy(x, m):
    out = np.empty(m)
    for j in range(m):
        s = 0.0
        for k in range(x.shape[0]):
            s += x[k] * (j - 2.5)
        if s > 0.0:
            out[j] = s
        else:
            out[j] = -s * 0.5
    return out


def two_stores(x, m):
    out = np.zeros(m + 1)
    for j in range(m):
        s = 0.0
        for k in range(x.shape[0]):
            s += x[k] * j
        out[j] = s
        out[j + 1] = -s
    return out


def loop_under_if(x, m):
    """Iterations run the inner loop or not: no one loop serves four."""
    out = np.empty(m)
    for j in range(m):
        s = 0.0
        if j % 3 != 1:
            for k in range(x.shape[0]):
                s += x[k] * j
        out[j] = s
    return out


def distances(A, B, W):
    """A fused sum in the body (its leaf-or-tree choice is an ``If`` around loops)."""
    D = np.empty((A.shape[1], B.shape[1]))
    for i in range(A.shape[1]):
        for j in range(B.shape[1]):
            D[i, j] = np.sqrt((((A[:, i] - B[:, j]) / W[:, i]) ** 2).sum())
    return D


def matvec(m, v):
    out = np.zeros(m.shape[0])
    for i in range(m.shape[0]):
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j] * v[j]
        out[i] = s
    return out


def reads_behind(x, m):
    """Iteration ``j`` reads what ``j - 1`` stored, through another name for the
    new array: not provably other memory, so the overlap test runs the loop as
    written."""
    out = np.zeros(m)
    view = out[:]
    for j in range(1, m):
        s = 0.0
        for k in range(x.shape[0]):
            s += x[k] * view[j - 1] + 1.0
        out[j] = s
    return out


def _kernel_loops(fn, *args, options=None):
    module, _ = compile_ir(fn, tuple(typeof(a) for a in args), options or {})
    return [s for f in module.functions.values() for s in N.walk_stmts(f.body)
            if isinstance(s, N.ForCount) and getattr(s, "jammed", False)]


rng = np.random.default_rng(7)
pytestmark = pytest.mark.filterwarnings("error::hanajit.errors.HanaJitFallbackWarning")


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (3, 5), (4, 4), (5, 7), (9, 13),
                                   (2, 17)])
@pytest.mark.parametrize("ksize", [(1, 1), (3, 3), (5, 5), (2, 4)])
def test_convolution_every_remainder(shape, ksize):
    img, k = rng.standard_normal(shape), rng.standard_normal(ksize)
    assert_same_bits(jitted(blur)(img, k), blur(img, k))


def test_convolution_is_jammed():
    img, k = rng.random((8, 8)), rng.random((3, 3))
    assert _kernel_loops(blur, img, k), "the convolution's j loop is not jammed"


def test_matmul_into_an_argument_is_guarded():
    """``c`` may overlap ``a``: the jam runs behind a test that it does not, and
    the loop as written runs when it does."""
    a, b = rng.standard_normal((6, 5)), rng.standard_normal((5, 7))
    f = jit(matmul_into)
    assert_same_bits(f(a, b, np.empty((6, 7))), matmul_into(a, b, np.empty((6, 7))))
    assert _kernel_loops(matmul_into, a, b, np.empty((6, 7)))
    # c is a: a's elements are overwritten while later columns still read them
    buf, b = rng.standard_normal((6, 6)), np.eye(6) * 0.5 + 0.1
    mine, base = buf.copy(), buf.copy()
    got = f(mine, b, mine)
    assert got is mine
    assert_same_bits(got, matmul_into(base, b, base))
    # c a shifted view of b
    big = rng.standard_normal((8, 9))
    mine, base = big.copy(), big.copy()
    a = rng.standard_normal((5, 6))
    assert_same_bits(f(a, mine[:6, :7], mine[1:6, 2:9]),
                     matmul_into(a, base[:6, :7], base[1:6, 2:9]))
    assert_same_bits(mine, base)


@pytest.mark.parametrize("fn, args", [
    (in_place_rows, lambda: (rng.standard_normal((5, 6)),)),
    (carried, lambda: (rng.standard_normal(7), 9)),
    (live_after, lambda: (rng.standard_normal(7), 8)),
    (triangle, lambda: (rng.standard_normal(11),)),
    (two_stores, lambda: (rng.standard_normal(5), 10)),
    (loop_under_if, lambda: (rng.standard_normal(5), 10)),
    (conv3, lambda: (rng.standard_normal((7, 9)), rng.standard_normal((3, 3)))),
    (distances, lambda: (rng.random((16, 5)), rng.random((16, 6)), rng.random((16, 5)) + .5)),
])
def test_dependent_iterations_are_not_jammed(fn, args):
    a = args()
    want = fn(*[x.copy() if isinstance(x, np.ndarray) else x for x in a])
    assert_same_bits(jit(fn)(*a), want)
    assert not _kernel_loops(fn, *a)


@pytest.mark.parametrize("fn, args", [
    (triangle_outer, lambda: (rng.standard_normal(9),)),
    (branchy, lambda: (rng.standard_normal(6), 11)),
])
def test_jammed_with_uniform_counts_and_branches(fn, args):
    a = args()
    assert _kernel_loops(fn, *a)
    assert_same_bits(jit(fn)(*a), fn(*a))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 9), m=st.integers(0, 11), kn=st.integers(1, 4),
       km=st.integers(1, 4),
       special=st.lists(st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308,
                                         -1e308, 5e-324]), max_size=4),
       seed=st.integers(0, 2**16))
def test_convolution_special_values(n, m, kn, km, special, seed):
    g = np.random.default_rng(seed)
    img, k = g.standard_normal((n, m)), g.standard_normal((kn, km))
    flat = img.reshape(-1)
    for v, at in zip(special, g.integers(0, max(flat.size, 1), len(special))):
        if flat.size:
            flat[at] = v
    assert_same_bits(jitted(blur)(img, k), blur(img, k))


@pytest.mark.parametrize("options", [{"fastmath": True}, {"reduce_reassoc": True}])
def test_reorderable_sums_are_left_to_llvm(options):
    """Where the sum may be reordered, LLVM vectorises the inner loop itself."""
    m, v = rng.standard_normal((6, 9)), rng.standard_normal(9)
    assert _kernel_loops(matvec, m, v)
    assert not _kernel_loops(matvec, m, v, options=options)
    got = jit(matvec, **options)(m, v)
    np.testing.assert_allclose(got, matvec(m, v), rtol=1e-12)


@pytest.mark.parametrize("rows", [0, 1, 3, 4, 5, 8, 11])
def test_matvec_rows(rows):
    m, v = rng.standard_normal((rows, 13)), rng.standard_normal(13)
    assert_same_bits(jitted(matvec)(m, v), matvec(m, v))


def test_a_second_name_for_a_new_array_is_guarded():
    x = rng.standard_normal(3) * 0.1
    assert _kernel_loops(reads_behind, x, 10)
    for m in (1, 2, 5, 9, 12):
        assert_same_bits(jitted(reads_behind)(x, m), reads_behind(x, m))
