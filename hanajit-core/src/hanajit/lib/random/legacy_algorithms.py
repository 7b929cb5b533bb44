"""NumPy's legacy ``np.random.*`` functions and ``RandomState`` methods, compiled
by hanajit (``lib/random/legacy.py``, ``random_state.py``).

Every helper takes ``st``, the address of the ``RandomState``'s ``bitgen_t``
copy (the global one's, a ``RandomState`` argument's, or one made in the
function), reads its bit generator words afresh
(``prims.make_generator(prims.legacy_words(st))``: ``seed`` and ``set_state``
change the state in place) and draws through them as ``distributions`` does.
The legacy Gaussian is ``legacy_gauss`` of
``numpy/random/src/legacy/legacy-distributions.c``: the polar method, which
makes two values and keeps the second in the ``RandomState``'s own
``has_gauss``/``gauss`` fields -- read and written here in place, so compiled
and interpreted calls share the cached value.  ``randint`` is ``_rand_int64``
with NumPy's masked rejection (``interval``).
"""
import numpy as np

from .. import prims
from .distributions import interval
from .seed_algorithms import INIT_B, entropy_pool, os_entropy, state_word


def gauss(st):
    flags = prims.legacy_flags(st)      # element 2: has_gauss (an int)
    cache = prims.legacy_cache(st)      # element 2: gauss
    if flags[2] != 0:
        temp = cache[2]
        flags[2] = 0
        cache[2] = 0.0
        return temp
    rng = prims.make_generator(prims.legacy_words(st))
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


def random(st):
    return prims.rng_next_double(prims.make_generator(prims.legacy_words(st)))


def normal(st, loc, scale):
    if scale == scale and prims.copysign(1.0, scale) < 0.0:
        raise ValueError("scale < 0")
    return loc + scale * gauss(st)


def check_uniform(low, high):
    if not prims.fabs(high - low) < np.inf:
        raise OverflowError("Range exceeds valid bounds")


def uniform(st, low, high):
    check_uniform(low, high)
    u = prims.rng_next_double(prims.make_generator(prims.legacy_words(st)))
    return low + (high - low) * u


def _bounds(low, high):
    if low >= high:
        if low == 0:
            raise ValueError("high <= 0")
        raise ValueError("low >= high")


def randint(st, low, high):
    _bounds(low, high)
    off = prims.as_uint64(low)
    r = prims.as_uint64(high - 1) - off
    rng = prims.make_generator(prims.legacy_words(st))
    return prims.as_int64(off + interval(rng, r))


# size= forms: the new array's elements in order (checks first, as NumPy)
def fill_random(st, out):
    rng = prims.make_generator(prims.legacy_words(st))
    for i in range(out.shape[0]):
        out[i] = prims.rng_next_double(rng)


def fill_gauss(st, out):
    for i in range(out.shape[0]):
        out[i] = gauss(st)


def fill_normal(st, out, loc, scale):
    if scale == scale and prims.copysign(1.0, scale) < 0.0:
        raise ValueError("scale < 0")
    for i in range(out.shape[0]):
        out[i] = loc + scale * gauss(st)


def fill_uniform(st, out, low, high):
    span = high - low
    rng = prims.make_generator(prims.legacy_words(st))
    for i in range(out.shape[0]):
        out[i] = low + span * prims.rng_next_double(rng)


def fill_randint(st, out, low, high):
    if out.shape[0] == 0:
        return
    _bounds(low, high)
    off = prims.as_uint64(low)
    r = prims.as_uint64(high - 1) - off
    rng = prims.make_generator(prims.legacy_words(st))
    for i in range(out.shape[0]):
        out[i] = prims.as_int64(off + interval(rng, r))


def seed(st, s):
    """``RandomState.seed(s)`` for an int: ``mt19937_seed`` (Knuth's generator
    filling the 624 words, ``pos = 624``) on the RandomState's MT19937 state,
    then ``_reset_gauss``; NumPy's TypeError when its bit generator is not an
    MT19937 and ValueError for a seed outside ``[0, 2**32 - 1]``."""
    words = prims.legacy_words(st)
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
    flags = prims.legacy_flags(st)
    cache = prims.legacy_cache(st)
    flags[2] = 0
    cache[2] = 0.0


