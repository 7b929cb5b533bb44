"""A PCG64 generator seeded inside a compiled function, bit for bit
``np.random.default_rng(seed)`` (``lib/random/local_generator.py``).

``default_rng(seed)`` is ``Generator(PCG64(SeedSequence(seed)))``:

* the seed's entropy is its 32-bit words, least significant first (a
  non-negative int below ``2**64``: at most two words; ``None``: 128 bits from
  the OS, four words) -- ``_coerce_to_uint32_array``;
* ``SeedSequence.mix_entropy`` hashes them into a pool of four 32-bit words
  (``hashmix`` and ``mix`` of ``numpy/random/bit_generator.pyx``; missing
  entropy words hash as 0, so shorter entropy is the same as zero-padded);
* ``generate_state(4, np.uint64)`` draws eight 32-bit words from the pool,
  paired little-endian into four uint64 ``v``;
* ``pcg64_set_seed`` takes ``state = v0:v1`` and ``inc = v2:v3`` (128-bit,
  high word first) into ``pcg_setseq_128_srandom_r``: ``inc = inc << 1 | 1``,
  then state ``0``, a step, ``+= state``, a step (``x * MULT + inc`` mod 2**128).

The result is an int64 array of 12 words: the generator's four words (state
pointer, NumPy's own PCG64 ``next_uint64``/``next_uint32``/``next_double``) and
the state block they point to, at a 16-byte boundary inside the same array:
``pcg64_state`` (a pointer to the 128-bit state, ``has_uint32``, ``uinteger``)
then ``pcg64_random_t`` (state and inc, each low word first), as NumPy lays them
out on this platform (``local_state.layout_ok``).  All 32-bit products are
formed in uint64 (no wrap); the 128-bit product uses 32-bit halves.
"""
import numpy as np

from .. import prims

_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_L = 0xCA01F9DD
_MIX_R = 0x4973F715
# PCG_DEFAULT_MULTIPLIER_128 as 32-bit halves of its high and low words
_MUL_HI = 2549297995355413924
_MUL_LO = 4865540595714422341


def _hashmix(value, h):
    """``hashmix``: the hashed word and the next hash constant."""
    m32 = np.uint64(0xFFFFFFFF)
    value = value ^ h
    h = (h * np.uint64(_MULT_A)) & m32
    value = (value * h) & m32
    return value ^ (value >> np.uint64(16)), h


def _mix(x, y):
    """``mix``: ``MIX_MULT_L * x - MIX_MULT_R * y`` in uint32, then a shift-xor."""
    m32 = np.uint64(0xFFFFFFFF)
    a = (np.uint64(_MIX_L) * x) & m32
    b = (np.uint64(_MIX_R) * y) & m32
    r = (a + np.uint64(0x100000000) - b) & m32
    return r ^ (r >> np.uint64(16))


def _mulhi(x, y):
    """The high word of the 128-bit product of two uint64."""
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    x0, x1 = x & m32, x >> s32
    y0, y1 = y & m32, y >> s32
    w0 = x0 * y0
    t = x1 * y0 + (w0 >> s32)
    w1 = (t & m32) + x0 * y1
    return x1 * y1 + (t >> s32) + (w1 >> s32)


def _mullo(x, y):
    """The low word of the product of two uint64 (mod 2**64, without a wrapping
    multiply)."""
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    x0, x1 = x & m32, x >> s32
    y0, y1 = y & m32, y >> s32
    w0 = x0 * y0
    cross = ((x1 * y0) & m32) + ((x0 * y1) & m32) + (w0 >> s32)
    return ((cross & m32) << s32) | (w0 & m32)


def _add(a, b):
    """``(a + b) mod 2**64`` and the carry (0 or 1), without a wrapping add."""
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    lo = (a & m32) + (b & m32)
    hi = (a >> s32) + (b >> s32) + (lo >> s32)
    return ((hi & m32) << s32) | (lo & m32), hi >> s32


def _step(hi, lo, inc_hi, inc_lo):
    """One PCG step: ``state * MULT + inc`` mod 2**128."""
    m_hi = np.uint64(_MUL_HI)
    m_lo = np.uint64(_MUL_LO)
    p_lo = _mullo(lo, m_lo)
    p_hi, _ = _add(_mulhi(lo, m_lo), _mullo(lo, m_hi))
    p_hi, _ = _add(p_hi, _mullo(hi, m_lo))
    s_lo, carry = _add(p_lo, inc_lo)
    s_hi, _ = _add(p_hi, inc_hi)
    s_hi, _ = _add(s_hi, carry)
    return s_hi, s_lo


