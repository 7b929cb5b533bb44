"""Unpacking an array along its first axis (``a, b = pair``, ``for a, b in
pairs``) against the interpreter: views of an N-D array (writes reach the
original), elements of a 1-D one, and CPython's ValueError words for a first
axis of another length."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.jitted import jitted
from hanajit.testing.reference import same_value


def pair_sum(pair):
    a, b = pair
    return a + b


def triple(x):
    a, b, c = x
    return a * 2 - b + c


def writes_through(x):
    a, b = x
    a[0] = 99.0
    b[-1] = a[1]
    return a.sum()


def pairs_dot(pairs):
    s = 0.0
    for a, b in pairs:
        s += a * b
    return s


def nested(m):
    (a, b), c = m[:, 0].reshape(2, 2), m[1]
    return a - b + c.sum()


def _check(fn, *args):
    ca = [x.copy() for x in args]
    try:
        want = fn(*args)
    except ValueError as exc:
        with pytest.raises(ValueError) as info:
            jitted(fn, fallback=False)(*ca)
        assert str(info.value) == str(exc)
        return
    got = jitted(fn, fallback=False)(*ca)
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    else:
        assert same_value(got, want), (got, want)
    for c, a in zip(ca, args):
        np.testing.assert_array_equal(c, a)


@pytest.mark.parametrize("shape", [(2,), (2, 3), (2, 2, 2), (1,), (3,), (0, 2), (1, 4),
                                   (3, 4)], ids=str)
def test_pair(shape):
    _check(pair_sum, np.arange(float(np.prod(shape))).reshape(shape))


@pytest.mark.parametrize("shape", [(3,), (3, 2), (2, 2), (4, 1), (0,)], ids=str)
def test_triple_and_int_data(shape):
    _check(triple, np.arange(int(np.prod(shape))).reshape(shape))


def test_views_write_through():
    _check(writes_through, np.arange(8.0).reshape(2, 4))
    _check(writes_through, np.arange(12.0).reshape(3, 4))


def test_for_loop_over_pairs():
    _check(pairs_dot, np.arange(10.0).reshape(5, 2))
    _check(pairs_dot, np.zeros((0, 2)))
    _check(pairs_dot, np.arange(9.0).reshape(3, 3))          # too many in a row


def test_nested_targets():
    _check(nested, np.arange(8.0).reshape(4, 2))


def test_the_issue_example_compiles():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = jitted(pair_sum, fallback=False)(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(got, [3.0, 5.0, 7.0])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(1, 3), st.sampled_from([np.float64, np.int32]))
def test_lengths(n, m, dt):
    x = np.arange(n * m, dtype=dt).reshape(n, m)
    _check(pair_sum, x)
    _check(triple, x)
    _check(pairs_dot, x)
