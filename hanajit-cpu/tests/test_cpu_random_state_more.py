"""More ``np.random.RandomState`` methods and legacy functions: ``multinomial`` and
``dirichlet`` (on an argument, one made in the function and the global state),
``tomaxint`` and ``random_integers``, the order of ``randint``'s/``integers``'
errors -- NumPy's values bit for bit, its errors,
the states after (``test_cpu_random_state.compare``), many seeds and shapes.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.dispatch_modes import jitted
from hanajit.testing.random_pairs import same
from hanajit.testing.sourcefile import load_sibling
from hypothesis import given, settings
from hypothesis import strategies as st

base = load_sibling(__file__, "test_cpu_random_state.py", "hanajit_test_random_state")
compare, outcome, state = base.compare, base.outcome, base.state


def vectors(rs, n, p, alpha, size):
    return (rs.multinomial(n, p, size), rs.dirichlet(alpha, size), rs.multinomial(n, p),
            rs.dirichlet(alpha), np.random.multinomial(n, p, size),
            np.random.dirichlet(alpha, size), rs.multinomial(n, (0.25, 0.5)),
            rs.dirichlet((0.05, 0.01, 3)), rs.randn())


JIT_VECTORS = jit(vectors)


def probabilities(draw, k):
    """``k`` probabilities summing to about 1 (the last ignored by NumPy)."""
    w = np.array(draw(st.lists(st.floats(0.0, 1.0), min_size=k, max_size=k)) + [1e-3])
    return w / w.sum()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(0, 2000), k=st.integers(1, 6),
       size=st.sampled_from([None, 0, 1, 3, (2, 2), (0, 3)]),
       kind=st.sampled_from(["MT19937", "PCG64"]), data=st.data())
def test_multinomial_and_dirichlet_many_seeds(seed, n, k, size, kind, data):
    p = probabilities(data.draw, k)
    alpha = np.array(data.draw(st.lists(st.floats(0.001, 50.0), min_size=k, max_size=k)))
    compare(JIT_VECTORS, vectors, seed, n, p, alpha, size, kind=kind, cached=seed % 2 == 1)


def edges(rs, n, p, alpha, size):
    return rs.dirichlet(alpha, size), rs.multinomial(n, p, size)


@pytest.mark.parametrize("n, p, alpha, size", [
    (5, np.array([0.5, 0.6]), np.array([1.0]), 2),          # p > 1 (the last too)
    (5, np.array([0.5, np.nan]), np.array([1.0]), 2),
    (5, np.array([0.7, 0.6, 0.0]), np.array([1.0]), 2),     # sum(pvals[:-1]) > 1
    (-1, np.array([0.5, 0.5]), np.array([1.0]), 2),         # n < 0 after the array
    (-1, np.array([0.5, 0.5]), np.array([1.0]), -2),        # the size first
    (3, np.array([]), np.array([]), 3),                     # no items: no error
    (-3, np.array([]), np.array([]), 3),
    (3, np.array([1, 0]), np.array([0.0, 1.0]), 3),         # alpha <= 0
    (3, np.array([1, 0]), np.array([-0.0, 1.0]), 3),
    (3, np.array([1.0]), np.array([np.inf, 1.0]), 3),
    (3, np.array([0.0, 1.0]), np.array([1e-300, 1e-300]), (2, 1))])  # 1 / 0
def test_vector_errors_and_edges_are_numpys(mode, n, p, alpha, size):
    compare(jitted(edges), edges, 7, n, p, alpha, size)


def made_inside(seed, n, p):
    rs = np.random.RandomState(seed)
    return rs.multinomial(n, p, 4), rs.dirichlet(p + 0.5, 3), rs.random()


def test_multinomial_and_dirichlet_made_in_the_function():
    p = np.array([0.125, 0.375, 0.5])
    for seed in (0, 1, 99):
        assert same(jit(made_inside)(seed, 30, p), made_inside(seed, 30, p))


def float32_pvals(rs, p):
    return rs.multinomial(3, p)


def test_float32_pvals_fall_back():
    p = np.array([0.5, 0.5], np.float32)
    with pytest.warns(HanaJitFallbackWarning, match="RandomState method multinomial"):
        got = jit(float32_pvals)(np.random.RandomState(1), p)
    assert same(got, float32_pvals(np.random.RandomState(1), p))


def unsupported(rs):
    return rs.bytes(4)


def test_fallback_names_a_randomstate_method():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jit(unsupported)(np.random.RandomState(2))
    text = " ".join(str(w.message) for w in caught)
    assert "RandomState method" in text and "generator method" not in text


def integers(rs, low, high, size):
    return (rs.tomaxint(), rs.tomaxint(size), rs.random_integers(low, high),
            rs.random_integers(high), rs.random_integers(low, high, size),
            np.random.random_integers(low, high, size), rs.random())


def warned(f, *args):
    """``f``'s outcome and the DeprecationWarnings' messages."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = outcome(f, *args)
    return got, [str(w.message) for w in caught if w.category is DeprecationWarning]


