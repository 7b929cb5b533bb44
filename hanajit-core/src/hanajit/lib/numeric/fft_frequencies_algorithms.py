"""``np.fft.fftfreq`` and ``np.fft.rfftfreq`` in Python source compiled by
hanajit (``fft_frequencies`` types the calls): ``numpy/fft/_helper.py`` step for
step, so the values and errors (ZeroDivisionError for ``n * d == 0``, ValueError
for a negative ``n``) are NumPy's."""
import numpy as np


def fftfreq(n, d):
    val = 1.0 / (n * d)
    results = np.empty(n, np.int64)
    N = (n - 1) // 2 + 1
    for i in range(N):
        results[i] = i
    h = n // 2
    for i in range(n - N):
        results[N + i] = i - h
    return results * val


def rfftfreq(n, d):
    val = 1.0 / (n * d)
    N = n // 2 + 1
    results = np.arange(0, N, dtype=np.int64)
    return results * val
