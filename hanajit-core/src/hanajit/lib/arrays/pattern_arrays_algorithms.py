"""``np.diagflat`` and ``np.vander`` in Python source compiled by hanajit
(``pattern_arrays`` types the calls): NumPy's source
(``numpy/lib/_twodim_base_impl.py``) step by step."""
import numpy as np


def diagflat(v, k):
    """``res.flat[fi] = v.ravel()`` into zeros of ``v``'s dtype, ``fi`` the
    positions of diagonal ``k`` of the ``n x n`` result."""
    flat = v.ravel()
    s = len(flat)
    n = s + abs(k)
    res = np.zeros((n, n), flat.dtype)
    if k >= 0:
        for i in range(n - k):
            res[i, i + k] = flat[i]
    else:
        for i in range(n + k):
            res[i - k, i] = flat[i]
    return res


def vander_int(x, N, given, increasing):
    return _vander(x.astype(np.int64), N, given, increasing)


def vander_float(x, N, given, increasing):
    return _vander(x.astype(np.float64), N, given, increasing)


def vander_complex(x, N, given, increasing):
    return _vander(x.astype(np.complex128), N, given, increasing)


def _vander(x, N, given, increasing):
    """NumPy's columns: ones, then ``x``, then ``multiply.accumulate`` along the
    row (each power the previous one times ``x``, in the result's dtype), written
    right to left unless ``increasing``."""
    n = len(x)
    if not given:
        N = n
    v = np.empty((n, N), x.dtype)
    for i in range(n):
        xi = x[i]
        p = xi
        for j in range(N):
            c = j if increasing else N - 1 - j
            if j == 0:
                v[i, c] = 1
            else:
                if j > 1:
                    p = p * xi
                v[i, c] = p
    return v
