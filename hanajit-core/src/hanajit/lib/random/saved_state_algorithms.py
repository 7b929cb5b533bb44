"""``RandomState.get_state()`` and ``set_state(state)`` of an MT19937 state,
compiled by hanajit (``saved_state.py``).

The saved state is an int64 block the function owns: word 0 its own address
(the ``SavedRandomStateType`` value's word 0), then from byte 32 MT19937's
``uint32_t key[624]; int pos`` as ``mt19937_key`` views it, then the cached
Gaussian: ``has_gauss`` and ``gauss`` where ``legacy_flags``/``legacy_cache``
of the address ``block + GAUSS_AT`` find them (words 317 and 318).

``st`` is the address of a ``RandomState``'s ``bitgen_t`` copy.  Its bit
generator is an MT19937 when its ``next_double`` is MT19937's (the ``seed``
test).  Another one makes NumPy's ``get_state`` warn and return a dict: the
call deoptimises, which the compiler allows only where nothing can have been
drawn, written or printed before (``saved_state.py``).  ``set_state`` into
another of NumPy's bit generators raises its ValueError (after the cached
Gaussian is written, as NumPy's); a bit generator from outside NumPy there
deoptimises.
"""
import numpy as np

from .. import prims
from ..python.helpers import Deopt

SAVED_WORDS = 319
GAUSS_AT = 8 * 311          # legacy_flags(.)[2] is word 317, legacy_cache(.)[2] 318


def is_mt19937(st):
    """Is the ``RandomState``'s bit generator an MT19937?"""
    return prims.legacy_words(st)[3] == prims.legacy_mt19937_tag()[0]


def get_state(st):
    """A new saved state of the ``RandomState`` at ``st`` (an MT19937)."""
    words = prims.legacy_words(st)
    block = np.zeros(SAVED_WORDS, np.int64)
    base = prims.address(block)
    block[0] = base
    source = prims.mt19937_key(words[0])
    copy = prims.mt19937_key(base + 32)
    for i in range(625):
        copy[i] = source[i]
    prims.legacy_flags(base + GAUSS_AT)[2] = prims.legacy_flags(st)[2]
    prims.legacy_cache(base + GAUSS_AT)[2] = prims.legacy_cache(st)[2]
    return block


def set_state(st, base):
    """``set_state`` of the saved state at ``base``: the cached Gaussian, then
    the MT19937 key and position, as ``mtrand.pyx`` writes them (another of
    NumPy's bit generators refuses the MT19937 state with its own message)."""
    prims.legacy_cache(st)[2] = prims.legacy_cache(base + GAUSS_AT)[2]
    prims.legacy_flags(st)[2] = prims.legacy_flags(base + GAUSS_AT)[2]
    words = prims.legacy_words(st)
    tag = prims.legacy_mt19937_tag()
    if words[3] != tag[0]:
        other = prims.legacy_bitgen_tags()
        if words[3] == other[0]:
            raise ValueError("state must be for a PCG64 RNG")
        if words[3] == other[1]:
            raise ValueError("state must be for a PCG64DXSM RNG")
        if words[3] == other[2]:
            raise ValueError("state must be for a Philox PRNG")
        if words[3] == other[3]:        # (NumPy's message is not an f-string)
            raise ValueError("state must be for a {self.__class__.__name__} RNG")
        raise Deopt("set_state() of a RandomState whose bit generator is not one of "
                    "NumPy's")
    source = prims.mt19937_key(base + 32)
    target = prims.mt19937_key(words[0])
    for i in range(625):
        target[i] = source[i]
