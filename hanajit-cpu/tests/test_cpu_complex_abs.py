"""``np.abs`` of complex numbers as NumPy computes it, bit for bit.

NumPy's complex ``absolute`` loop is not ``hypot`` (``absolute_forms``): arrays of
any layout, ``np.abs`` of a scalar, and every reduction of such an expression
must give NumPy's values; ``abs()`` of a Python or NumPy complex number is
``hypot``, as CPython's and NumPy's scalar math compute it."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from hanajit import jit


_JITTED = {}


def _jitted(fn):
    """One jitted function per kernel: the views of one type share its code."""
    if fn not in _JITTED:
        _JITTED[fn] = jit(fn)
    return _JITTED[fn]


def _values(ct, n=600, seed=0):
    rng = np.random.default_rng(seed)
    scale = np.exp(rng.uniform(-30, 30, (2, n)))
    z = (rng.standard_normal(n) * scale[0] + 1j * rng.standard_normal(n) * scale[1])
    with np.errstate(over="ignore"):
        return z.astype(ct)


def _special(ct):
    parts = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 1e308, 1e-320, 3e38, -2.5]
    with np.errstate(over="ignore"):
        return np.array([complex(a, b) for a in parts for b in parts]).astype(ct)


def _same(got, want):
    """The same dtype, shape and bits (a NaN's payload aside)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert got[~nan].tobytes() == want[~nan].tobytes()


def absolute(x):
    return np.abs(x)


def absolute_builtin(x):
    return abs(x)


def absolute_scaled(x):
    return np.absolute(x) * 2.0


LAYOUTS = {
    "contiguous": lambda z: z,
    "reversed": lambda z: z[::-1],
    "stepped": lambda z: z[::3],
    "stepped back": lambda z: z[::-2],
    "2-D": lambda z: z[:600].reshape(20, 30),
    "F": lambda z: np.asfortranarray(z[:600].reshape(20, 30)),
    "2-D reversed rows": lambda z: z[:600].reshape(20, 30)[:, ::-1],
    "2-D reversed": lambda z: z[:600].reshape(20, 30)[::-1, ::-1],
    "2-D stepped": lambda z: z[:600].reshape(20, 30)[::2, 1::3],
    "one": lambda z: z[:1],
}


@pytest.mark.parametrize("ct", [np.complex128, np.complex64])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("fn", [absolute, absolute_builtin, absolute_scaled])
def test_arrays_of_every_layout(ct, layout, fn):
    for z in (_values(ct), np.resize(_special(ct), 600)):
        x = LAYOUTS[layout](z)
        with warnings.catch_warnings():
            # (an N-D complex64 array read backwards may re-run in the interpreter)
            warnings.simplefilter("ignore")
            _same(_jitted(fn)(x), fn(x))


def np_abs_of_item(x):
    return np.abs(x[0])


def abs_of_item(x):
    return abs(x[0])


def abs_of_python_complex(x):
    return abs(complex(x[0]))


@pytest.mark.parametrize("ct", [np.complex128, np.complex64])
@pytest.mark.parametrize("fn", [np_abs_of_item, abs_of_item, abs_of_python_complex])
def test_scalars_take_numpys_loop_or_hypot_as_the_interpreter_does(ct, fn):
    z = np.concatenate([_values(ct, 300, seed=1), _special(ct)])
    g = jit(fn)
    for k in range(len(z)):
        got, want = g(z[k:k + 1]), fn(z[k:k + 1])
        assert type(got) is type(want)
        _same(got, want)


def abs_sum(x):
    return np.abs(x).sum()


def abs_mean(x):
    return np.abs(x).mean()


def abs_max(x):
    return np.abs(x).max()


def abs_rows(x):
    return np.abs(x.reshape(30, -1)).sum(axis=1)


def normalised(x):
    return np.abs(x) / np.abs(x).max()


@pytest.mark.parametrize("ct", [np.complex128, np.complex64])
@pytest.mark.parametrize("fn", [abs_sum, abs_mean, abs_max, abs_rows, normalised])
def test_expressions_and_reductions_of_it(ct, fn):
    for n in (30, 600, 3000):
        x = _values(ct, n, seed=n)
        _same(_jitted(fn)(x), fn(x))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.complex_numbers(allow_nan=True, allow_infinity=True), min_size=1,
                max_size=40), st.sampled_from([np.complex128, np.complex64]))
def test_any_values(values, ct):
    with np.errstate(over="ignore"):
        x = np.array(values, dtype=np.complex128).astype(ct)
    _same(_jitted(absolute)(x), np.abs(x))
