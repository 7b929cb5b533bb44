"""``with np.errstate(...)`` and ``with warnings.catch_warnings()`` in compiled
functions (``frontend/with_statements.py``): the body compiles as itself, with
the interpreter's results; modes that change behaviour and other context
managers fall back, naming why."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError


def quiet(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args)


def same(f, g, *args):
    want = quiet(f, *args)
    got = g(*args)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
    else:
        assert type(got) is type(want) and repr(got) == repr(want)


# ---------------------------------------------------------------- kernels
def divide(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / b
    return r


def log_all(a):
    with np.errstate(all="ignore"):
        out = np.sqrt(a) - 1.0
    return out * 2


def early_return(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        with np.errstate(over="warn", under="print", invalid="ignore"):
            if b[i] == 0:
                return -1.0
            if a[i] < 0:
                break
            s += a[i] / b[i]
    return s


def nested(a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with np.errstate(divide="ignore"), np.errstate(invalid="ignore"):
            r = np.sqrt(a) / a
    return r


def as_unused(a):
    with np.errstate(all="ignore") as state:     # noqa: F841
        r = np.sqrt(a)
    return r


def filter_kw(a):
    with warnings.catch_warnings(record=False):
        warnings.filterwarnings(action="ignore")
        return a.sum() / 0.0


def local_import(a):
    import numpy as nmp
    from numpy import errstate
    with nmp.errstate(all="ignore"):
        with errstate(over=None):
            return np.float32(a) * np.float32(1e38)


_J = {}


def compiled(f):
    if f not in _J:
        _J[f] = jit(f, fallback=False)
    return _J[f]


F64 = np.array([1.0, 0.0, -1.0, np.nan, np.inf, -0.0, 2.5])
F32 = F64.astype(np.float32)


@pytest.mark.parametrize("a, b", [
    (F64, np.zeros(7)), (F64, F64[::-1]), (F32, np.float32(0)), (np.arange(7), 0),
    (np.arange(6).reshape(2, 3), np.zeros((2, 3), order="F")), (np.zeros(0), np.zeros(0)),
])
def test_divide(a, b):
    same(divide, compiled(divide), a, b)


@pytest.mark.parametrize("a", [F64, F32, F64[::-2], np.zeros(0), np.array([0, 1, 2])])
def test_log_nested_as(a):
    same(log_all, compiled(log_all), a)
    same(nested, compiled(nested), a)
    same(as_unused, compiled(as_unused), a)
    same(filter_kw, compiled(filter_kw), a)


@pytest.mark.parametrize("a, b", [
    (np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 4.0])),
    (np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 4.0])),
    (np.array([1.0, -2.0, 3.0]), np.array([1.0, 1.0, 4.0])),
    (np.array([1e308, 1e308]), np.array([1e-10, 1.0])),
])
def test_return_break(a, b):
    same(early_return, compiled(early_return), a, b)


@pytest.mark.parametrize("x", [1.0, 1e10, -0.0])
def test_local_import(x):
    same(local_import, compiled(local_import), x)


# ---------------------------------------------------------------- fallbacks
def raise_mode(a):
    with np.errstate(divide="raise"):
        return a / 0.0


def log_mode(a):                # (NumPy: NameError, no object with a write method)
    with np.errstate(divide="log"):
        return a / 0.0


def call_mode(a):
    with np.errstate(all="call", call=print):
        return a / 0.0


def used_as(a):
    with np.errstate(all="ignore") as s:
        r = a * 2
    return r, s


MODE = "ignore"


def mode_var(a):
    with np.errstate(all=MODE):
        return a * 2


def bad_key(a):
    with np.errstate(foo="ignore"):
        return a * 2


def positional(a):
    with np.errstate("ignore"):
        return a * 2


def other_manager(a):
    with open("/dev/null"):
        return a * 2


def error_filter(a):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return a / 0.0


def record(a):
    with warnings.catch_warnings(record=True):
        return a / 0.0


def filter_outside(a):          # (a function without a with: the builder's reason)
    warnings.simplefilter("ignore")
    return a / 0.0


@pytest.mark.parametrize("f, words", [
    (raise_mode, "'raise', 'call' and 'log' change"), (call_mode, "'call' and 'log'"),
    (log_mode, "'log' change"),
    (used_as, "'as' and used"), (mode_var, "a string constant"),
    (bad_key, "np.errstate(foo=...)"), (positional, "keyword arguments only"),
    (other_manager, "only 'with np.errstate(...)'"), (error_filter, "'error' turns"),
    (record, "record=True"), (filter_outside, "'warnings.simplefilter' is not supported"),
])
def test_fallbacks(f, words):
    args = (np.array([1.0, 0.0]),)
    with pytest.raises(UnsupportedError) as e:
        jit(f, fallback=False)(*args)
    assert words in str(e.value)
    with warnings.catch_warnings(record=True) as w:     # the interpreter's outcome
        warnings.simplefilter("always")
        try:
            got = ("ok", repr(jit(f)(*args)))
        except Exception as exc:        # noqa: BLE001
            got = (type(exc), str(exc))
        fell_back = any(issubclass(x.category, HanaJitFallbackWarning) for x in w)
        try:
            want = ("ok", repr(f(*args)))
        except Exception as exc:        # noqa: BLE001
            want = (type(exc), str(exc))
    assert got == want and fell_back
