"""``np.var``/``np.std`` of integer and bool arrays are NumPy's bit for bit: NumPy
casts the values to float64 through its iterator's 8192-item buffer, sums the
mean buffer by buffer (``pairwise_sum.buffered_sum``), then the squared
deviations pairwise -- 1-D of any stride, and whole C-contiguous arrays."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit


def var(a):
    return a.var()


def std1(a):
    return np.std(a, ddof=1)


def var0(a):
    return np.var(a, axis=0)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8, np.bool_])
def test_integer_variances_are_numpys(dtype):
    rng = np.random.default_rng(11)
    fs = [(f, jit(f, fallback=False)) for f in (var, std1, var0)]
    for n in [1, 2, 9, 100, 8191, 8192, 8193, 20000]:
        a = rng.integers(-1000, 1000, n).astype(dtype)
        for arr in (a, a[::2], a[::-3], a.reshape(1, -1)):
            for f, jf in fs:
                if arr.ndim == 2 and f is var0:
                    continue
                with np.errstate(all="ignore"):
                    got, want = jf(arr), f(arr)
                assert type(got) is type(want)
                assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (f, n)
