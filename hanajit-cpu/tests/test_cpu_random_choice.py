"""``choice``, ``shuffle`` and ``permutation``: ``Generator`` methods and the
legacy ``np.random`` functions, compiled, against the interpreter.

Every form (``replace=False``, ``p=``, ``shuffle=``, rows of n-D arrays,
n-D shuffles and permutations) gives the interpreter's values, dtype and shape, raises its
errors with its messages, and leaves ``bit_generator.state`` /
``np.random.get_state()`` as the interpreter does.  Both dispatchers (the
``mode`` fixture) for the errors, ``p=``, shuffles and permutations; the sweeps
of every form (``*_forms``, ``*_nd_rows``) run once, with the default dispatcher:
what they add is the forms' code, which is the same under either.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.dispatch_modes import jitted

BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def plain(x):
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(plain(v) for v in x)
    if isinstance(x, np.ndarray):
        return (x.dtype.str, x.shape, x.tolist())
    return x


def outcome(f, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return ("ok", plain(f(*args)))
    except ValueError as exc:
        return ("raise", type(exc), str(exc))


def check(py, kind, seed, *args, repeat=2):
    """``py(rng, *args)`` compiled and interpreted from generators in the same
    state: the same results and exceptions, the same state after each call."""
    jf = jitted(py)
    bg = getattr(np.random, kind)
    a, b = np.random.Generator(bg(seed)), np.random.Generator(bg(seed))
    for _ in range(repeat):
        got, want = outcome(jf, a, *args), outcome(py, b, *args)
        assert got == want, (py.__name__, kind, seed, args, got, want)
        assert plain(a.bit_generator.state) == plain(b.bit_generator.state)
    return got


def check_legacy(py, seed, *args, calls=2):
    """``calls`` compiled calls after ``np.random.seed(seed)``, then the
    interpreter's: the same results and the same global state."""
    jf = jitted(py)
    np.random.seed(seed)
    got = [outcome(jf, *args) for _ in range(calls)]
    after = plain(np.random.get_state(legacy=False))
    np.random.seed(seed)
    want = [outcome(py, *args) for _ in range(calls)]
    assert got == want, (py.__name__, seed, args, got, want)
    assert after == plain(np.random.get_state(legacy=False))
    return got


