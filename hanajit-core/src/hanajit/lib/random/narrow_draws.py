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
width (1 for bool); values are computed in uint64 and masked to the width, and
come back as int64, sign-extended when ``signed``.
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


def fill_narrow(rng, out, low, high, closed, bits, signed, masked):
    """``_rand_<type>`` with a size: nothing for an empty size, else the checks,
    then one fill call's draws into ``out`` (1-D, the dtype's items), as
    ``random_bounded_uint<bits>_fill`` chooses its loop: ``off`` alone for an
    empty span, the buffered value for the full width, else the masked or
    Lemire draw.  This function is a linked piece of its own (its arguments are
    not constants there): each loop is inlined once per width, where ``bits``
    is a constant, and takes ``signed`` and ``masked`` out of the loop (the
    full width's once per sign too)."""
    if out.shape[0] == 0:
        return
    off, r = offset_range(low, high, closed, bits)
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    # ``(x ^ sign) - sign``: the dtype's value of the ``bits``-wide word ``x``
    # (no branch; ``sign`` is 0 for an unsigned dtype)
    sign = 1 << (bits - 1) if signed else 0
    if r == np.uint64(0):
        x = (prims.as_int64(off) ^ sign) - sign
        for i in range(out.shape[0]):
            out[i] = x
    elif r == mask:
        # (the sign a constant too: an unsigned value then needs no range check
        # at the store, a third of this short loop)
        if bits == 1:                      # bools of a whole word each, in order
            fill_full(rng, out, off, 1, 0)
        elif bits == 8 and signed:
            fill_full(rng, out, off, 8, 1 << 7)
        elif bits == 8:
            fill_full(rng, out, off, 8, 0)
        elif bits == 16 and signed:
            fill_full(rng, out, off, 16, 1 << 15)
        elif bits == 16:
            fill_full(rng, out, off, 16, 0)
        elif signed:
            fill_full(rng, out, off, 32, 1 << 31)
        else:
            fill_full(rng, out, off, 32, 0)
    elif masked:
        if bits == 8:
            fill_masked(rng, out, off, r, 8, sign)
        elif bits == 16:
            fill_masked(rng, out, off, r, 16, sign)
        else:
            fill_masked(rng, out, off, r, 32, sign)
    elif bits == 8:
        fill_lemire(rng, out, off, r, 8, sign)
    elif bits == 16:
        fill_lemire(rng, out, off, r, 16, sign)
    else:
        fill_lemire(rng, out, off, r, 32, sign)


def fill_full(rng, out, off, bits, sign):
    """``out[i] = off + buffered_uint<bits>()`` (the span is the whole width);
    ``sign``: the dtype's sign bit (0 unsigned)."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    shift = np.uint64(bits)
    per = 32 // bits - 1
    buf = np.uint64(0)
    bcnt = 0
    for i in range(out.shape[0]):
        if bcnt == 0:
            buf = np.uint64(prims.rng_next_uint32(rng))
            bcnt = per
        else:
            buf = buf >> shift
            bcnt = bcnt - 1
        x = prims.as_int64((off + buf) & mask)
        out[i] = (x ^ sign) - sign


def fill_masked(rng, out, off, r, bits, sign):
    """``out[i] = off + buffered_bounded_masked_uint<bits>(r)``: the buffered
    value under ``gen_mask(r)``, drawn again while it exceeds ``r``."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    shift = np.uint64(bits)
    per = 32 // bits - 1
    keep = r
    for s in (1, 2, 4, 8, 16):
        keep = keep | (keep >> np.uint64(s))
    buf = np.uint64(0)
    bcnt = 0
    for i in range(out.shape[0]):
        if bcnt == 0:
            buf = np.uint64(prims.rng_next_uint32(rng))
            bcnt = per
        else:
            buf = buf >> shift
            bcnt = bcnt - 1
        while (buf & keep) > r:
            buf, bcnt = refill(rng, buf, bcnt, bits)
        x = prims.as_int64((off + (buf & keep)) & mask)
        out[i] = (x ^ sign) - sign


def fill_lemire(rng, out, off, r, bits, sign):
    """``out[i] = off + buffered_bounded_lemire_uint<bits>(r)`` for ``0 < r <
    mask``: the buffered value times ``r + 1``, whose low half below ``(mask -
    r) % (r + 1)`` is drawn again (NumPy compares with ``r + 1`` first, to
    skip the remainder; the threshold is below it, so made once here)."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    shift = np.uint64(bits)
    per = 32 // bits - 1
    excl = r + np.uint64(1)
    threshold = (mask - r) % excl
    buf = np.uint64(0)
    bcnt = 0
    for i in range(out.shape[0]):
        if bcnt == 0:
            buf = np.uint64(prims.rng_next_uint32(rng))
            bcnt = per
        else:
            buf = buf >> shift
            bcnt = bcnt - 1
        m = (buf & mask) * excl
        while (m & mask) < threshold:
            buf, bcnt = refill(rng, buf, bcnt, bits)
            m = (buf & mask) * excl
        x = prims.as_int64((off + (m >> shift)) & mask)
        out[i] = (x ^ sign) - sign


# each inlined into its width's branch of ``fill_narrow``, where ``bits`` is a constant
for _f in (fill_full, fill_masked, fill_lemire):
    _f.hj_inline = True


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


def fill_legacy_narrow(st, out, low, high, bits, signed):
    rng = prims.make_generator(prims.legacy_words(st))
    fill_narrow(rng, out, low, high, False, bits, signed, True)


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
