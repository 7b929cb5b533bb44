"""Python's ``random`` module, compiled by hanajit (``lib/random/python_random.py``).

Every function takes ``obj``, the address of a ``random.Random`` (the global
one behind ``random.random`` ..., or an argument), and works on its Mersenne
Twister in place (``prims.pyrandom_mt``: element 0 is ``index``, 1..624 the
state) exactly as CPython's ``Modules/_randommodule.c`` does: ``genrand_uint32``,
``random()`` as ``genrand_res53``, ``getrandbits`` filling 32-bit words from
the least significant up, ``seed`` of an int as ``init_by_array`` of its
absolute value's 32-bit words.  ``randrange``, ``randint``, ``uniform``,
``gauss``, ``normalvariate``, ``expovariate``, ``choice`` and ``shuffle`` are
``Lib/random.py``'s code (3.10-3.13), with
``_randbelow_with_getrandbits``'s rejection, its messages (3.12 changed those of
``randrange``) and ``gauss_next`` read and written through the instance
(``prims.pyrandom_gauss_*``).  Unsigned arithmetic is ``uint64`` (wrapping), so
ranges up to ``2**64`` need no wider integers.
"""
import sys

import numpy as np

from .. import prims
from ..python.helpers import Deopt

NEW_MESSAGES = sys.version_info >= (3, 12)
TWOPI = 6.283185307179586                      # random.TWOPI
NV_MAGICCONST = 1.7155277699214135             # random.NV_MAGICCONST
UPPER = np.uint64(0x80000000)
LOWER = np.uint64(0x7FFFFFFF)
MATRIX_A = np.uint64(0x9908B0DF)
M32 = np.uint64(0xFFFFFFFF)


# ----------------------------------------------------------------- the twister
def _twist(mt):
    """The 624 new words of ``genrand_uint32`` (state word ``c`` is ``mt[c + 1]``)."""
    for c in range(227):                          # N - M
        y = (np.uint64(mt[c + 1]) & UPPER) | (np.uint64(mt[c + 2]) & LOWER)
        mt[c + 1] = np.uint64(mt[c + 398]) ^ (y >> np.uint64(1)) ^ (
            MATRIX_A * (y & np.uint64(1)))
    for c in range(227, 623):
        y = (np.uint64(mt[c + 1]) & UPPER) | (np.uint64(mt[c + 2]) & LOWER)
        mt[c + 1] = np.uint64(mt[c - 226]) ^ (y >> np.uint64(1)) ^ (
            MATRIX_A * (y & np.uint64(1)))
    y = (np.uint64(mt[624]) & UPPER) | (np.uint64(mt[1]) & LOWER)
    mt[624] = np.uint64(mt[397]) ^ (y >> np.uint64(1)) ^ (MATRIX_A * (y & np.uint64(1)))
    mt[0] = 0


def genrand(mt):
    """``genrand_uint32``: the next tempered word (a uint64 below ``2**32``)."""
    if mt[0] >= 624:
        _twist(mt)
    i = np.int64(mt[0])
    y = np.uint64(mt[i + 1])
    mt[0] = i + 1
    y = y ^ (y >> np.uint64(11))
    y = y ^ ((y << np.uint64(7)) & np.uint64(0x9D2C5680))
    y = y ^ ((y << np.uint64(15)) & np.uint64(0xEFC60000))
    return y ^ (y >> np.uint64(18))


def _res53(mt):
    a = genrand(mt) >> np.uint64(5)
    b = genrand(mt) >> np.uint64(6)
    return (float(a) * 67108864.0 + float(b)) * (1.0 / 9007199254740992.0)


def _bits(mt, k):
    """``getrandbits(k)`` for ``0 < k <= 64`` as a uint64."""
    if k <= 32:
        return genrand(mt) >> np.uint64(32 - k)
    lo = genrand(mt)
    return lo | ((genrand(mt) >> np.uint64(64 - k)) << np.uint64(32))


def _below(mt, n):
    """``_randbelow_with_getrandbits(n)`` for a uint64 ``n > 0``."""
    k = 0
    m = n
    while m != np.uint64(0):
        k += 1
        m = m >> np.uint64(1)
    r = _bits(mt, k)
    while r >= n:
        r = _bits(mt, k)
    return r


def _below_2_64(mt):
    """``_randbelow(2**64)`` (``randint`` of the whole int64 range): 65 bits,
    rejected while the top one is set."""
    while True:
        lo = genrand(mt)
        hi = genrand(mt)
        if genrand(mt) >> np.uint64(31) == np.uint64(0):
            return lo | (hi << np.uint64(32))


# -------------------------------------------------------------------- methods
def global_address():
    return prims.pyrandom_global()[0]


def random(obj):
    return _res53(prims.pyrandom_mt(obj))


def getrandbits(obj, k):
    """``getrandbits(k)`` as an int64 (``k`` at most 63, else the value may not fit)."""
    if k < 0:
        raise ValueError("number of bits must be non-negative")
    if k > 63:
        raise Deopt("getrandbits() of more than 63 bits known only at run time")
    if k == 0:
        return 0
    return prims.as_int64(_bits(prims.pyrandom_mt(obj), k))


def getrandbits64(obj):
    return _bits(prims.pyrandom_mt(obj), 64)


def uniform_float(obj, a, b):
    return a + (b - a) * _res53(prims.pyrandom_mt(obj))


def uniform_int(obj, a, b):
    """``a + (b - a) * random()`` for ints: ``b - a`` exact, then rounded once."""
    if a <= b:
        d = float(prims.as_uint64(b) - prims.as_uint64(a))
    else:
        d = -float(prims.as_uint64(a) - prims.as_uint64(b))
    return float(a) + d * _res53(prims.pyrandom_mt(obj))


