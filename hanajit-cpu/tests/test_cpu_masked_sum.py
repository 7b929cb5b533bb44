"""``np.sum(a, where=mask)`` (``lib/arrays/masked_sums.py``): NumPy's runs of selected
elements, each summed pairwise, bit for bit, for every dtype; what it does not cover
runs in the interpreter with the reason."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning

_RNG = np.random.default_rng(5)


def np_sum(a, m):
    return np.sum(a, where=m)


def method_sum(a, m):
    return a.sum(where=m)


def _cases():
    for n in (0, 1, 7, 300, 20000):
        x = _RNG.standard_normal(2 * n) * np.exp(_RNG.uniform(-5, 5, 2 * n))
        m = _RNG.random(2 * n) < _RNG.uniform(0.3, 0.99)
        yield x[:n], m[:n]
        yield x[::2], m[::2]
        yield x[::-1][:n], m[:n]
        yield x[:n].astype(np.float32), m[:n]
        yield (x[:n] * 100).astype(np.int8), m[:n]
        yield x[:n] > 0, m[:n]
        yield x[:n] + 1j * x[n:], m[:n]
    x = _RNG.standard_normal((30, 40))
    yield x, x > -0.5


@pytest.mark.parametrize("fn", [np_sum, method_sum])
def test_masked_sums_as_numpy(fn):
    g = jit(fn, fallback=False)
    for a, m in _cases():
        want, got = fn(a, m), g(a, m)
        assert type(got) is type(want)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def test_other_forms_fall_back_with_the_reason():
    x = np.arange(12.0).reshape(3, 4)
    with pytest.warns(HanaJitFallbackWarning, match="where=mask"):
        got = jit(lambda a: np.sum(a, axis=0, where=a > 3))(x)
    assert np.array_equal(got, np.sum(x, axis=0, where=x > 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        with pytest.raises(ValueError):
            jit(np_sum)(np.arange(5.0), np.ones(4, bool))
