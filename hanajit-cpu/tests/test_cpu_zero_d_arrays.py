"""``np.array(x)`` / ``np.asarray(x)`` / ``np.array(x, dtype)`` of a number: a 0-d
array of NumPy's dtype for it (``lib/arrays/joining.py``), and what code does with
one -- arithmetic, comparisons and ufuncs give NumPy scalars, ``a[()]``,
``a.item()``, ``float(a)``/``int(a)``/``bool(a)``, truth tests, ``abs(a)``,
writing ``a[()] = v`` and returning it -- checked against the interpreter: the
same types, values bit for bit and exceptions."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.compare import assert_same_bits


def same(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    elif isinstance(want, (np.ndarray, np.generic, int, float, complex)):
        assert_same_bits(got, want)
    else:
        assert got == want


def check(fn, compiled, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # NaN casts: both warn
        try:
            want = fn(*args)
        except Exception as e:          # noqa: BLE001 - the compiled one must match
            with pytest.raises(type(e)):
                compiled(*args)
            return
        same(compiled(*args), want)


def make(x):
    return np.array(x)


def make_as(x):
    return np.asarray(x)


def to_i8(x):
    return np.array(x, dtype=np.int8)


def to_u8(x):
    return np.array(x, np.uint8)


def to_i64(x):
    return np.asarray(x, dtype=np.int64)


def to_f32(x):
    return np.array(x, dtype=np.float32)


def to_f64(x):
    return np.array(x, dtype=np.float64)


def to_bool(x):
    return np.array(x, dtype=np.bool_)


def to_c128(x):
    return np.array(x, dtype=np.complex128)


def reads(x):
    a = np.array(x)
    return a[()], a.item(), a.shape, a.ndim, a.size


def conversions(x):
    a = np.array(x)
    return float(a), int(a), bool(a), np.float32(a)


def arithmetic(x):
    a = np.asarray(x)
    return a * 2, -a, a > 1, np.sqrt(a), a + a, 1.5 * a, abs(a), a == x, a + np.int8(1)


def truth(x):
    a = np.array(x)
    n = 0
    if a > 1:
        n += 10
    if a:
        n += 1
    while a and n < 13:
        n += 1
    return n


def write(x):
    a = np.array(x)
    a[()] = 7
    a += 1
    return a


def local_result(x):
    a = np.array(x, np.float32)
    b = a * 3
    return b


VALUES = [0, 3, -7, 300, 2**62, True, False, 0.0, -0.0, 3.7, -1.5, 2.5e300, float("nan"),
          float("inf"), 1 + 2j, np.int8(-5), np.uint8(200), np.int64(300), np.float32(2.5),
          np.float32("nan"), np.float64(-1.5), np.float64("nan"), np.bool_(True),
          np.complex64(1 - 2j), np.uint64(2**63 + 5), np.int32(-3)]

KERNELS = [make, make_as, to_i8, to_u8, to_i64, to_f32, to_f64, to_bool, to_c128]


@pytest.mark.parametrize("fn", KERNELS, ids=lambda f: f.__name__)
def test_construct(fn):
    compiled = jit(fn, fallback=False)
    for v in VALUES:
        if isinstance(v, complex) and fn in (to_i8, to_u8, to_i64, to_f32, to_f64):
            continue            # a Python complex to a real dtype falls back (below)
        check(fn, compiled, v)


def test_python_complex_to_real_falls_back():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(TypeError):
            jit(to_f64)(1 + 2j)
    assert any("Python complex" in str(x.message) for x in w)


def test_big_python_int_falls_back():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(jit(make)(2**63), np.array(2**63))        # uint64, by the interpreter


@pytest.mark.parametrize("fn", [reads, conversions, arithmetic, truth, write, local_result],
                         ids=lambda f: f.__name__)
def test_use(fn):
    compiled = jit(fn, fallback=False)
    for v in (0, 3, -7, 2.5, -0.0, float("nan"), float("inf"), np.float32(2.5),
              np.int8(-5), np.uint8(200), np.int32(4), True, np.bool_(False)):
        if fn is arithmetic and isinstance(v, (bool, np.bool_)):
            continue            # -a of a bool array: NumPy's TypeError (falls back)
        if fn is arithmetic and isinstance(v, (np.int8, np.uint8)):
            continue            # np.sqrt of int8 is float16: falls back
        check(fn, compiled, v)