def _empty(start, stop):
    if NEW_MESSAGES:
        raise ValueError(f"empty range in randrange({start}, {stop})")
    w = stop - start                  # <= 0, unless it wrapped past -2**63
    if w > 0:                         # -(start - stop), exact in uint64
        u = prims.as_uint64(start) - prims.as_uint64(stop)
        raise ValueError(f"empty range for randrange() ({start}, {stop}, -{u})")
    raise ValueError(f"empty range for randrange() ({start}, {stop}, {w})")


def randrange1(obj, start):
    if start > 0:
        return prims.as_int64(_below(prims.pyrandom_mt(obj), prims.as_uint64(start)))
    raise ValueError("empty range for randrange()")


def randrange2(obj, start, stop):
    if stop > start:
        width = prims.as_uint64(stop) - prims.as_uint64(start)
        return prims.as_int64(prims.as_uint64(start) + _below(prims.pyrandom_mt(obj), width))
    _empty(start, stop)
    return 0


def randrange3(obj, start, stop, step):
    if step == 1:
        return randrange2(obj, start, stop)
    ustart, ustop, ustep = prims.as_uint64(start), prims.as_uint64(stop), prims.as_uint64(step)
    n = np.uint64(0)
    if step > 0:
        if stop > start:
            n = (ustop - ustart - np.uint64(1)) // ustep + np.uint64(1)
    elif step < 0:
        if stop < start:
            n = (ustart - ustop - np.uint64(1)) // (np.uint64(0) - ustep) + np.uint64(1)
    else:
        raise ValueError("zero step for randrange()")
    if n == np.uint64(0):
        if NEW_MESSAGES:
            raise ValueError(f"empty range in randrange({start}, {stop}, {step})")
        raise ValueError("empty range for randrange()")
    return prims.as_int64(ustart + ustep * _below(prims.pyrandom_mt(obj), n))


def randint(obj, a, b):
    """``randrange(a, b + 1)``, with ``b + 1`` never formed past int64."""
    if b < a:
        _empty(a, b + 1)
    width = prims.as_uint64(b) - prims.as_uint64(a) + np.uint64(1)
    mt = prims.pyrandom_mt(obj)
    if width == np.uint64(0):
        return prims.as_int64(prims.as_uint64(a) + _below_2_64(mt))
    return prims.as_int64(prims.as_uint64(a) + _below(mt, width))


def gauss(obj, mu, sigma):
    has = prims.pyrandom_gauss_has(obj)
    if has == 2:
        raise Deopt("gauss(): gauss_next is neither a float nor None")
    if has == 1:
        z = prims.pyrandom_gauss_value(obj)
        prims.pyrandom_gauss_set(obj, 0, 0.0)
    else:
        mt = prims.pyrandom_mt(obj)
        x2pi = _res53(mt) * TWOPI
        g2rad = np.sqrt(-2.0 * prims.log(1.0 - _res53(mt)))
        z = prims.cos(x2pi) * g2rad
        prims.pyrandom_gauss_set(obj, 1, prims.sin(x2pi) * g2rad)
    return mu + z * sigma


def normalvariate(obj, mu, sigma):
    mt = prims.pyrandom_mt(obj)
    while True:
        u1 = _res53(mt)
        u2 = 1.0 - _res53(mt)
        z = NV_MAGICCONST * (u1 - 0.5) / u2
        zz = z * z / 4.0
        if zz <= -prims.log(u2):
            break
    return mu + z * sigma


def expovariate(obj, lambd):
    return -prims.log(1.0 - _res53(prims.pyrandom_mt(obj))) / lambd


def choice(obj, seq):
    n = len(seq)
    if n == 0:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[prims.as_int64(_below(prims.pyrandom_mt(obj), prims.as_uint64(n)))]


def shuffle(obj, x):
    """``for i in reversed(range(1, len(x))): j = randbelow(i + 1); swap``."""
    mt = prims.pyrandom_mt(obj)
    for i in range(len(x) - 1, 0, -1):
        j = prims.as_int64(_below(mt, prims.as_uint64(i + 1)))
        t = x[i]
        x[i] = x[j]
        x[j] = t


def seed(obj, a):
    """``Random.seed(a)`` of an int: ``init_by_array`` on the 32-bit words of
    ``abs(a)`` (one or two), then ``gauss_next = None``."""
    n = prims.as_uint64(a)
    if a < 0:
        n = np.uint64(0) - n
    k0 = n & M32
    k1 = n >> np.uint64(32)
    nkey = 2 if k1 != np.uint64(0) else 1
    mt = prims.pyrandom_mt(obj)
    x = np.uint64(19650218)
    mt[1] = x
    for i in range(1, 624):                       # init_genrand(19650218)
        x = (np.uint64(1812433253) * (x ^ (x >> np.uint64(30))) + np.uint64(i)) & M32
        mt[i + 1] = x
    mt[0] = 624
    i = 1
    j = 0
    for _ in range(624):                          # max(N, key_length) with N = 624
        key = k0 if j == 0 else k1
        p = np.uint64(mt[i])                      # state word i - 1
        mt[i + 1] = ((np.uint64(mt[i + 1]) ^ ((p ^ (p >> np.uint64(30)))
                                             * np.uint64(1664525)))
                     + key + np.uint64(j)) & M32
        i += 1
        j += 1
        if i >= 624:
            mt[1] = mt[624]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(623):
        p = np.uint64(mt[i])
        mt[i + 1] = ((np.uint64(mt[i + 1]) ^ ((p ^ (p >> np.uint64(30)))
                                             * np.uint64(1566083941)))
                     - np.uint64(i)) & M32
        i += 1
        if i >= 624:
            mt[1] = mt[624]
            i = 1
    mt[1] = 0x80000000
    prims.pyrandom_gauss_set(obj, 0, 0.0)
