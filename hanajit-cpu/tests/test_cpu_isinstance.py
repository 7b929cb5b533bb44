"""``isinstance(x, T)`` decided while compiling from ``x``'s static type
(``lib/python/isinstance_checks.py``), with CPython's answers for Python numbers
and NumPy scalars alike, compared with the interpreter; where the class depends
on more than the type, the function falls back naming why."""
from __future__ import annotations

import numbers

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.compare import check_fallback, outcome


def is_float(x):
    return isinstance(x, float)


def is_int(x):
    return isinstance(x, int), isinstance(x, bool), isinstance(x, np.bool_)


def is_number(x):
    return isinstance(x, (int, float)), isinstance(x, complex)


def numpy_kinds(x):
    return (isinstance(x, np.integer), isinstance(x, np.floating), isinstance(x, np.number),
            isinstance(x, numbers.Number), isinstance(x, numbers.Integral),
            isinstance(x, numbers.Real), isinstance(x, np.generic),
            isinstance(x, np.signedinteger), isinstance(x, np.complexfloating))


def containers(x):
    return isinstance(x, np.ndarray), isinstance(x, tuple), isinstance(x, (tuple, float))


def element(a):
    v = a[0]
    return (isinstance(v, float), isinstance(v, np.float64), isinstance(v, int),
            isinstance(v, np.int64), isinstance(v, bool), isinstance(v, np.bool_))


def branch(x):
    if isinstance(x, np.ndarray):
        return x.sum()
    elif isinstance(x, (int, np.integer)):
        return x + 1
    return x * 2.0


def str_param(x, mode):
    return isinstance(mode, str), isinstance(x, str)


SCALARS = [1.0, np.float64(1.0), np.float32(1.0), 1, np.int64(1), np.int32(1),
           np.uint8(1), True, np.bool_(True), 1j, np.complex128(1j), np.complex64(1j)]


@pytest.mark.parametrize("f", [is_float, is_int, is_number, numpy_kinds, containers,
                               branch])
@pytest.mark.parametrize("x", SCALARS, ids=lambda x: f"{type(x).__name__}")
def test_scalars_answer_as_cpython(f, x):
    if f is branch and isinstance(x, (complex, np.complexfloating)):
        x = 2.5
    assert outcome(jit(f, fallback=False), x) == outcome(f, x)


@pytest.mark.parametrize("x", [np.ones(3), np.ones((2, 2), np.float32, order="F"),
                               np.arange(6)[::2], (1, 2.0)])
def test_arrays_and_tuples(x):
    assert outcome(jit(containers, fallback=False), x) == outcome(containers, x)
    if isinstance(x, np.ndarray):
        assert outcome(jit(branch, fallback=False), x) == outcome(branch, x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8,
                                   np.bool_, np.complex128])
def test_array_elements_are_numpy_scalars(dtype):
    a = np.ones(3, dtype)
    assert outcome(jit(element, fallback=False), a) == outcome(element, a)


def test_a_str_argument():
    assert jit(str_param, fallback=False)(1.0, "a") == (True, False)


def int_or_element(a, c):
    v = 1
    if c:
        v = a[0]
    return isinstance(v, int)


def memmap_question(a):
    return isinstance(a, np.memmap)


def class_in_a_name(x):
    kinds = (int, float)
    return isinstance(x, kinds)


@pytest.mark.parametrize("f, args, reason", [
    (int_or_element, (np.arange(3), True), "depends on more than its type"),
    (memmap_question, (np.ones(2),), "ndarray subclass"),
])
def test_what_types_do_not_decide_falls_back(f, args, reason):
    check_fallback(f, args, reason)
