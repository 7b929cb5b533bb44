"""math.hypot (any number of arguments), math.dist, math.gamma and math.lgamma
compiled with CPython's own algorithms (vector_norm, m_tgamma, m_lgamma): the
bits of CPython's results (``.hex()``), and its exceptions."""
import math
import random
import struct
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11),
                                reason="vector_norm ported from CPython 3.11+")


def hypot0():
    return math.hypot()


def hypot1(a):
    return math.hypot(a)


def hypot2(a, b):
    return math.hypot(a, b)


def hypot3(a, b, c):
    return math.hypot(a, b, c)


def hypot5(a, b, c, d, e):
    return math.hypot(a, b, c, d, e)


def dist_arrays(p, q):
    return math.dist(p, q)


def dist_tuples(a, b, c):
    return math.dist((a, b, c), (c, 1, b))


def dist_lists(a, b):
    return math.dist([a, b], [b, 0.5])


def gamma(x):
    return math.gamma(x)


def lgamma(x):
    return math.lgamma(x)


J = {f.__name__: jit(f, fallback=False)
     for f in (hypot0, hypot1, hypot2, hypot3, hypot5, dist_arrays, dist_tuples, dist_lists,
               gamma, lgamma)}

SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324,
           2.2250738585072014e-308, 1e-310, 1.7976931348623157e308, 1e-20, -1e-20, 0.5, -0.5,
           1.0, 2.0, -1.0, 23.0, 24.0, 140.0, 171.0, 172.0, 200.0, -200.5, 1e300, -1e300]


def _random_float(rng):
    k = rng.random()
    if k < 0.1:
        return rng.choice(SPECIAL)
    if k < 0.3:
        return struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
    if k < 0.6:
        return rng.uniform(-1, 1) * 10.0 ** rng.randint(-320, 308)
    return rng.uniform(-250, 250)


def _same(expected, got):
    assert type(got) is float
    assert got.hex() == expected.hex() or (expected != expected and got != got)


def _outcome(f, *args):
    try:
        return f(*args)
    except (ValueError, OverflowError) as exc:
        return type(exc)


def _check(f, *args):
    expected = _outcome(f, *args)
    got = _outcome(J[f.__name__], *args)
    if isinstance(expected, float):
        _same(expected, got)
    else:
        assert got is expected, (args, got, expected)


def test_hypot_random_bits():
    rng = random.Random(1)
    fs = {1: hypot1, 2: hypot2, 3: hypot3, 5: hypot5}
    for _ in range(3000):
        n = rng.choice([1, 2, 3, 5])
        xs = [_random_float(rng) for _ in range(n)]
        if rng.random() < 0.3:           # all subnormal or tiny
            xs = [x * 10.0 ** rng.randint(-315, -300) for x in xs]
        elif rng.random() < 0.2:         # near the top
            xs = [x * 1e300 for x in xs]
        _check(fs[n], *xs)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=3, max_size=3))
def test_hypot3_hypothesis(xs):
    _check(hypot3, *xs)


def test_hypot_ints_and_special():
    assert J["hypot0"]() == 0.0
    _check(hypot1, -3)
    _check(hypot2, 3, 4)
    _check(hypot3, 1, True, 2.5)
    _check(hypot3, math.inf, math.nan, 1.0)        # inf wins over nan
    _check(hypot3, math.nan, 1.0, -math.inf)
    _check(hypot3, math.nan, 1.0, 2.0)
    _check(hypot3, 1e308, 1e308, 1e308)            # inf, no error
    _check(hypot3, np.int32(7), np.float32(0.1), np.uint8(3))
    _check(hypot2, 1e308, -1e308)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_])
def test_dist_arrays(dtype):
    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 3, 7):
        p = (rng.standard_normal(n) * 50).astype(dtype)
        q = (rng.standard_normal(n) * 50).astype(dtype)
        _check(dist_arrays, p, q)
    big = (rng.standard_normal(8) * 50)
    _check(dist_arrays, big[::-2], big[1::2])      # strided, reversed
    _check(dist_arrays, big[:4], (1, 2.5, 3, 4))


def test_dist_tuples_lists_and_errors():
    rng = random.Random(5)
    for _ in range(500):
        _check(dist_tuples, _random_float(rng), _random_float(rng), _random_float(rng))
        _check(dist_lists, _random_float(rng), _random_float(rng))
    with pytest.raises(ValueError):
        dist_arrays(np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError):
        J["dist_arrays"](np.zeros(3), np.zeros(2))


def test_gamma_lgamma_random_bits():
    rng = random.Random(2)
    for _ in range(4000):
        k = rng.random()
        if k < 0.4:
            x = _random_float(rng)
        elif k < 0.6:
            x = rng.uniform(-1, 1) * 10.0 ** rng.randint(-25, 3)
        elif k < 0.8:
            x = float(rng.randint(-30, 200)) + rng.choice([0.0, 0.5, 1e-9, -1e-9, 0.25])
        else:
            x = rng.uniform(-210, 210)
        _check(gamma, x)
        _check(lgamma, x)


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_gamma_lgamma_hypothesis(x):
    _check(gamma, x)
    _check(lgamma, x)


@pytest.mark.parametrize("x", [0.0, -0.0, -1.0, -2.0, -1e10, -math.inf, 172.0, 1e300, 5e-324,
                               -5e-324, 1e-309, -201.5, 3, True, np.float32(2.5), np.int64(-3)])
def test_gamma_lgamma_errors(x):
    _check(gamma, x)
    _check(lgamma, x)
    for f in (gamma, lgamma):
        expected = _outcome(f, x)
        if isinstance(expected, type):
            with pytest.raises(expected, match="math (domain|range) error"):
                J[f.__name__](x)
