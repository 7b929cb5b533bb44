"""``Generator.integers`` of the dtypes narrower than 64 bits, and
``Generator.random(dtype=np.float32)``, ported from NumPy's C sources
(``distributions.c``: ``random_bounded_uint{32,16,8}_fill``,
``random_bounded_bool_fill``, ``next_float``) and compiled by hanajit.

NumPy draws a narrow integer from a 32-bit word it splits: each fill call
starts with an empty buffer, takes ``next_uint32`` when the buffer is empty and
otherwise shifts the word by the width -- two 16-bit values a word, four 8-bit
ones, 32 bools; a 32-bit value takes a word of its own.  A range of the full
width is the buffered value itself; a narrower one is Lemire's method on the
width (multiply, reject the low half below ``(max - r) % (r + 1)``).  A scalar
draw is a fill of one, so it always starts a fresh word.  ``bits`` is the
width (1 for bool); values are computed in uint64 and masked to the width; a
scalar comes back as int64, sign-extended when ``signed``, and a fill writes
them into the unsigned integers of the width (``generator.integer_draws`` views
a signed or bool array so: the same bits, no range check at the store).  The
fills take the same words in the same order as NumPy's loops but not one value
at a time (``fill_full``, ``fill_bounded``).
"""
import numpy as np

from .. import prims
from .distributions import bounded_uint64, integers_top, interval


def offset_range(low, high, closed, bits):
    """``off`` and ``rng`` of ``_rand_<type>``: ``low`` in the dtype's bits and the
    inclusive span, after NumPy's ``low >= high`` checks (the bounds against the
    dtype were checked by the caller)."""
    top = integers_top(low, high, closed)
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    off = prims.as_uint64(low) & mask
    return off, prims.as_uint64(top - low) & mask


def refill(rng, buf, bcnt, bits):
    """``buffered_uint<bits>``: the next ``bits`` of the current word, or a new
    word (``bcnt`` is how many values the word has left after this one)."""
    if bcnt == 0:
        return np.uint64(prims.rng_next_uint32(rng)), 32 // bits - 1
    return buf >> np.uint64(bits), bcnt - 1


def as_signed(v, bits, signed):
    """The dtype's value of the ``bits``-wide word ``v``."""
    if signed and v >> np.uint64(bits - 1) != np.uint64(0):
        return prims.as_int64(v) - (1 << bits)
    return prims.as_int64(v)


def step(rng, r, bits, buf, bcnt, masked):
    """One value in ``[0, r]`` (``buffered_bounded_lemire_uint<bits>``, or
    ``buffered_bounded_masked_uint<bits>`` for the legacy ``randint``, or the
    buffered value itself for the full range) and the buffer after it."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    if r == np.uint64(0):
        return r, buf, bcnt
    buf, bcnt = refill(rng, buf, bcnt, bits)
    if r == mask:
        return buf & mask, buf, bcnt
    if masked:                     # gen_mask(r): all ones up to r's top bit
        keep = r
        for s in (1, 2, 4, 8, 16):
            keep = keep | (keep >> np.uint64(s))
        while (buf & keep) > r:
            buf, bcnt = refill(rng, buf, bcnt, bits)
        return buf & keep, buf, bcnt
    excl = r + np.uint64(1)
    m = (buf & mask) * excl
    left = m & mask
    if left < excl:
        threshold = (mask - r) % excl
        while left < threshold:
            buf, bcnt = refill(rng, buf, bcnt, bits)
            m = (buf & mask) * excl
            left = m & mask
    return m >> np.uint64(bits), buf, bcnt


def fill_narrow(rng, out, low, high, closed, bits, masked):
    """``_rand_<type>`` with a size for the 8- and 16-bit dtypes and bool
    (32-bit ones: ``fill_narrow32``): nothing for an empty size, else the
    checks, then one fill call's draws into ``out`` (1-D: the unsigned integers
    of the dtype's width, a view of a signed or bool array holding the same
    bits), as ``random_bounded_uint<bits>_fill`` chooses its loop
    (``fill_span``).  This function is a linked piece of its own (its arguments
    are not constants there): each loop is inlined once per width and
    ``masked``, where they are constants."""
    if out.shape[0] == 0:
        return
    off, r = offset_range(low, high, closed, bits)
    if bits == 1:                          # bools of a whole word each, in order
        fill_span(rng, out, off, r, 1, False)
    elif bits == 8 and masked:
        fill_span(rng, out, off, r, 8, True)
    elif bits == 8:
        fill_span(rng, out, off, r, 8, False)
    elif masked:
        fill_span(rng, out, off, r, 16, True)
    else:
        fill_span(rng, out, off, r, 16, False)


def fill_narrow32(rng, out, low, high, closed, masked):
    """``fill_narrow`` of the 32-bit dtypes, a piece of its own: its loop, a
    call a value, keeps its values in registers there."""
    if out.shape[0] == 0:
        return
    off, r = offset_range(low, high, closed, 32)
    if masked:
        fill_span(rng, out, off, r, 32, True)
    else:
        fill_span(rng, out, off, r, 32, False)


def fill_span(rng, out, off, r, bits, masked):
    """NumPy's loop for the span ``r``: ``off`` alone for an empty span, the
    buffered value for the full width, else the masked (the legacy
    ``randint``) or Lemire draw."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    if r == np.uint64(0):
        for i in range(out.shape[0]):
            out[i] = off & mask
    elif r == mask:
        fill_full(rng, out, off, bits, mask)
    elif masked and r & (r + np.uint64(1)) == np.uint64(0):
        fill_full(rng, out, off, bits, r)       # (gen_mask(r) is r: none rejected)
    elif bits > 1:
        fill_bounded(rng, out, off, r, bits, masked)


