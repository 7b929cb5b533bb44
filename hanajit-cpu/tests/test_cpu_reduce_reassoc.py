"""@jit(reduce_reassoc=True): only float reduction accumulators may be reordered."""
import numpy as np
import pytest

from hanajit import jit

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]


def loop_sum(x):
    acc = 0.0
    for i in range(len(x)):
        acc += x[i]
    return acc


def int_sum(x):
    acc = 0
    for v in x:
        acc += v
    return acc


def prefix_sums(x, out):
    acc = 0.0
    for i in range(len(x)):
        acc = acc + x[i]
        out[i] = acc             # acc is read again: a prefix sum, must stay in order
    return acc


def library(x):
    return np.sum(x * 2.0), np.mean(x), np.dot(x, x)


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100_003])
def test_float_sums_within_numpy_tolerance(n):
    x = np.random.default_rng(n).random(n)
    got = jit(loop_sum, reduce_reassoc=True, fallback=False)(x)
    assert got == pytest.approx(np.sum(x), rel=1e-12, abs=1e-12)
    for g, e in zip(jit(library, reduce_reassoc=True, fallback=False)(x), library(x)):
        assert g == pytest.approx(e, rel=1e-12, abs=1e-12) or (np.isnan(g) and np.isnan(e))


def test_integer_reductions_stay_exact():
    x = np.random.default_rng(1).integers(-1000, 1000, 100_001)
    assert jit(int_sum, reduce_reassoc=True, fallback=False)(x) == int(x.sum())


def test_only_accumulators_are_marked():
    x = np.arange(10.0)
    f = jit(loop_sum, reduce_reassoc=True, fallback=False)
    f(x)
    assert "fadd reassoc <" in f.inspect_llvm()     # vectorized partial sums
    g = jit(prefix_sums, reduce_reassoc=True, fallback=False)
    out, ref = np.empty(10), np.empty(10)
    assert g(x, out) == prefix_sums(x, ref)       # bit-identical: nothing reordered
    assert np.array_equal(out, ref)
    assert "reassoc" not in g.inspect_llvm()
    h = jit(loop_sum, fallback=False)
    h(x)
    assert "reassoc" not in h.inspect_llvm()
    assert h(x) == loop_sum(x)
