"""NumPy's random distributions, ported from its C sources and compiled by hanajit.

Every function takes a ``GeneratorType`` value ``rng`` and draws through its bit
generator with ``prims.rng_next_uint64`` / ``rng_next_uint32`` /
``rng_next_double`` (one ``RandomBits`` each, in statement order), so a compiled
call consumes exactly the words ``np.random.Generator``'s own method consumes and
leaves the bit generator in the same state.  The algorithms follow
``numpy/random/src/distributions/distributions.c`` (NumPy 2) step for step: the
ziggurat normal and exponential (tables in ``ziggurat.py``), the bounded
integers of ``Generator.integers`` (Lemire's method, the 32-bit generator for
ranges below ``2**32``), and the argument checks of ``_generator.pyx`` with its
messages.  Unsigned arithmetic is NumPy's ``uint64`` (wrapping); ``prims.as_*``
reinterpret bits between int64 and uint64 as C's casts do.
"""
import numpy as np

from .. import prims
from .ziggurat import EXP_R, FE, FI, KE, KI, NOR_INV_R, NOR_R, WE, WI


# ------------------------------------------------------------------ continuous
def standard_normal(rng):
    """``random_standard_normal``: the 256-layer ziggurat on one uint64 (8 bits
    of layer, 1 of sign, 52 of magnitude); the tail by Marsaglia's method."""
    while True:
        r = prims.rng_next_uint64(rng)
        idx = prims.as_int64(r & np.uint64(0xFF))
        r = r >> np.uint64(8)
        sign = prims.as_int64(r & np.uint64(1))
        rabs = prims.as_int64((r >> np.uint64(1)) & np.uint64(0x000FFFFFFFFFFFFF))
        x = float(rabs) * WI[idx]          # rabs < 2**52: exact
        if sign == 1:
            x = -x
        if rabs < KI[idx]:
            return x
        if idx == 0:
            while True:
                # 1 - U avoids log(0) (NumPy's GH 13361)
                u = prims.rng_next_double(rng)
                xx = -NOR_INV_R * prims.log1p(-u)
                v = prims.rng_next_double(rng)
                yy = -prims.log1p(-v)
                if yy + yy > xx * xx:
                    if (rabs >> 8) & 1 == 1:
                        return -(NOR_R + xx)
                    return NOR_R + xx
        else:
            u = prims.rng_next_double(rng)
            if (FI[idx - 1] - FI[idx]) * u + FI[idx] < prims.exp(-0.5 * x * x):
                return x


def standard_exponential(rng):
    """``random_standard_exponential``: the ziggurat on one uint64 (3 bits
    dropped, 8 of layer, 53 of magnitude); NumPy's recursion is this loop."""
    while True:
        ri = prims.rng_next_uint64(rng) >> np.uint64(3)
        idx = prims.as_int64(ri & np.uint64(0xFF))
        n = prims.as_int64(ri >> np.uint64(8))
        x = float(n) * WE[idx]             # n < 2**53: exact
        if n < KE[idx]:
            return x
        if idx == 0:
            u = prims.rng_next_double(rng)
            return EXP_R - prims.log1p(-u)
        u = prims.rng_next_double(rng)
        if (FE[idx - 1] - FE[idx]) * u + FE[idx] < prims.exp(-x):
            return x


def _check_non_negative_scale(scale):
    # CONS_NON_NEGATIVE: a sign bit set on a number (-0.0 too), never NaN
    if scale == scale and prims.copysign(1.0, scale) < 0.0:
        raise ValueError("scale < 0")


def normal(rng, loc, scale):
    _check_non_negative_scale(scale)
    return loc + scale * standard_normal(rng)


def exponential(rng, scale):
    _check_non_negative_scale(scale)
    return scale * standard_exponential(rng)


def uniform(rng, low, high):
    """``Generator.uniform``: ``low + (high - low) * U``, after NumPy's checks."""
    span = high - low
    if not prims.fabs(span) < np.inf:
        raise OverflowError("high - low range exceeds valid bounds")
    if prims.copysign(1.0, span) < 0.0:
        raise ValueError("high - low < 0")
    u = prims.rng_next_double(rng)
    return low + span * u


# -------------------------------------------------------------------- integers
def _mulhi(x, y):
    """The high 64 bits of the 128-bit product of two uint64 (NumPy's fallback
    for compilers without ``__uint128_t``, which gives the same bits)."""
    mask = np.uint64(0xFFFFFFFF)
    x0 = x & mask
    x1 = x >> np.uint64(32)
    y0 = y & mask
    y1 = y >> np.uint64(32)
    w0 = x0 * y0
    t = x1 * y0 + (w0 >> np.uint64(32))
    w1 = t & mask
    w2 = t >> np.uint64(32)
    w1 = w1 + x0 * y1
    return x1 * y1 + w2 + (w1 >> np.uint64(32))