def probabilities(n, seed=0, zeros=0.3, dtype=np.float64):
    rs = np.random.RandomState(seed + n)
    p = rs.random(n)
    p[rs.random(n) < zeros] = 0.0
    if p.sum() == 0:
        p[n // 2] = 1.0
    return (p / p.sum()).astype(dtype)


# -------------------------------------------------------------- Generator.choice
def choose(rng, a, size, replace, p, shuffle):
    return rng.choice(a, size, replace, p, shuffle=shuffle)


def choose_scalar(rng, a, replace, p):
    return rng.choice(a, replace=replace, p=p)


def choose_keywords(rng, a, size):
    return (rng.choice(a, size, replace=False), rng.choice(a, size, p=None),
            rng.choice(a, size=size, replace=False, shuffle=False))


P5 = probabilities(5)
SIZES = [None, 0, 1, 3, 5, (2, 2), (1, 0), (5, 1), ()]


@pytest.mark.parametrize("kind", BIT_GENERATORS)
@pytest.mark.parametrize("replace", [True, False])
def test_generator_choice_forms(kind, replace):
    for size in SIZES:
        for p in (None, P5):
            for a in (5, np.arange(10.0, 15.0)):
                if size is None:
                    check(choose_scalar, kind, 1, a, replace, p)
                else:
                    check(choose, kind, 2, a, size, replace, p, True)
    check(choose, kind, 3, 5, 5, replace, None, False)
    check(choose_keywords, kind, 4, 7, 4)
    # strided a and p
    check(choose, kind, 5, np.arange(20.0)[::4], 4, replace, np.repeat(P5, 2)[::2], True)


@pytest.mark.parametrize("seed", [0, 1, 7, 123456789])
@pytest.mark.parametrize("pop, size", [(1, 1), (2, 2), (10, 3), (100, 100), (1000, 17),
                                       (10001, 200), (20000, 399), (20000, 401),
                                       (20000, 1001), (30000, 30000)])
def test_generator_choice_without_replacement(seed, pop, size):
    # Floyd's algorithm, and the tail shuffle above 10000 items (the cut-off
    # differs with shuffle=False)
    for shuffle in (True, False):
        check(choose, "PCG64", seed, pop, size, False, None, shuffle, repeat=1)
    check(choose, "MT19937", seed, np.arange(pop, dtype=np.int32), size, False, None, True,
          repeat=1)


@pytest.mark.parametrize("replace", [True, False])
@pytest.mark.parametrize("p", [np.array([1.0]), np.array([0.0, 0.0, 1.0, 0.0]),
                               np.array([0.5, 0.0, 0.5, 0.0]), probabilities(50),
                               probabilities(9, dtype=np.float32),
                               np.array([1 - 1e-9, 1e-9]), np.full(7, 1 / 7)])
def test_generator_choice_with_p(mode, replace, p):
    n = len(p)
    for size in (1, n, 2 * n):
        check(choose, "PCG64", 5, n, size, replace, p, True)
        check(choose, "SFC64", 6, np.arange(n) * 2, size, replace, p, True)
    check(choose_scalar, "Philox", 7, n, replace, p)
    check(choose, "PCG64", 8, n, 0, replace, p, True)


@pytest.mark.parametrize("a, size, replace, p", [
    (0, 3, True, None), (-2, 1, True, None), (np.zeros(0), 2, True, None),
    (0, 0, True, None), (0, 0, False, None), (-3, 0, False, None), (np.zeros(0), 0, False, None),
    (3, 4, False, None), (3, (2, 2), False, None),
    (3, 2, True, np.array([0.5, 0.5])), (3, 2, True, np.array([0.5, 0.5, 0.5])),
    (2, 2, True, np.array([-0.5, 1.5])), (2, 2, True, np.array([np.nan, 1.0])),
    (2, 2, True, np.array([np.inf, 0.0])), (3, 2, True, np.array([np.inf, 0.0, 0.0])),
    (3, 3, False, np.array([0.0, 0.5, 0.5])), (3, 2, False, np.array([0.0, 0.5, 0.5])),
    (2, 1, True, np.array([0.5, 0.5 + 1e-7])), (2, 1, True, np.array([0.5, 0.5 + 1e-9])),
    (2, 1, True, np.array([0.5, 0.5 + 1e-4], np.float32)),
    (2, 1, True, np.array([0.5, 0.5 + 3.4e-4], np.float32)),
    (2, 1, True, np.array([0.5, 0.5 + 3.5e-4], np.float32)),
    (5, -1, True, None), (5, -1, False, None), (5, -1, False, P5),
    (5, (2, -1), True, None), (5, (2, -1), False, None), (5, (2, -1), True, P5),
    (5, (-1, -1), True, None), (5, (-1, -1), False, None), (5, (-1, -1), False, P5),
    (5, (0, -1), False, None), (5, (-1, 0), False, None), (5, (-1, 0), True, P5),
    (5, (2, 0, -1), False, None), (5, (-3, 0, 2), False, None), (5, (-1, 0, -1), False, None),
    (0, (0, -1), False, None), (0, (-1, -1), False, None)])
def test_generator_choice_errors(mode, a, size, replace, p):
    check(choose, "PCG64", 9, a, size, replace, p, True)
    check(choose, "MT19937", 10, a, size, replace, p, False)


def test_tolerances_are_numpys():
    from hanajit.lib.random import choice_algorithms as hc
    assert hc.ATOL64 == float(np.sqrt(np.finfo(np.float64).eps))
    assert hc.ATOL32 == float(np.sqrt(np.finfo(np.float32).eps))


def test_generator_choice_unsupported_forms_fall_back(mode):
    def with_list_p(rng):
        return rng.choice(3, 4, p=[0.2, 0.3, 0.5])

    def with_axis(rng, a):
        return rng.choice(a, 2, axis=1)

    a, b = np.random.default_rng(0), np.random.default_rng(0)
    with pytest.warns(HanaJitFallbackWarning, match="choice"):
        assert np.array_equal(jit(with_list_p)(a), with_list_p(b))
    x = np.arange(12.0).reshape(3, 4)
    with pytest.warns(HanaJitFallbackWarning, match="choice"):
        assert np.array_equal(jit(with_axis)(a, x), with_axis(b, x))
    assert plain(a.bit_generator.state) == plain(b.bit_generator.state)


def choose_rows(rng, a, size, replace, p):
    return rng.choice(a, size, replace, p)


def choose_row(rng, a):
    return rng.choice(a)


def choose_rows_axis0(rng, a, size):
    return rng.choice(a, size, axis=0)


@pytest.mark.parametrize("a", [
    np.arange(24.0).reshape(6, 4), np.arange(60).reshape(6, 5, 2),
    np.arange(12.0).reshape(4, 3).T, np.zeros((0, 3))], ids=lambda a: f"{a.dtype}{a.shape}")
def test_generator_choice_of_nd_rows(a):
    # rows along axis 0, as a.take(idx, axis=0): shape size + a.shape[1:]
    for replace in (True, False):
        for size in ([(2, 2), ()] if len(a) else []) + [0]:
            check(choose_rows, "PCG64", 5, a, size, replace, None)
        if len(a):
            check(choose_rows, "MT19937", 6, a, 3, replace, np.full(len(a), 1.0 / len(a)))
    check(choose_row, "PCG64", 7, a)        # empty: NumPy's error
    check(choose_rows_axis0, "Philox", 8, a, 0 if len(a) == 0 else 4)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), kind=st.sampled_from(BIT_GENERATORS),
       pop=st.integers(1, 60), size=st.integers(0, 70), replace=st.booleans(),
       use_p=st.booleans(), shuffle=st.booleans(), zeros=st.floats(0, 0.9))
