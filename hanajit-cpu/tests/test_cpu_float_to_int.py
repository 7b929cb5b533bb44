"""``int(x)`` of a float compiled (lib/python/operators.float_to_int): one test on
the hot path, then NaN's ValueError, the infinities' OverflowError and the exact
Python int of a huge value (re-run in the interpreter) as CPython gives them."""
import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit


def to_int(x):
    return int(x)


def scaled(x):
    return int(x * 2.0) + 1


def bins(x, n):
    h = np.zeros(n, dtype=np.int64)
    for i in range(x.shape[0]):
        k = int(x[i] * n)
        if 0 <= k < n:
            h[k] += 1
    return h


KERNELS = {f: jit(f) for f in (to_int, scaled, bins)}

VALUES = [1.5, -1.5, 0.0, -0.0, 0.999999, -0.999999, 2.0 ** 62, -2.0 ** 63, 2.0 ** 63,
          -2.0 ** 63 - 4096.0, 1e300, -1e300, float("nan"), float("inf"), float("-inf")]


def _outcome(f, *args):
    try:
        return "ok", f(*args)
    except Exception as exc:          # noqa: BLE001 - the error is the outcome
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("fn", [to_int, scaled])
@pytest.mark.parametrize("v", VALUES)
@pytest.mark.parametrize("kind", [float, np.float64, np.float32])
def test_scalar(fn, v, kind):
    x = kind(v)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        warnings.simplefilter("ignore", RuntimeWarning)       # float32(1e300) = inf
        want = _outcome(fn, x)
        got = _outcome(KERNELS[fn], x)
    assert got == want
    if got[0] == "ok":
        assert type(got[1]) is type(want[1])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_loop(dtype):
    x = np.random.default_rng(3).random(1000).astype(dtype)
    x[::7] *= -1.0
    got, want = KERNELS[bins](x, 16), bins(x, 16)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    for bad in (np.nan, np.inf, 1e30):
        y = x.copy()
        y[500] = bad
        want = _outcome(bins, y, 16)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HanaJitFallbackWarning)
            got = _outcome(KERNELS[bins], y, 16)
        if want[0] == "ok":
            assert got[0] == "ok" and got[1].tobytes() == want[1].tobytes()
        else:
            assert got == want