def _lemire32(rng, r):
    """``buffered_bounded_lemire_uint32`` for ``r < 0xFFFFFFFF`` (as a uint64)."""
    excl = r + np.uint64(1)
    m = np.uint64(prims.rng_next_uint32(rng)) * excl
    left = m & np.uint64(0xFFFFFFFF)
    if left < excl:
        threshold = (np.uint64(0xFFFFFFFF) - r) % excl
        while left < threshold:
            m = np.uint64(prims.rng_next_uint32(rng)) * excl
            left = m & np.uint64(0xFFFFFFFF)
    return m >> np.uint64(32)


def _lemire64(rng, r):
    """``bounded_lemire_uint64`` for ``0xFFFFFFFF < r < 2**64 - 1``."""
    excl = r + np.uint64(1)
    x = prims.rng_next_uint64(rng)
    left = x * excl                      # the low 64 bits of the product
    if left < excl:
        threshold = (prims.as_uint64(-1) - r) % excl
        while left < threshold:
            x = prims.rng_next_uint64(rng)
            left = x * excl
    return _mulhi(x, excl)


def bounded_uint64(rng, r):
    """``random_bounded_uint64`` with ``use_masked=False``: a uniform uint64 in
    ``[0, r]``."""
    if r == np.uint64(0):
        return r
    if r <= np.uint64(0xFFFFFFFF):
        if r == np.uint64(0xFFFFFFFF):
            return np.uint64(prims.rng_next_uint32(rng))
        return _lemire32(rng, r)
    if r == prims.as_uint64(-1):
        return prims.rng_next_uint64(rng)
    return _lemire64(rng, r)


def integers_top(low, high, closed):
    """``_rand_int64``'s bounds checks and messages; the inclusive upper bound."""
    if closed:
        if low > high:
            if low == 0:
                raise ValueError("high < 0")
            raise ValueError("low > high")
        return high
    if low >= high:
        if low == 0:
            raise ValueError("high <= 0")
        raise ValueError("low >= high")
    return high - 1


def check_integers(low, high, closed, count):
    """``integers_top``'s checks before a size's array is made (none for a size
    of no items: ``np.prod(size) == 0``)."""
    if count != 0:
        integers_top(low, high, closed)


def integers(rng, low, high, closed):
    """``Generator.integers(low, high, endpoint=closed)`` for int64: NumPy's
    bounds checks and messages (``_rand_int64``), then ``low`` plus a bounded
    draw on ``[0, high' - low]`` computed in uint64 (wrapping, as NumPy's
    casts)."""
    top = integers_top(low, high, closed)
    off = prims.as_uint64(low)
    return prims.as_int64(off + bounded_uint64(rng, prims.as_uint64(top) - off))


def interval(rng, top):
    """``random_interval``: a uniform uint64 in ``[0, top]`` by masked rejection
    (``shuffle``, ``permutation``), on ``next_uint32`` while ``top`` fits."""
    if top == np.uint64(0):
        return top
    mask = top
    mask = mask | (mask >> np.uint64(1))
    mask = mask | (mask >> np.uint64(2))
    mask = mask | (mask >> np.uint64(4))
    mask = mask | (mask >> np.uint64(8))
    mask = mask | (mask >> np.uint64(16))
    mask = mask | (mask >> np.uint64(32))
    if top <= np.uint64(0xFFFFFFFF):
        while True:
            value = np.uint64(prims.rng_next_uint32(rng)) & mask
            if value <= top:
                return value
    while True:
        value = prims.rng_next_uint64(rng) & mask
        if value <= top:
            return value


# ------------------------------------------------------------------- poisson
_LOGGAM = (8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
           -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
           6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
           -1.39243221690590e+00)
POISSON_LAM_MAX = 9.223372006484771e+18     # int64 max - sqrt(int64 max) * 10


def loggam(x):
    """``random_loggam``: log Gamma(x) for x > 0 (Stirling's series)."""
    if x == 1.0 or x == 2.0:
        return 0.0
    n = 0
    if x < 7.0:
        n = int(7.0 - x)
    x0 = x + n
    x2 = (1.0 / x0) * (1.0 / x0)
    gl0 = _LOGGAM[9]
    for k in range(8, -1, -1):
        gl0 = gl0 * x2
        gl0 = gl0 + _LOGGAM[k]
    gl = gl0 / x0 + 0.5 * 1.8378770664093453e+00 + (x0 - 0.5) * prims.log(x0) - x0
    if x < 7.0:
        for _ in range(n):
            gl = gl - prims.log(x0 - 1.0)
            x0 = x0 - 1.0
    return gl