@pytest.mark.parametrize("low, high, size", [
    (0, 5, 3), (-3, 3, (2, 2)), (5, 3, 0), (5, 3, (2, 0)), (5, 3, -1), (0, -1, 3),
    (0, 0, 2), (-2**63, 2**63 - 1, 3), (1, 2**63 - 1, 2), (0, 5, -1), (7, 1 << 40, 4),
    (np.int32(-4), np.int8(9), np.int64(3))])
def test_tomaxint_and_random_integers(mode, low, high, size):
    jf = jitted(integers)
    for seed in (0, 1, 2**31 - 1):
        a, b = np.random.RandomState(seed), np.random.RandomState(seed)
        np.random.seed(seed)
        got, got_warnings = warned(jf, a, low, high, size)
        got_global = state(np.random.mtrand._rand)
        np.random.seed(seed)
        want, want_warnings = warned(integers, b, low, high, size)
        assert got[0] == want[0] and (same(got[1], want[1]) if got[0] == "ok"
                                      else got == want), (got, want)
        assert got_warnings == want_warnings
        assert state(a) == state(b) and got_global == state(np.random.mtrand._rand)


def one_integer(rs, high):
    return rs.random_integers(high)


def test_random_integers_deprecation_as_an_error_raises_it():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(DeprecationWarning, match=r"randint\(1, 5 \+ 1\)"):
            jit(one_integer)(np.random.RandomState(1), 5)


def bounded(rs, rng, low, high, size):
    return (outcome(rs.randint, low, high, size), outcome(rs.randint, low, high, size, np.int8),
            outcome(rs.randint, low, high, size, np.uint64),
            outcome(rng.integers, low, high, size), outcome(rng.integers, low, high, size,
                                                           np.int16))


def bounded_jit(rs, rng, low, high, size):
    return tuple(outcome(f, r, low, high, size) for f, r in (
        (JIT_RANDINT, rs), (JIT_RANDINT8, rs), (JIT_RANDINT_U, rs), (JIT_INTEGERS, rng),
        (JIT_INTEGERS16, rng)))


JIT_RANDINT = jit(lambda rs, low, high, size: rs.randint(low, high, size))
JIT_RANDINT8 = jit(lambda rs, low, high, size: rs.randint(low, high, size, np.int8))
JIT_RANDINT_U = jit(lambda rs, low, high, size: rs.randint(low, high, size, np.uint64))
JIT_INTEGERS = jit(lambda rng, low, high, size: rng.integers(low, high, size))
JIT_INTEGERS16 = jit(lambda rng, low, high, size: rng.integers(low, high, size, np.int16))


@pytest.mark.parametrize("low, high", [(5, 3), (0, 0), (-1000, 5), (-1, 3), (3, 3)])
@pytest.mark.parametrize("size", [-1, (2, -1), (0, -1), 0, (2, 0)])
def test_bound_errors_come_before_negative_dimensions(low, high, size):
    """``_rand_<type>``: an empty size returns at once, else the bounds are checked
    before the array (with its negative dimensions) is made."""
    got = bounded_jit(np.random.RandomState(1), np.random.default_rng(1), low, high, size)
    want = bounded(np.random.RandomState(1), np.random.default_rng(1), low, high, size)
    assert [g[0] for g in got] == [w[0] for w in want]
    assert all(same(g[1], w[1]) if g[0] == "ok" else g == w for g, w in zip(got, want))
