"""``Generator.standard_normal``, ``standard_exponential`` and ``standard_gamma``
with ``dtype=np.float32``, and ``standard_exponential(method='inv')``, ported
from NumPy 2's ``distributions.c`` (``random_standard_normal_f``,
``random_standard_exponential_f``, ``random_standard_exponential_inv_fill[_f]``,
``random_standard_gamma_f``) and compiled by hanajit.

The float32 ziggurats draw one 32-bit word a try (8 bits of layer, a sign bit
and 23 bits of magnitude for the normal; one bit dropped, 8 of layer and 23 of
magnitude for the exponential) against the float tables of
``ziggurat_float_tables.py``; their arithmetic is float32 as C's is, except
where the C code mixes in a double: the normal's wedge test compares a float
with ``exp(-0.5 * x * x)`` computed in double, and the inverse exponential is
``-log1p(-u)`` in double rounded to float32.  ``log1pf``, ``expf``, ``logf``
and ``powf`` are the C library's, as NumPy calls them.  A scalar form returns
the float32 value as a Python float (NumPy's ``float_fill`` and ``cont_f``).
"""
import numpy as np

from .. import prims
from .more_distributions import non_negative, standard_gamma_draw
from .distributions import standard_exponential
from .ziggurat_float_tables import (EXP_R_F, FE_F, FI_F, KE_F, KI_F, NOR_INV_R_F, NOR_R_F,
                                    WE_F, WI_F)


def next_float(rng):
    """``next_float``: the top 24 bits of a 32-bit word times 2**-24, a float32."""
    w = np.uint64(prims.rng_next_uint32(rng)) >> np.uint64(8)
    return np.float32(float(prims.as_int64(w))) * np.float32(5.9604644775390625e-08)


def standard_normal_f(rng):
    """``random_standard_normal_f``."""
    while True:
        r = np.uint64(prims.rng_next_uint32(rng))
        idx = prims.as_int64(r & np.uint64(0xFF))
        sign = prims.as_int64((r >> np.uint64(8)) & np.uint64(1))
        rabs = prims.as_int64((r >> np.uint64(9)) & np.uint64(0x7FFFFF))
        x = np.float32(float(rabs)) * np.float32(WI_F[idx])     # rabs < 2**23: exact
        if sign == 1:
            x = -x
        if rabs < KI_F[idx]:
            return x
        if idx == 0:
            while True:
                # 1 - U avoids log(0) (NumPy's GH 13361)
                xx = np.float32(-NOR_INV_R_F) * prims.log1p(-next_float(rng))
                yy = -prims.log1p(-next_float(rng))
                if yy + yy > xx * xx:
                    if (rabs >> 8) & 1 == 1:
                        return -(np.float32(NOR_R_F) + xx)
                    return np.float32(NOR_R_F) + xx
        else:
            lo = np.float32(FI_F[idx])
            t = (np.float32(FI_F[idx - 1]) - lo) * next_float(rng) + lo
            xd = float(x)
            if float(t) < prims.exp(-0.5 * xd * xd):          # (in double, as C)
                return x


def standard_exponential_f(rng):
    """``random_standard_exponential_f``; NumPy's recursion is this loop."""
    while True:
        ri = np.uint64(prims.rng_next_uint32(rng)) >> np.uint64(1)
        idx = prims.as_int64(ri & np.uint64(0xFF))
        n = prims.as_int64(ri >> np.uint64(8))
        x = np.float32(float(n)) * np.float32(WE_F[idx])       # n < 2**23: exact
        if n < KE_F[idx]:
            return x
        if idx == 0:
            return np.float32(EXP_R_F) - prims.log1p(-next_float(rng))
        lo = np.float32(FE_F[idx])
        if (np.float32(FE_F[idx - 1]) - lo) * next_float(rng) + lo < prims.exp(-x):
            return x


def exponential_inv(rng):
    """``random_standard_exponential_inv_fill``'s value: ``-log1p(-U)``."""
    return -prims.log1p(-prims.rng_next_double(rng))


def exponential_inv_f(rng):
    """``random_standard_exponential_inv_fill_f``'s value: ``-log1p(-U)`` of a
    float ``U`` computed in double, rounded to float32."""
    return np.float32(-prims.log1p(-float(next_float(rng))))


def standard_gamma_f(rng, shape):
    """``random_standard_gamma_f`` (``shape`` a float32)."""
    one = np.float32(1.0)
    if shape == one:
        return standard_exponential_f(rng)
    if shape == np.float32(0.0):
        return np.float32(0.0)
    if shape < one:
        inv = one / shape
        while True:
            u = next_float(rng)
            v = standard_exponential_f(rng)
            if u <= one - shape:
                x = prims.pow(u, inv)
                if x <= v:
                    return x
            else:
                y = -prims.log((one - u) / shape)
                x = prims.pow(one - shape + shape * y, inv)
                if x <= v + y:
                    return x
    b = shape - one / np.float32(3.0)
    c = one / np.sqrt(np.float32(9.0) * b)
    while True:
        x = standard_normal_f(rng)
        v = one + c * x
        while v <= np.float32(0.0):
            x = standard_normal_f(rng)
            v = one + c * x
        v = v * v * v
        u = next_float(rng)
        if u < one - np.float32(0.0331) * (x * x) * (x * x):
            return b * v
        if prims.log(u) < np.float32(0.5) * x * x + b * (one - v + prims.log(v)):
            return b * v


# ------------------------------------------------- scalar forms and size= fills
def standard_normal_f_scalar(rng):
    return float(standard_normal_f(rng))


def fill_standard_normal_f(rng, out):
    for i in range(out.shape[0]):
        out[i] = standard_normal_f(rng)


def standard_exponential_f_scalar(rng):
    return float(standard_exponential_f(rng))


def fill_standard_exponential_f(rng, out):
    for i in range(out.shape[0]):
        out[i] = standard_exponential_f(rng)


def fill_exponential_inv(rng, out):
    for i in range(out.shape[0]):
        out[i] = exponential_inv(rng)


def exponential_inv_f_scalar(rng):
    return float(exponential_inv_f(rng))


def fill_exponential_inv_f(rng, out):
    for i in range(out.shape[0]):
        out[i] = exponential_inv_f(rng)


def check_shape_f(shape):
    """``cont_f``'s check: the shape rounded to float32, CONS_NON_NEGATIVE."""
    non_negative(float(np.float32(shape)), "shape")


def standard_gamma_f_scalar(rng, shape):
    check_shape_f(shape)
    return float(standard_gamma_f(rng, np.float32(shape)))


def fill_standard_gamma_f(rng, out, shape):
    s = np.float32(shape)
    for i in range(out.shape[0]):
        out[i] = standard_gamma_f(rng, s)


def standard_gamma_scalar(rng, shape):
    non_negative(shape, "shape")
    return standard_gamma_draw(rng, shape)


def fill_standard_gamma(rng, out, shape):
    for i in range(out.shape[0]):
        out[i] = standard_gamma_draw(rng, shape)


def standard_exponential_scalar(rng):
    return standard_exponential(rng)
