"""``np.result_type(*arrays_and_dtypes)`` and ``np.promote_types(a, b)`` as
dtype arguments (``lib/arrays/result_types.py``): decided while typing, NumPy 2's
promotion with Python numbers weak (NEP 50); the result's dtype, shape and
values against NumPy's for arrays, NumPy scalars, Python numbers, NumPy types,
dtypes and dtype strings; the uses that fall back (a dtype held in a name,
returned or compared; no argument; an array to ``promote_types``) with their
reasons, and NumPy's errors raised by the interpreter there."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.sourcefile import load_module

_M = load_module("""import numpy as np
def zeros2(a, b):
    return np.zeros(3, np.result_type(a, b))
def astype_float(a):
    return a.astype(np.result_type(a, 1.0))
def astype_complex(a):
    return np.arange(4).astype(np.result_type(a, 1j))
def one(a):
    return np.ones((2, 2), dtype=np.result_type(a))
def with_types(a):
    return np.zeros(2, np.result_type(a, np.float32, "i2"))
def promote(a, b):
    return np.ones(3, np.promote_types(a.dtype, b.dtype))
def promote_types_of_types():
    return np.zeros(2, np.promote_types(np.int8, np.uint8))
def eps(a):
    return np.finfo(np.result_type(a, 1.0)).eps
def held(a):
    d = np.result_type(a, 1)
    return np.zeros(2, d)
def returned(a):
    return np.result_type(a)
def compared(a):
    return np.result_type(a) == np.float64
def none_given():
    return np.zeros(2, np.result_type())
def promote_array(a):
    return np.zeros(2, np.promote_types(a, np.int8))
""", "result_types")

ARRAYS = [np.ones(3, dt) for dt in (np.bool_, np.uint8, np.int8, np.int32, np.int64, np.uint64,
                                    np.float32, np.float64, np.complex64, np.complex128)]
SCALARS = [True, 3, -1, 300, 2.5, 1j, np.int8(3), np.uint16(4), np.float32(1.5), np.float64(2),
           np.complex64(1j), np.bool_(True)]


def _same(got, want):
    assert type(got) is type(want)
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def _strict(name):
    return jit(getattr(_M, name), fallback=False)


_ZEROS = _strict("zeros2")


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: str(a.dtype))
def test_arrays_with_arrays_and_scalars(a):
    for b in ARRAYS + SCALARS:
        _same(_ZEROS(a, b), _M.zeros2(a, b))
        _same(_ZEROS(b, a), _M.zeros2(b, a))


def test_scalars_alone():
    for a in SCALARS:
        for b in SCALARS:
            _same(_ZEROS(a, b), _M.zeros2(a, b))


@pytest.mark.parametrize("name", ["astype_float", "astype_complex", "one", "with_types"])
def test_other_dtype_arguments(name):
    f = _strict(name)
    for a in ARRAYS:
        _same(f(a), getattr(_M, name)(a))


def test_promote_types():
    f = _strict("promote")
    for a in ARRAYS:
        for b in ARRAYS:
            _same(f(a, b), _M.promote(a, b))
    _same(_strict("promote_types_of_types")(), _M.promote_types_of_types())


def test_finfo_of_result_type():
    f = _strict("eps")
    for a in (np.ones(2, np.float32), np.ones(2, np.int8), np.ones(2, np.complex64)):
        _same(f(a), _M.eps(a))


@pytest.mark.parametrize("name, reason", [
    ("held", "other than as an argument of a call"),
    ("returned", "other than as an argument of a call"),
    ("compared", "other than as an argument of a call"),
])
def test_dtype_values_fall_back(name, reason):
    a = np.ones(2, np.int8)
    with pytest.warns(HanaJitFallbackWarning, match=reason):
        got = jit(getattr(_M, name))(a)
    want = getattr(_M, name)(a)
    if name == "held":
        _same(got, want)
    else:
        assert got == want


@pytest.mark.parametrize("name, exc, args", [
    ("none_given", ValueError, ()),
    ("promote_array", TypeError, (np.ones(2),)),
])
def test_numpy_errors(name, exc, args):
    with pytest.raises(exc):
        getattr(_M, name)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        with pytest.raises(exc):
            jit(getattr(_M, name))(*args)
