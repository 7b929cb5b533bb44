"""``np.real_if_close``, ``np.isposinf``/``np.isneginf``, ``np.array_equiv`` and the
shape questions in Python source compiled by hanajit (``predicates`` types the
calls): NumPy's source (``numpy/lib/_type_check_impl.py``,
``numpy/lib/_ufunclike_impl.py``, ``numpy/_core/numeric.py``) step by step."""
import numpy as np

from ..python.helpers import Deopt


def same(a):
    return a


def real_part_if_close(a, tol):
    """NumPy's ``a.real`` where every ``|a.imag| < tol`` (``tol`` already
    ``finfo.eps * tol`` where NumPy scales it); else NumPy returns ``a`` itself,
    a complex array: the call re-runs in the interpreter."""
    if not np.all(np.absolute(a.imag) < tol):
        raise Deopt("np.real_if_close() of an array with an imaginary part that is not "
                    "small (NumPy returns the complex array)")
    return a.real


def isposinf(x):
    return np.logical_and(np.isinf(x), ~np.signbit(x))


def isneginf(x):
    return np.logical_and(np.isinf(x), np.signbit(x))


def ambiguous_sign(x):
    """``np.isposinf``/``np.isneginf`` of complex numbers: NumPy's TypeError."""
    if x is not None:
        raise TypeError("This operation is not supported for complex values because it "
                        "would be ambiguous.")
    return np.isinf(x)


def array_shape(a):
    return a.shape


def array_size(a):
    return a.size


def no_shape(x):
    return ()


def array_equiv(a1, a2):
    """``bool((a1 == a2).all())`` where the shapes broadcast, else False."""
    s1 = a1.shape
    s2 = a2.shape
    n1 = len(s1)
    n2 = len(s2)
    k = 1
    while k <= n1 and k <= n2:
        d1 = s1[n1 - k]
        d2 = s2[n2 - k]
        if d1 != d2 and d1 != 1 and d2 != 1:
            return False
        k += 1
    return bool((a1 == a2).all())


def one(x):
    return 1


def tuple_shape(x):
    return (len(x),)


def tuple_size(x):
    return len(x)


def masked_size(a, mask):
    """``math.prod`` of the lengths of the axes set in ``mask``."""
    n = 1
    k = 0
    for d in a.shape:
        if (mask >> k) & 1:
            n *= d
        k += 1
    return n