def test_generator_choice_many(seed, kind, pop, size, replace, use_p, shuffle, zeros):
    p = probabilities(pop, seed % 1000, zeros) if use_p else None
    check(choose, kind, seed, pop, size, replace, p, shuffle, repeat=1)


# ------------------------------------------------------ np.random.choice (legacy)
def legacy_choose(a, size, replace, p):
    return np.random.choice(a, size, replace, p)


def legacy_choose_scalar(a, replace, p):
    return np.random.choice(a, replace=replace, p=p)


def legacy_choose_default(a, size):
    return np.random.choice(a), np.random.choice(a, size), np.random.choice(a, size=size)


@pytest.mark.parametrize("replace", [True, False])
def test_legacy_choice_forms(replace):
    for size in SIZES:
        for p in (None, P5):
            for a in (5, np.arange(10, 15)):
                if size is None:
                    check_legacy(legacy_choose_scalar, 1, a, replace, p)
                else:
                    check_legacy(legacy_choose, 2, a, size, replace, p)
    check_legacy(legacy_choose, 2, 5, 4, replace, probabilities(5, 3, dtype=np.float32))
    check_legacy(legacy_choose, 3, 3000, 2000, replace, None)
    check_legacy(legacy_choose_default, 4, 9, (2, 3))


@pytest.mark.parametrize("a, size, replace, p", [
    (0, 3, True, None), (np.zeros(0), 2, True, None), (0, 0, False, None),
    (-3, 0, False, None), (3, 4, False, None), (3, 2, True, np.array([0.5, 0.5])),
    (2, 2, True, np.array([-0.5, 1.5])), (2, 2, True, np.array([np.nan, 1.0])),
    (2, 1, True, np.array([0.5, 0.5 + 1e-7])), (3, 3, False, np.array([0.0, 0.5, 0.5])),
    (5, -1, False, None), (5, (2, -1), True, None), (5, (-1, -1), False, None),
    (5, (0, -1), False, None), (5, (-1, 0), False, None), (5, (-1, -1), False, P5),
    (2, 1, True, np.array([0.5, 0.5 + 3e-4], np.float32)),
    (2, 1, True, np.array([0.5, 0.5 + 3.5e-4], np.float32))])
