"""``np.linalg.matrix_power`` and ``np.linalg.multi_dot`` as NumPy's Python source
computes them, in Python source compiled by hanajit (``chains``): the same
``matmul``/``dot`` calls on the same operands in the same order, so BLAS sees what
it sees under NumPy and the bits are NumPy's."""
import numpy as np


def power(a, n):
    """``matrix_power(a, n)`` of a square 2-D ``a`` whose inverse keeps its dtype
    (float or complex)."""
    if n == 0:
        return identity_like(a)
    if n < 0:
        return positive_power(np.linalg.inv(a), -n)
    return positive_power(a, n)


def nonnegative_power(a, n):
    """``matrix_power(a, n)`` with ``n >= 0`` (the caller checks)."""
    if n == 0:
        return identity_like(a)
    return positive_power(a, n)


def identity_like(a):
    r = np.empty_like(a)
    r[...] = np.eye(a.shape[-2], dtype=a.dtype)
    return r


def inverse_power(a, n):
    """``matrix_power(a, n)`` with ``n < 0`` (of an integer or boolean ``a``: a
    float64 result)."""
    return positive_power(np.linalg.inv(a), -n)


def positive_power(a, n):
    """NumPy's short-cuts for 1, 2 and 3, then its binary decomposition from the
    least significant bit."""
    if n == 1:
        return a
    if n == 2:
        return np.matmul(a, a)
    if n == 3:
        return np.matmul(np.matmul(a, a), a)
    z = a
    result = a
    first = True
    started = False
    while n > 0:
        if started:
            z = np.matmul(z, z)
        started = True
        bit = n % 2
        n = n // 2
        if bit:
            if first:
                result = z
                first = False
            else:
                result = np.matmul(result, z)
    return result


def dot2(a, b):
    return np.dot(a, b)


def row(a):
    """NumPy's ``atleast_2d`` of a 1-D array: ``a[np.newaxis, :]``."""
    return a[np.newaxis, :]


def column(a):
    """``atleast_2d(a).T`` of a 1-D array."""
    return a[np.newaxis, :].T


def check_2d(a):
    if a.ndim != 2:
        raise np.linalg.LinAlgError(
            "%d-dimensional array given. Array must be two-dimensional" % a.ndim)


def three(A, B, C):
    """NumPy's ``_multi_dot_three``: the cheaper of ``(AB)C`` and ``A(BC)``."""
    a0 = A.shape[0]
    a1b0 = A.shape[1]
    b1c0 = C.shape[0]
    c1 = C.shape[1]
    cost1 = a0 * b1c0 * (a1b0 + c1)
    cost2 = a1b0 * c1 * (a0 + b1c0)
    if cost1 < cost2:
        return np.dot(np.dot(A, B), C)
    return np.dot(A, np.dot(B, C))


def chain_order(p):
    """NumPy's ``_multi_dot_matrix_chain_order`` of the dimensions ``p`` (``n + 1``
    of them): ``s[i, j]``, where the product of ``A_i .. A_j`` splits."""
    n = p.shape[0] - 1
    m = np.zeros((n, n), dtype=np.float64)
    s = np.zeros((n, n), dtype=np.int64)
    for ln in range(1, n):
        for i in range(n - ln):
            j = i + ln
            m[i, j] = np.inf
            for k in range(i, j):
                q = m[i, k] + m[k + 1, j] + float(p[i] * p[k + 1] * p[j + 1])
                if q < m[i, j]:
                    m[i, j] = q
                    s[i, j] = k
    return s


def first_element(r):
    return r[0, 0]


def flat(r):
    return r.ravel()