def entropy_pool(e0, e1, e2, e3):
    """``SeedSequence``'s pool of four 32-bit words (as uint64) from the entropy
    words ``e0..e3`` (uint64, each below ``2**32``; zeros where the seed has
    fewer words): ``mix_entropy``."""
    entropy = np.zeros(4, np.uint64)
    entropy[0] = e0
    entropy[1] = e1
    entropy[2] = e2
    entropy[3] = e3
    pool = np.zeros(4, np.uint64)
    h = np.uint64(_INIT_A)
    for i in range(4):
        pool[i], h = _hashmix(entropy[i], h)
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                x, h = _hashmix(pool[i_src], h)
                pool[i_dst] = _mix(pool[i_dst], x)
    return pool


def state_word(pool, i, h):
    """Word ``i`` of ``generate_state`` (uint32 words) and the next hash constant
    (``h`` starts at ``INIT_B``)."""
    m32 = np.uint64(0xFFFFFFFF)
    d = pool[i % 4] ^ h
    h = (h * np.uint64(_MULT_B)) & m32
    d = (d * h) & m32
    return d ^ (d >> np.uint64(16)), h


def pcg64_words(e0, e1, e2, e3):
    """The 12 words of a PCG64 generator seeded by the entropy words ``e0..e3``
    (uint64, each below ``2**32``; zeros where the seed has fewer words)."""
    pool = entropy_pool(e0, e1, e2, e3)
    # generate_state(4, np.uint64): eight uint32, paired little-endian
    v = np.zeros(4, np.uint64)
    h = np.uint64(INIT_B)
    for i in range(8):
        d, h = state_word(pool, i, h)
        if i % 2 == 0:
            v[i // 2] = d
        else:
            v[i // 2] = v[i // 2] | (d << np.uint64(32))
    # pcg_setseq_128_srandom_r(initstate = v0:v1, initseq = v2:v3)
    inc_hi = (v[2] << np.uint64(1)) | (v[3] >> np.uint64(63))
    inc_lo = (v[3] << np.uint64(1)) | np.uint64(1)
    hi, lo = _step(np.uint64(0), np.uint64(0), inc_hi, inc_lo)
    lo, carry = _add(lo, v[1])
    hi, _ = _add(hi, v[0])
    hi, _ = _add(hi, carry)
    hi, lo = _step(hi, lo, inc_hi, inc_lo)
    words = np.zeros(12, np.int64)
    base = prims.address(words)
    block = (base + 47) // 16 * 16          # 16-byte aligned, after the four words
    k = (block - base) // 8
    fns = prims.pcg64_functions()
    words[0] = block
    words[1] = fns[0]
    words[2] = fns[1]
    words[3] = fns[2]
    words[k] = block + 16                   # pcg64_state.pcg_state
    words[k + 1] = 0                        # has_uint32 = 0, uinteger = 0
    words[k + 2] = prims.as_int64(lo)
    words[k + 3] = prims.as_int64(hi)
    words[k + 4] = prims.as_int64(inc_lo)
    words[k + 5] = prims.as_int64(inc_hi)
    return words


def seeded_words(seed):
    """``default_rng(seed)`` of a non-negative int64 ``seed``; NumPy's
    ValueError for a negative one."""
    if seed < 0:
        raise ValueError("expected non-negative integer")
    s = prims.as_uint64(seed)
    m32 = np.uint64(0xFFFFFFFF)
    return pcg64_words(s & m32, s >> np.uint64(32), np.uint64(0), np.uint64(0))


def seeded_words_unsigned(seed):
    """``default_rng(seed)`` of a uint64 ``seed``."""
    m32 = np.uint64(0xFFFFFFFF)
    return pcg64_words(seed & m32, seed >> np.uint64(32), np.uint64(0), np.uint64(0))


def os_entropy():
    """128 bits from the OS (as ``SeedSequence()`` draws them), as four 32-bit
    entropy words (uint64)."""
    m32 = np.uint64(0xFFFFFFFF)
    e = np.zeros(2, np.int64)
    if prims.os_entropy(e) != 0:
        raise OSError("no entropy from the operating system")
    a = prims.as_uint64(e[0])
    b = prims.as_uint64(e[1])
    return a & m32, a >> np.uint64(32), b & m32, b >> np.uint64(32)


def entropy_words():
    """``default_rng()``: ``SeedSequence()``'s entropy from the OS."""
    e0, e1, e2, e3 = os_entropy()
    return pcg64_words(e0, e1, e2, e3)
