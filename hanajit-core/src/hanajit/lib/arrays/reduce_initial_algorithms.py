"""``initial=`` and ``where=`` of ``np.min``/``np.max``/``np.sum``/``np.prod``/
``np.mean`` in Python source compiled by hanajit (``reduce_initial`` types the
calls).  NumPy's reduction starts from ``initial`` and combines the selected
values in its loops' order; where that order decides the bits (which of two
zeros of different signs, or of two NaNs of different signs, a min/max keeps;
a sum starting from ``-0.0``) these re-run the call in the interpreter."""
import numpy as np

from ..python.helpers import Deopt


def _pick(r, v, is_max):
    """The min/max ``r`` so far combined with ``v`` (floats): NaN propagates."""
    if r != r:
        if v != v and np.signbit(r) != np.signbit(v):
            raise Deopt("np.min/np.max: NaNs of both signs")
        return r
    if v != v:
        return v
    if v == r:
        if v == 0 and np.signbit(r) != np.signbit(v):
            raise Deopt("np.min/np.max: zeros of both signs (NumPy's loop order decides)")
        return r
    if is_max:
        return v if v > r else r
    return v if v < r else r


def extreme_initial_float(a, init, is_max):
    """``np.max(a, initial=init)`` (``np.min``: ``is_max`` false) of a float
    array: by value the extreme of ``init`` and ``np.max(a)``; a zero or NaN
    result re-runs in the interpreter where ``a`` and ``init`` hold zeros (NaNs)
    of both signs, as NumPy's loops then choose among them in their own order."""
    if a.size == 0:
        return init
    m = np.max(a) if is_max else np.min(a)
    r = _pick(init, m, is_max)
    if r == 0 or r != r:
        s = np.signbit(r)
        if r == 0:
            mixed = np.any((a == 0) & (np.signbit(a) != s))
        else:
            mixed = np.any(np.isnan(a) & (np.signbit(a) != s))
        if mixed:
            raise Deopt("np.min/np.max: zeros or NaNs of both signs")
    return r


def extreme_initial_int(a, init, is_max):
    if a.size == 0:
        return init
    if is_max:
        m = np.max(a)
        return m if m > init else init
    m = np.min(a)
    return m if m < init else init


def extreme_where_float(x, m, init, is_max):
    """``np.max(x, where=m, initial=init)`` of the 1-D ``x`` and mask ``m``."""
    r = init
    for i in range(x.shape[0]):
        if m[i]:
            r = _pick(r, x[i], is_max)
    return r


def extreme_where_int(x, m, init, is_max):
    r = init
    for i in range(x.shape[0]):
        if m[i]:
            v = x[i]
            if is_max:
                if v > r:
                    r = v
            elif v < r:
                r = v
    return r


def product_from(x, z):
    """``np.prod`` of the 1-D ``x`` starting from ``z``: NumPy's multiply loop
    reduces in order, one product after another."""
    acc = z
    for i in range(x.shape[0]):
        acc = acc * x[i]
    return acc


def int_product_from(a, z):
    return z * np.prod(a)


def masked_count(m):
    c = 0
    for i in range(m.shape[0]):
        if m[i]:
            c += 1
    return c


def sum_from(a, z):
    """``np.sum(a, initial=z)`` of a 1-D or C-contiguous ``a``: NumPy adds the
    array's pairwise sum to ``z`` (``np.sum(a)`` adds it to ``0``: the same
    bits unless ``z`` is ``-0.0``, checked by ``float_zero_start``)."""
    return z + np.sum(a)


def float_zero_start(z, r):
    """A sum from ``z`` that came out zero: ``-0.0`` plus a ``-0.0`` sum is
    ``-0.0`` in NumPy, which added ``+0.0`` here."""
    if z == 0 and r == 0 and np.signbit(z):
        raise Deopt("np.sum(initial=-0.0) of a zero sum")
    return r


def complex_zero_start(z, r):
    float_zero_start(z.real, r.real)
    float_zero_start(z.imag, r.imag)
    return r


def complex_mean(total, n):
    """``total / n`` of a complex sum and an ``intp`` count as NumPy divides:
    complex128 division by ``n + 0j`` (its loop: ``rat = 0 / n``, ``scl = 1 /
    (n + 0 * rat)``, each part times ``scl``)."""
    nr = float(n)
    tr = float(total.real)
    ti = float(total.imag)
    rat = 0.0 / nr
    scl = 1.0 / (nr + 0.0 * rat)
    return complex((tr + ti * rat) * scl, (ti - tr * rat) * scl)


def float_nan_signs(z, x, r):
    """A NaN sum or product of ``z`` and the values of ``x``: which NaN an add
    or multiply of two NaNs keeps is the C compiler's choice of operand order,
    so NaNs of both signs re-run in the interpreter."""
    if r != r:
        s = np.signbit(r)
        if (z != z and np.signbit(z) != s) or np.any(np.isnan(x) & (np.signbit(x) != s)):
            raise Deopt("np.sum/np.prod: NaNs of both signs")
    return r