def test_legacy_choice_errors(mode, a, size, replace, p):
    check_legacy(legacy_choose, 5, a, size, replace, p)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pop=st.integers(1, 60), size=st.integers(0, 70),
       replace=st.booleans(), use_p=st.booleans(), zeros=st.floats(0, 0.9))
def test_legacy_choice_many(seed, pop, size, replace, use_p, zeros):
    p = probabilities(pop, seed % 1000, zeros) if use_p else None
    check_legacy(legacy_choose, seed, pop, size, replace, p, calls=1)


# ------------------------------------------------------- shuffle, permutation
def shuffled(rng, x):
    y = x.copy()
    rng.shuffle(y)
    return y, rng.permutation(x)


def shuffled_in_place(rng, x):
    rng.shuffle(x)
    return x


def legacy_shuffled(x):
    y = x.copy()
    np.random.shuffle(y)
    return y, np.random.permutation(x)


def legacy_permuted_int(n):
    return np.random.permutation(n)


ARRAYS = [np.arange(12.0).reshape(4, 3), np.arange(30).reshape(5, 2, 3),
          np.arange(24, dtype=np.int8).reshape(2, 3, 2, 2), np.zeros((3, 0)), np.zeros((0, 3)),
          np.zeros((4, 0, 2)), np.arange(4.0).reshape(1, 4), np.arange(40.0).reshape(8, 5)[:, ::2],
          np.arange(10.0), np.arange(0), np.arange(1), np.array([True, False, True])]


@pytest.mark.parametrize("kind", BIT_GENERATORS)
@pytest.mark.parametrize("x", ARRAYS, ids=lambda x: f"{x.dtype}{x.shape}")
def test_generator_shuffle_permutation_nd(mode, kind, x):
    check(shuffled, kind, 11, x)


def test_generator_shuffle_writes_the_argument(mode):
    x, y = np.arange(60.0).reshape(10, 6), np.arange(60.0).reshape(10, 6)
    a, b = np.random.default_rng(12), np.random.default_rng(12)
    assert jitted(shuffled_in_place)(a, x) is x
    shuffled_in_place(b, y)
    assert np.array_equal(x, y) and not np.array_equal(x, np.arange(60.0).reshape(10, 6))
    assert plain(a.bit_generator.state) == plain(b.bit_generator.state)


@pytest.mark.parametrize("x", ARRAYS, ids=lambda x: f"{x.dtype}{x.shape}")
def test_legacy_shuffle_permutation(mode, x):
    # an n-D array of no items: shuffle draws nothing, permutation draws
    check_legacy(legacy_shuffled, 13, x)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 1000, -3])
def test_legacy_permutation_of_an_int(mode, n):
    check_legacy(legacy_permuted_int, 14, n)


def test_shuffle_of_a_read_only_array_falls_back(mode):
    x = np.arange(6.0).reshape(3, 2)
    x.flags.writeable = False

    def shuffle_it(a):
        np.random.shuffle(a)

    with pytest.warns(HanaJitFallbackWarning, match="shuffle"), \
            pytest.raises(ValueError, match="read-only"):
        jit(shuffle_it)(x)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(0, 40), cols=st.integers(0, 4))
def test_shuffle_permutation_many(seed, rows, cols):
    x = np.arange(rows * cols, dtype=np.float64).reshape(rows, cols)
    check(shuffled, "PCG64", seed, x, repeat=1)
    check_legacy(legacy_shuffled, seed, x, calls=1)