# ---------------------------------------- a RandomState made in the function
# An int64 block: the RandomState value's words (word 0: the address of word 4),
# the bitgen_t (state pointer to word 12, MT19937's four functions), the
# aug_bitgen_t (the bitgen_t's address, has_gauss, gauss), then mt19937_state
# (624 uint32 key words and the int position)
BLOCK_WORDS = 325


def new_block():
    """A RandomState block of MT19937, its state not yet written."""
    words = np.zeros(BLOCK_WORDS, np.int64)
    base = prims.address(words)
    fns = prims.legacy_mt19937_functions()
    words[0] = base + 32
    words[4] = base + 96
    for k in range(4):
        words[5 + k] = fns[k]
    words[9] = base + 32
    return words


def randomstate_block(s):
    """``np.random.RandomState(s)`` of an int: ``_legacy_seeding`` (NumPy's
    ValueError outside ``[0, 2**32 - 1]``)."""
    words = new_block()
    seed(prims.address(words) + 32, s)
    return words


def randomstate_entropy_words(e0, e1, e2, e3):
    """``MT19937(SeedSequence(entropy))`` of the four 32-bit entropy words (as
    uint64): key 0 is ``0x80000000``, the others ``generate_state(624)``'s words
    1 to 623, and the position 623, as ``MT19937.__init__`` leaves them."""
    words = new_block()
    key = prims.mt19937_key(prims.address(words) + 96)
    pool = entropy_pool(e0, e1, e2, e3)
    h = np.uint64(INIT_B)
    for i in range(624):
        d, h = state_word(pool, i, h)
        key[i] = d
    key[0] = 0x80000000
    key[624] = 623
    return words


def randomstate_entropy():
    """``np.random.RandomState()``: ``SeedSequence()``'s entropy from the OS."""
    e0, e1, e2, e3 = os_entropy()
    return randomstate_entropy_words(e0, e1, e2, e3)


# ------------------------------------------------ tomaxint and random_integers
def tomaxint(st):
    """``random_positive_int``: the top 63 bits of one 64-bit word."""
    rng = prims.make_generator(prims.legacy_words(st))
    return prims.as_int64(prims.rng_next_uint64(rng) >> np.uint64(1))


def fill_tomaxint(st, out):
    rng = prims.make_generator(prims.legacy_words(st))
    for i in range(out.shape[0]):
        out[i] = prims.as_int64(prims.rng_next_uint64(rng) >> np.uint64(1))


def _closed_bounds(low, high):
    """``randint(low, high + 1)``'s checks (``high + 1`` may pass int64's top)."""
    if high < 9223372036854775807:
        _bounds(low, high + 1)


def warn_random_integers(low, high):
    """``random_integers(low, high)``'s DeprecationWarning."""
    if prims.warn("DeprecationWarning", "This function is deprecated. Please call "
                  "randint({}, {} + 1) instead", low, high) != 0:
        raise DeprecationWarning(f"This function is deprecated. Please call "
                                 f"randint({low}, {high} + 1) instead")


def warn_random_integers_high(high):
    """``random_integers(high)``'s DeprecationWarning."""
    if prims.warn("DeprecationWarning", "This function is deprecated. Please call "
                  "randint(1, {} + 1) instead", high) != 0:
        raise DeprecationWarning(f"This function is deprecated. Please call "
                                 f"randint(1, {high} + 1) instead")


def random_integers(st, low, high):
    """``randint(low, high + 1, dtype='l')`` of ``[low, high]``."""
    _closed_bounds(low, high)
    off = prims.as_uint64(low)
    r = prims.as_uint64(high) - off
    rng = prims.make_generator(prims.legacy_words(st))
    return prims.as_int64(off + interval(rng, r))


def check_random_integers(low, high, count):
    """``_rand_int64``'s checks before a ``size`` array is made: none when it
    has no items (``np.prod(size) == 0``), so a negative dimension is reported
    after them."""
    if count != 0:
        _closed_bounds(low, high)


def fill_random_integers(st, out, low, high):
    """Each element of ``out`` (the bounds checked before)."""
    off = prims.as_uint64(low)
    r = prims.as_uint64(high) - off
    rng = prims.make_generator(prims.legacy_words(st))
    for i in range(out.shape[0]):
        out[i] = prims.as_int64(off + interval(rng, r))
