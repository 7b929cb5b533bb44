"""NumPy's float floor division and remainder (``npy_divmod``), in Python source
compiled by hanajit (see ``helpers``): the same algorithm as Python's, except that
a zero divisor gives ``a / b`` (inf or nan) and ``fmod(a, 0)`` (nan) instead of
raising."""
from .. import prims


def np_floordiv(a, b):
    mod = prims.fmod(a, b)
    if b == 0.0:
        return prims.fdiv(a, b)
    div = prims.fdiv(a - mod, b)
    if mod != 0.0:
        if (b < 0.0) != (mod < 0.0):
            div = div - 1.0
    if div != 0.0:
        floordiv = prims.floor(div)
        if div - floordiv > 0.5:
            floordiv = floordiv + 1.0
    else:
        floordiv = prims.copysign(0.0, prims.fdiv(a, b))
    return floordiv


def np_mod(a, b):
    mod = prims.fmod(a, b)
    if b == 0.0:
        return mod
    if mod != 0.0:
        if (b < 0.0) != (mod < 0.0):
            mod = mod + b
    else:
        mod = prims.copysign(0.0, b)
    return mod