def _poisson_mult(rng, lam):
    enlam = prims.exp(-lam)
    k = 0
    prod = 1.0
    while True:
        u = prims.rng_next_double(rng)
        prod = prod * u
        if prod > enlam:
            k += 1
        else:
            return k


def _poisson_ptrs(rng, lam):
    """Hörmann's transformed rejection with squeeze (PTRS), lam >= 10."""
    slam = np.sqrt(lam)
    loglam = prims.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = prims.rng_next_double(rng) - 0.5
        v = prims.rng_next_double(rng)
        us = 0.5 - prims.fabs(u)
        f = prims.floor((2 * a / us + b) * u + lam + 0.43)
        if not (f >= -9.223372036854775808e18 and f < 9.223372036854775808e18):
            continue        # beyond int64 C's cast gives INT64_MIN (k < 0): rejected
        k = int(f)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (prims.log(v) + prims.log(invalpha) - prims.log(a / (us * us) + b)) <= (
                -lam + k * loglam - loggam(k + 1.0)):
            return k


def check_poisson(lam):
    if not lam >= 0.0:
        raise ValueError("lam < 0 or lam is NaN")
    if not lam <= POISSON_LAM_MAX:
        raise ValueError("lam value too large")


def poisson_draw(rng, lam):
    """``random_poisson``: multiplication below 10, PTRS from 10 on."""
    if lam >= 10.0:
        return _poisson_ptrs(rng, lam)
    if lam == 0.0:
        return 0
    return _poisson_mult(rng, lam)


def poisson(rng, lam):
    check_poisson(lam)
    return poisson_draw(rng, lam)


# ------------------------------------------------------------- size= forms
# Each fills a new C-contiguous array (``out``, its elements in order) after the
# checks NumPy makes first; the draws are the scalar ones, in NumPy's order.
def check_scale(scale):
    _check_non_negative_scale(scale)


def check_scale2(loc, scale):
    _check_non_negative_scale(scale)


def check_uniform(low, high):
    span = high - low
    if not prims.fabs(span) < np.inf:
        raise OverflowError("high - low range exceeds valid bounds")
    if prims.copysign(1.0, span) < 0.0:
        raise ValueError("high - low < 0")


def fill_random(rng, out):
    for i in range(out.shape[0]):
        out[i] = prims.rng_next_double(rng)


def fill_standard_normal(rng, out):
    for i in range(out.shape[0]):
        out[i] = standard_normal(rng)


def fill_standard_exponential(rng, out):
    for i in range(out.shape[0]):
        out[i] = standard_exponential(rng)


def fill_normal(rng, out, loc, scale):
    for i in range(out.shape[0]):
        out[i] = loc + scale * standard_normal(rng)


def fill_exponential(rng, out, scale):
    for i in range(out.shape[0]):
        out[i] = scale * standard_exponential(rng)


def fill_uniform(rng, out, low, high):
    span = high - low
    for i in range(out.shape[0]):
        out[i] = low + span * prims.rng_next_double(rng)


def fill_poisson(rng, out, lam):
    for i in range(out.shape[0]):
        out[i] = poisson_draw(rng, lam)


def fill_integers(rng, out, low, high, closed):
    """``_rand_int64`` with a size: nothing at all for an empty size, else the
    scalar checks, then the bounded draws."""
    if out.shape[0] == 0:
        return
    top = integers_top(low, high, closed)
    off = prims.as_uint64(low)
    r = prims.as_uint64(top) - off
    for i in range(out.shape[0]):
        out[i] = prims.as_int64(off + bounded_uint64(rng, r))


# ---------------------------------------- shuffle, permutation (choice)
def shuffle(rng, x):
    """``_shuffle_raw`` on a 1-D array: swap ``x[i]`` with ``x[j]``, ``j`` a
    masked draw in ``[0, i]``, for ``i`` from ``n - 1`` down to 1."""
    for i in range(x.shape[0] - 1, 0, -1):
        j = prims.as_int64(interval(rng, prims.as_uint64(i)))
        t = x[i]
        x[i] = x[j]
        x[j] = t


def permutation_int(rng, n):
    x = np.arange(n)
    shuffle(rng, x)
    return x


def permutation_array(rng, a):
    x = a.copy()
    shuffle(rng, x)
    return x
