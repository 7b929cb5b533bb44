"""NumPy's legacy ``np.random.*`` functions (the global ``RandomState``), compiled
by hanajit (``lib/random/legacy.py``).

Each call reads the global ``RandomState``'s bit generator words afresh
(``prims.make_generator(prims.legacy_bitgen())``: ``np.random.seed`` and
``set_state`` change the state in place) and draws through them as
``distributions`` does.  The legacy Gaussian is ``legacy_gauss`` of ``numpy/random/src/legacy/legacy-distributions.c``:
the polar method, which makes two values and keeps the second in the
``RandomState``'s own ``has_gauss``/``gauss`` fields -- read and written here in
place, so compiled and interpreted calls share the cached value.
``randint`` is ``_rand_int64`` with NumPy's masked rejection (``interval``).
"""
import numpy as np

from .. import prims
from .distributions import interval


def gauss():
    flags = prims.legacy_aug_ints()      # element 2: has_gauss (an int)
    cache = prims.legacy_aug_floats()    # element 2: gauss
    if flags[2] != 0:
        temp = cache[2]
        flags[2] = 0
        cache[2] = 0.0
        return temp
    rng = prims.make_generator(prims.legacy_bitgen())
    while True:
        u = prims.rng_next_double(rng)
        x1 = 2.0 * u - 1.0
        v = prims.rng_next_double(rng)
        x2 = 2.0 * v - 1.0
        r2 = x1 * x1 + x2 * x2
        if not (r2 >= 1.0 or r2 == 0.0):
            break
    f = np.sqrt(-2.0 * prims.log(r2) / r2)
    cache[2] = f * x1
    flags[2] = 1
    return f * x2


def random():
    return prims.rng_next_double(prims.make_generator(prims.legacy_bitgen()))


def normal(loc, scale):
    if scale == scale and prims.copysign(1.0, scale) < 0.0:
        raise ValueError("scale < 0")
    return loc + scale * gauss()


def check_uniform(low, high):
    if not prims.fabs(high - low) < np.inf:
        raise OverflowError("Range exceeds valid bounds")


def uniform(low, high):
    check_uniform(low, high)
    u = prims.rng_next_double(prims.make_generator(prims.legacy_bitgen()))
    return low + (high - low) * u


def _bounds(low, high):
    if low >= high:
        if low == 0:
            raise ValueError("high <= 0")
        raise ValueError("low >= high")


def randint(low, high):
    _bounds(low, high)
    off = prims.as_uint64(low)
    r = prims.as_uint64(high - 1) - off
    rng = prims.make_generator(prims.legacy_bitgen())
    return prims.as_int64(off + interval(rng, r))


# size= forms: the new array's elements in order (checks first, as NumPy)
def fill_random(out):
    rng = prims.make_generator(prims.legacy_bitgen())
    for i in range(out.shape[0]):
        out[i] = prims.rng_next_double(rng)


def fill_gauss(out):
    for i in range(out.shape[0]):
        out[i] = gauss()


def fill_normal(out, loc, scale):
    if scale == scale and prims.copysign(1.0, scale) < 0.0:
        raise ValueError("scale < 0")
    for i in range(out.shape[0]):
        out[i] = loc + scale * gauss()


def fill_uniform(out, low, high):
    span = high - low
    rng = prims.make_generator(prims.legacy_bitgen())
    for i in range(out.shape[0]):
        out[i] = low + span * prims.rng_next_double(rng)


def fill_randint(out, low, high):
    if out.shape[0] == 0:
        return
    _bounds(low, high)
    off = prims.as_uint64(low)
    r = prims.as_uint64(high - 1) - off
    rng = prims.make_generator(prims.legacy_bitgen())
    for i in range(out.shape[0]):
        out[i] = prims.as_int64(off + interval(rng, r))


def seed(s):
    """``RandomState.seed(s)`` for an int: ``mt19937_seed`` (Knuth's generator
    filling the 624 words, ``pos = 624``) on the global MT19937's state, then
    ``_reset_gauss``; NumPy's TypeError when the global bit generator is not an
    MT19937 and ValueError for a seed outside ``[0, 2**32 - 1]``."""
    words = prims.legacy_bitgen()
    tag = prims.legacy_mt19937_tag()
    if words[3] != tag[0]:
        raise TypeError("can only re-seed a MT19937 BitGenerator")
    if s < 0 or s > 4294967295:
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    key = prims.mt19937_key(words[0])
    x = prims.as_uint64(s)
    for pos in range(624):
        key[pos] = x
        x = (np.uint64(1812433253) * (x ^ (x >> np.uint64(30))) + np.uint64(pos + 1)) \
            & np.uint64(0xFFFFFFFF)
    key[624] = 624
    flags = prims.legacy_aug_ints()
    cache = prims.legacy_aug_floats()
    flags[2] = 0
    cache[2] = 0.0
