"""``return a`` of an array argument gives the caller the argument object itself,
as CPython does (``f(a) is a``), also for subclasses such as ``np.memmap``; a
view (``a[:]``) or a rebound name (``a = a + 1``) is a new object, as in CPython."""
from __future__ import annotations

import sys

import numpy as np

from hanajit import jit
from hanajit.testing.jitted import jitted


def ident(a):
    return a


def scale(a, k):
    a *= k
    return a


def sliced(a):
    return a[:]


def rebound(a):
    a = a + 1
    return a


def either(a, flag):
    if flag:
        return a
    a[0] = 7.0
    return a


def test_the_argument_itself(tmp_path):
    f = jit(ident, fallback=False)
    a = np.arange(4.0)
    assert f(a) is a and f(a=a) is a              # native and keyword paths
    m = np.memmap(tmp_path / "m.dat", dtype=np.float64, mode="w+", shape=(3,))
    assert f(m) is m
    g = jit(scale, fallback=False)
    assert g(a, 2.0) is a and a.tolist() == [0.0, 2.0, 4.0, 6.0]
    h = jit(either, fallback=False)
    assert h(a, True) is a and h(a, False) is a and a[0] == 7.0


def test_new_objects_stay_new():
    a = np.arange(4.0)
    for func in (sliced, rebound):
        got = jitted(func, fallback=False)(a)
        assert got is not a and np.array_equal(got, func(a))


def test_no_reference_leaks():
    f = jit(ident, fallback=False)
    a = np.arange(3)
    f(a)
    before = sys.getrefcount(a)
    for _ in range(1000):
        f(a)
    assert sys.getrefcount(a) == before
