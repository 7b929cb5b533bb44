"""``np.vectorize(f)(*args)`` as NumPy's ``vectorize`` computes it, in Python source
compiled by hanajit (``lib/python/vectorize.py`` picks the helper).

NumPy calls ``f`` once on the first elements (``arg.flat[0]``: NumPy scalars) to
find the output dtype (the dtype of ``np.asarray`` of that result), then on every
element through a ufunc of objects: each element reaches ``f`` as a Python number
(``.item()``: an int8 element is a Python int), and the results are stored in an
array of that dtype shaped as the arguments, in C order, as a NumPy cast from
objects stores them (a store into the array).  Empty arguments raise NumPy's
ValueError.  Arguments whose shapes differ (other than numbers beside arrays)
re-run the call in the interpreter (``Deopt``), which broadcasts them.
"""
import numpy as np

from .helpers import Deopt


def _not_empty(n):
    if n == 0:
        raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")


def vectorize1(f, a):
    x = np.asarray(a)
    flat = x.reshape(-1)
    n = flat.shape[0]
    _not_empty(n)
    out = np.full(x.shape, f(flat[0]))
    o = out.reshape(-1)
    for i in range(n):
        o[i] = f(flat[i].item())
    return out


def vectorize1_number(f, a):
    """One number: NumPy's result is a 0-d array."""
    a0 = np.full((), a).reshape(-1)[0]
    out = np.full((), f(a0))
    o = out.reshape(-1)
    o[0] = f(a0.item())
    return out


def _same_shape(x, y):
    if x.shape != y.shape:
        raise Deopt("np.vectorize() of arguments that broadcast")


# two arguments: both arrays of one number of dimensions (equal shapes), or a
# number beside an array
def vectorize2(f, a, b):
    x = np.asarray(a)
    y = np.asarray(b)
    _same_shape(x, y)
    fx = x.reshape(-1)
    fy = y.reshape(-1)
    n = fx.shape[0]
    _not_empty(n)
    out = np.full(x.shape, f(fx[0], fy[0]))
    o = out.reshape(-1)
    for i in range(n):
        o[i] = f(fx[i].item(), fy[i].item())
    return out


def vectorize2_number_first(f, a, b):
    a0 = np.full((), a).reshape(-1)[0]      # NumPy's asarray(a).flat[0]
    av = a0.item()
    y = np.asarray(b)
    fy = y.reshape(-1)
    n = fy.shape[0]
    _not_empty(n)
    out = np.full(y.shape, f(a0, fy[0]))
    o = out.reshape(-1)
    for i in range(n):
        o[i] = f(av, fy[i].item())
    return out


def vectorize2_number_second(f, a, b):
    b0 = np.full((), b).reshape(-1)[0]
    bv = b0.item()
    x = np.asarray(a)
    fx = x.reshape(-1)
    n = fx.shape[0]
    _not_empty(n)
    out = np.full(x.shape, f(fx[0], b0))
    o = out.reshape(-1)
    for i in range(n):
        o[i] = f(fx[i].item(), bv)
    return out


def vectorize3(f, a, b, c):
    x = np.asarray(a)
    y = np.asarray(b)
    z = np.asarray(c)
    _same_shape(x, y)
    _same_shape(x, z)
    fx = x.reshape(-1)
    fy = y.reshape(-1)
    fz = z.reshape(-1)
    n = fx.shape[0]
    _not_empty(n)
    out = np.full(x.shape, f(fx[0], fy[0], fz[0]))
    o = out.reshape(-1)
    for i in range(n):
        o[i] = f(fx[i].item(), fy[i].item(), fz[i].item())
    return out