def fill_full(rng, out, off, bits, keep):
    """``out[i] = off + (buffered_uint<bits>() & keep)``: the span is the whole
    width (``keep`` is its mask), or a masked span of all ones below its top bit
    (nothing is rejected).  Every value is taken, so the loop goes a word at a
    time: its ``32 // bits`` values in order, low bits first, then the values
    of one more word for the rest."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    shift = np.uint64(bits)
    per = 32 // bits
    n = out.shape[0]
    words = n // per
    for j in range(words):
        w = np.uint64(prims.rng_next_uint32(rng))
        for k in range(per):
            out[j * per + k] = (off + (w & keep)) & mask
            w = w >> shift
    if words * per < n:
        w = np.uint64(prims.rng_next_uint32(rng))
        for i in range(words * per, n):
            out[i] = (off + (w & keep)) & mask
            w = w >> shift


def candidate(w, off, r, keep, excl, threshold, mask, shift, masked):
    """The value of the low ``bits`` of ``w`` and whether it is kept: under
    ``gen_mask(r)`` (``keep``) unless above ``r`` (``masked``), or Lemire's
    product with ``excl = r + 1`` unless its low half is below ``threshold =
    (mask - r) % excl`` (NumPy compares with ``excl`` first, to skip the
    remainder; the threshold is below it, so made once per fill)."""
    if masked:
        v = w & keep
        return (off + v) & mask, v <= r
    m = (w & mask) * excl
    return (off + (m >> shift)) & mask, (m & mask) >= threshold


# A rejection fill (``fill_bounded``): NumPy takes the ``bits``-wide values of
# a 32-bit word one at a time, drawing a word when its buffer is empty (and
# dropping what is left of it at the end of the fill).  Here the words are
# drawn BLOCK at a time into a scratch array, as many as are certainly taken:
# with ``n - i`` values to go a word gives at most ``32 // bits``, so at least
# ``(n - i) // (32 // bits)`` more words are drawn whatever is rejected -- the
# same calls in the same order.  Then every candidate's value and verdict are
# computed (a loop LLVM vectorises), and the kept ones packed into ``out``:
# each stored at ``out[i]``, ``i`` moving on past one kept (no branch on the
# rejection, and no call between these stores, whose addresses depend on the
# draws, and the loads of the bit generator's state).  The last values, fewer
# than a word's, one candidate at a time.  32-bit values take a word each:
# drawn again while rejected, as NumPy's loop.
BLOCK = 128


def fill_bounded(rng, out, off, r, bits, masked):
    """``out[i] = off + buffered_bounded_masked_uint<bits>(r)`` (``masked``,
    the legacy ``randint``) or ``buffered_bounded_lemire_uint<bits>(r)``, for
    ``0 < r < mask``."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    shift = np.uint64(bits)
    per = 32 // bits
    keep = r
    for s in (1, 2, 4, 8, 16):
        keep = keep | (keep >> np.uint64(s))
    excl = r + np.uint64(1)
    threshold = (mask - r) % excl
    n = out.shape[0]
    if per == 1 and masked:
        for i in range(n):
            v = np.uint64(prims.rng_next_uint32(rng)) & keep
            while v > r:
                v = np.uint64(prims.rng_next_uint32(rng)) & keep
            out[i] = (off + v) & mask
        return
    if per == 1:
        for i in range(n):
            m = np.uint64(prims.rng_next_uint32(rng)) * excl
            while (m & mask) < threshold:
                m = np.uint64(prims.rng_next_uint32(rng)) * excl
            out[i] = (off + (m >> shift)) & mask
        return
    words = np.empty(BLOCK, np.uint32)
    values = np.empty(BLOCK * per, np.uint32)
    kept = np.empty(BLOCK * per, np.uint8)
    i = 0
    while n - i >= per:
        count = min(BLOCK, (n - i) // per)
        for j in range(count):
            words[j] = prims.rng_next_uint32(rng)
        for j in range(count):
            w = np.uint64(words[j])
            for k in range(per):
                value, ok = candidate(w, off, r, keep, excl, threshold, mask, shift, masked)
                values[j * per + k] = value
                kept[j * per + k] = int(ok)
                w = w >> shift
        for c in range(count * per):
            out[i] = values[c]
            i += int(kept[c])
    while i < n:
        w = np.uint64(prims.rng_next_uint32(rng))
        for k in range(per):
            value, ok = candidate(w, off, r, keep, excl, threshold, mask, shift, masked)
            if ok and i < n:
                out[i] = value
                i += 1
            w = w >> shift


# each inlined into its width's branch of ``fill_narrow``, where ``bits`` is a
# constant; every index is in range by construction (no checks: pipeline.py)
for _f in (fill_span, fill_full, fill_bounded, candidate):
    _f.hj_inline = True
for _f in (fill_narrow, fill_narrow32, fill_span, fill_full, fill_bounded):
    _f.hj_unchecked = True


def narrow(rng, low, high, closed, bits, signed, masked):
    """``_rand_<type>`` without a size: a fill of one value (a fresh word)."""
    off, r = offset_range(low, high, closed, bits)
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    v, buf, bcnt = step(rng, r, bits, np.uint64(0), 0, masked)
    return as_signed((off + v) & mask, bits, signed)


def uint64(rng, low, high, closed):
    """``_rand_uint64`` without a size: ``bounded_uint64`` read unsigned."""
    top = integers_top(low, high, closed)
    off = prims.as_uint64(low)
    return off + bounded_uint64(rng, prims.as_uint64(top) - off)


def fill_uint64(rng, out, low, high, closed):
    """``_rand_uint64`` with a size (``out`` uint64): nothing for an empty size,
    else the checks (at the first value) and the draws."""
    for i in range(out.shape[0]):
        out[i] = uint64(rng, low, high, closed)


# the legacy ``randint(..., dtype=)``: masked draws from the ``RandomState`` at
# ``st`` (``legacy_algorithms``), ``high`` exclusive
def legacy_narrow(st, low, high, bits, signed):
    rng = prims.make_generator(prims.legacy_words(st))
    return narrow(rng, low, high, False, bits, signed, True)


def fill_legacy_narrow(st, out, low, high, bits):
    rng = prims.make_generator(prims.legacy_words(st))
    if bits == 32:
        fill_narrow32(rng, out, low, high, False, True)
    else:
        fill_narrow(rng, out, low, high, False, bits, True)


def legacy_uint64(st, low, high):
    top = integers_top(low, high, False)
    off = prims.as_uint64(low)
    rng = prims.make_generator(prims.legacy_words(st))
    return off + interval(rng, prims.as_uint64(top) - off)


def fill_legacy_uint64(st, out, low, high):
    for i in range(out.shape[0]):
        out[i] = legacy_uint64(st, low, high)


def random_float(rng):
    """``next_float``: the top 24 bits of a 32-bit word, times 2**-24 (exact)."""
    w = np.uint64(prims.rng_next_uint32(rng)) >> np.uint64(8)
    return float(prims.as_int64(w)) * 5.9604644775390625e-08


def fill_random_float(rng, out):
    """``random_standard_uniform_fill_f`` into a float32 array."""
    for i in range(out.shape[0]):
        out[i] = random_float(rng)
