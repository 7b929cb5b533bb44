"""``random.expovariate``, ``random.choice`` and ``random.shuffle`` compiled, bit
for bit with the interpreter (values, the shuffled array, exceptions and
``getstate()`` afterwards), on the global generator and on a ``random.Random``
argument, under both dispatchers; ``random.sample`` falls back (it returns a
list).  Same style as test_cpu_py_random.py.
"""
from __future__ import annotations

import random
import sys
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.dispatch_modes import jitted, mode  # noqa: F401  (fixture)
from hypothesis import given, settings
from hypothesis import strategies as st


def run(f, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            out = f(*args)
    except (ValueError, TypeError, IndexError, ZeroDivisionError) as exc:
        return ("raise", type(exc), str(exc))
    # compiled integer and float results come back as Python numbers
    # (docs/semantics.md), where the interpreter gives NumPy scalars of arrays
    return ("ok", out.item() if isinstance(out, np.generic) else out)


def check(py, seed, *args, calls=3):
    """``calls`` compiled calls on the global generator, then the interpreter's;
    array arguments are copied for each side, and compared afterwards."""
    jf = jitted(py)
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    random.seed(seed)
    got = [run(jf, *mine) for _ in range(calls)]
    after = random.getstate()
    theirs = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    random.seed(seed)
    want = [run(py, *theirs) for _ in range(calls)]
    assert repr(got) == repr(want)
    assert after == random.getstate()
    for x, y in zip(mine, theirs):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y, equal_nan=True)


def check_instance(py, seed, *args, calls=3):
    """The same on a ``random.Random(seed)`` passed as the first argument."""
    jf = jitted(py)
    r1, r2 = random.Random(seed), random.Random(seed)
    mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    theirs = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got = [run(jf, r1, *mine) for _ in range(calls)]
    want = [run(py, r2, *theirs) for _ in range(calls)]
    assert repr(got) == repr(want)
    assert r1.getstate() == r2.getstate()
    for x, y in zip(mine, theirs):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y, equal_nan=True)


# ---------------------------------------------------------------- the kernels
def expo(lambd):
    return random.expovariate(lambd)


def expo_sum(n, lambd):
    s = 0.0
    for _ in range(n):
        s += random.expovariate(lambd)
    return s


def choose(a):
    return random.choice(a)


def choose_many(a, n):
    s = 0.0
    for _ in range(n):
        s += random.choice(a)
    return s


def shuffled(a):
    random.shuffle(a)


def r_all(r, a, lambd):
    x = r.choice(a)
    r.shuffle(a)
    return x + r.expovariate(lambd) + r.random()


def sampled(t, k):
    return random.sample(t, k)


# ------------------------------------------------------------------ the tests
@pytest.mark.parametrize("lambd", [2.5, 1, -3.0, 1e-300, 7, 0.0, 0, float("inf")])
def test_expovariate(mode, lambd):
    check(expo, 11, lambd)
    check(expo_sum, 12, 100, lambd, calls=2)


def test_expovariate_default_lambd():
    def expo_default():
        return random.expovariate()
    if sys.version_info >= (3, 12):
        check(expo_default, 3)
    else:                                   # lambd is required before 3.12
        with pytest.warns(HanaJitFallbackWarning, match="expovariate"):
            with pytest.raises(TypeError):
                jit(expo_default)()


@pytest.mark.parametrize("a", [
    np.linspace(-1, 1, 37), np.arange(10), np.arange(300, dtype=np.uint8),
    np.array([2.5]), np.arange(100_000, dtype=np.int32), np.arange(50.0)[::-3],
    (1.5, 2.5, 3.5), (4, 5, 6, 7, 8)], ids=lambda a: f"{type(a).__name__}{len(a)}")
def test_choice(mode, a):
    check(choose, 21, a)
    check(choose_many, 22, a, 40, calls=2)


def test_choice_of_an_empty_array_raises_indexerror():
    check(choose, 1, np.zeros(0))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 1000])
@pytest.mark.parametrize("dtype", ["float64", "int64", "uint16", "bool"])
def test_shuffle(mode, n, dtype):
    check(shuffled, 31 + n, (np.arange(n) % 7).astype(dtype))


def test_shuffle_of_a_strided_view():
    a, b = np.arange(40.0), np.arange(40.0)
    random.seed(5)
    jit(shuffled)(a[1::3])
    after = random.getstate()
    random.seed(5)
    shuffled(b[1::3])
    assert np.array_equal(a, b) and after == random.getstate()


def test_shuffle_of_a_2d_array_falls_back():
    a = np.arange(12.0).reshape(4, 3)
    with pytest.warns(HanaJitFallbackWarning, match="shuffle"):
        jit(shuffled)(a)


def test_instance_methods(mode):
    check_instance(r_all, 41, np.arange(25.0), 0.5)
    check_instance(r_all, 42, np.arange(9), 3)


def test_sample_falls_back_naming_the_list():
    with pytest.warns(HanaJitFallbackWarning, match="sample.*list"):
        random.seed(1)
        got = jit(sampled)((1.5, 2.5, 3.5, 4.5), 2)
    random.seed(1)
    assert got == sampled((1.5, 2.5, 3.5, 4.5), 2)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(-(1 << 63), (1 << 63) - 1), n=st.integers(0, 70),
       lambd=st.floats(allow_nan=False) | st.integers(-(1 << 40), 1 << 40))
def test_many_seeds(seed, n, lambd):
    check(shuffled, seed, np.arange(n, dtype=np.float64), calls=2)
    check(choose, seed, np.arange(n + 1), calls=2)
    check(expo, seed, lambd, calls=2)
