"""Array seeds of NumPy's legacy MT19937: ``np.random.seed(seed)``,
``RandomState.seed(seed)`` and ``np.random.RandomState(seed)`` of a 1-D integer
array or a tuple of ints, compiled by hanajit (``legacy.py``, ``random_state.py``).

``MT19937._legacy_seeding``: an array is squeezed first, so one of one item is
that int (``mt19937_seed``); otherwise (and a tuple always) the values are
checked -- "Seed must be non-empty", then "Seed must be between 0 and 2**32 - 1"
for any outside -- and fed to ``mt19937_init_by_array``, which starts from
``init_genrand(19650218)`` (position 624) and sets key 0 to ``0x80000000``.
The C code's unsigned long arithmetic is done in uint64 and masked to 32 bits,
which leaves the same low words.
"""
import numpy as np

from .. import prims
from .legacy_algorithms import new_block, seed

M32 = np.uint64(0xFFFFFFFF)
N = 624


def init_by_array(key, init):
    """``mt19937_init_by_array`` into ``key`` (625 uint32: key and position) of
    the int64 values ``init`` (each within ``[0, 2**32 - 1]``)."""
    n = init.shape[0]
    x = np.uint64(19650218)
    key[0] = x
    for mti in range(1, N):
        x = (np.uint64(1812433253) * (x ^ (x >> np.uint64(30))) + np.uint64(mti)) & M32
        key[mti] = x
    key[N] = N
    i = 1
    j = 0
    k = N if N > n else n
    while k > 0:
        prev = np.uint64(key[i - 1])
        key[i] = ((np.uint64(key[i]) ^ ((prev ^ (prev >> np.uint64(30)))
                                        * np.uint64(1664525)))
                  + prims.as_uint64(init[j]) + np.uint64(j)) & M32
        i += 1
        j += 1
        if i >= N:
            key[0] = key[N - 1]
            i = 1
        if j >= n:
            j = 0
        k -= 1
    for k in range(N - 1, 0, -1):
        prev = np.uint64(key[i - 1])
        key[i] = ((np.uint64(key[i]) ^ ((prev ^ (prev >> np.uint64(30)))
                                        * np.uint64(1566083941)))
                  - np.uint64(i)) & M32
        i += 1
        if i >= N:
            key[0] = key[N - 1]
            i = 1
    key[0] = 0x80000000


def _check_values(values):
    if values.shape[0] == 0:
        raise ValueError("Seed must be non-empty")
    for v in range(values.shape[0]):
        if values[v] > 4294967295 or values[v] < 0:
            raise ValueError("Seed must be between 0 and 2**32 - 1")


def _by_array(st, values):
    """``_legacy_seeding``'s array path on the MT19937 of ``st``, then the
    cached Gaussian dropped (``RandomState.seed``'s ``_reset_gauss``)."""
    words = prims.legacy_words(st)
    tag = prims.legacy_mt19937_tag()
    if words[3] != tag[0]:
        raise TypeError("can only re-seed a MT19937 BitGenerator")
    _check_values(values)
    init_by_array(prims.mt19937_key(words[0]), values)
    prims.legacy_flags(st)[2] = 0
    prims.legacy_cache(st)[2] = 0.0


def seed_array(st, a):
    """A 1-D integer array: squeezed, so one item is the int seed."""
    if a.shape[0] == 1:
        seed(st, np.int64(a[0]))
        return
    _by_array(st, a.astype(np.int64))


def seed_tuple(st, a):
    """A tuple of ints: always the array path."""
    _by_array(st, np.array(a, dtype=np.int64))


def randomstate_block_array(a):
    """``np.random.RandomState(a)`` of a 1-D integer array."""
    words = new_block()
    seed_array(prims.address(words) + 32, a)
    return words


def randomstate_block_tuple(a):
    """``np.random.RandomState(a)`` of a tuple of ints."""
    words = new_block()
    seed_tuple(prims.address(words) + 32, a)
    return words
