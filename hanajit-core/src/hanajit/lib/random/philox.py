"""Counter-based Philox streams, bit for bit NumPy's ``np.random.Philox``.

Library code in Python, compiled by hanajit into the function that calls it (a
GPU kernel or a CPU function) and run as it is by the interpreter.  The public
names are re-exported by :mod:`hanajit.philox`, which documents the API.

Stream ``stream`` of key ``key`` is NumPy's
``np.random.Philox(key=key, counter=stream << 128)``: Philox-4x64 with 10
rounds (Random123's constants), the 256-bit counter ``(c0, c1, stream, 0)``
incremented in word 0 with carry *before* each block, four uint64 words per
block handed out in order, ``uint32`` draws taking the low then the high half of
one word (``philox_next32``), doubles ``(w >> 11) * 2**-53`` and float32
``(u32 >> 8) * 2**-24`` (``next_double`` / ``next_float``).  Threads with
different ``stream`` words never share a block: each stream has ``2**128``
blocks before its counter would reach the next stream.

A stream's state is a value, a tuple of 13 uint64 -- key (2 words), counter (4),
buffer (4), buffer position, has-uint32 flag, saved uint32 -- because kernel code
holds no mutable objects but arrays; each draw returns ``(value, new_state)``.

Every operation is one every target has, and none wraps: the 64x64->128-bit
multiply is done on 32-bit halves (each partial product fits in 64 bits), the key
bump adds halves with an explicit carry, the counter increment tests for the
carry.  So the interpreter (NumPy scalars) never meets an overflow either.
``prims.need_int64`` refuses a target without 64-bit integers, naming the
capability.
"""
import numpy as np

from .. import prims
from .ziggurat import FI, KI, NOR_INV_R, NOR_R, WI

# Philox-4x64 multipliers and Weyl key increments, as 32-bit halves
_M0_HI, _M0_LO = 0xD2E7470E, 0xE14C6C93
_M1_HI, _M1_LO = 0xCA5A8263, 0x95121157
_W0_HI, _W0_LO = 0x9E3779B9, 0x7F4A7C15
_W1_HI, _W1_LO = 0xBB67AE85, 0x84CAA73B


def _mulhilo(x, m_hi, m_lo):
    """The high and low words of the 128-bit product ``x * m`` (``m`` given as
    32-bit halves), from four 32x32-bit products that each fit in 64 bits."""
    mask = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    mh = np.uint64(m_hi)
    ml = np.uint64(m_lo)
    x0 = x & mask
    x1 = x >> s32
    w0 = x0 * ml
    t = x1 * ml + (w0 >> s32)
    w1 = (t & mask) + x0 * mh
    hi = x1 * mh + (t >> s32) + (w1 >> s32)
    lo = ((w1 & mask) << s32) | (w0 & mask)
    return hi, lo


def _add(x, a_hi, a_lo):
    """``(x + a) mod 2**64`` (``a`` given as 32-bit halves) without a wrapping
    operation."""
    mask = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    s = (x & mask) + np.uint64(a_lo)
    high = (x >> s32) + np.uint64(a_hi) + (s >> s32)
    return ((high & mask) << s32) | (s & mask)


def _round(c0, c1, c2, c3, k0, k1):
    """One Philox-4x64 round (``_philox4x64round``)."""
    hi0, lo0 = _mulhilo(c0, _M0_HI, _M0_LO)
    hi1, lo1 = _mulhilo(c2, _M1_HI, _M1_LO)
    return hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0


def philox_block(c0, c1, c2, c3, k0, k1):
    """Philox-4x64-10 of the counter ``(c0, c1, c2, c3)`` under the key
    ``(k0, k1)``: four uint64 (Random123's ``philox4x64_R(10, ctr, key)``).  The
    ten rounds are written out: straight-line code, no loop for a GPU
    structuriser to nest inside the caller's loops."""
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    c0, c1, c2, c3 = _round(c0, c1, c2, c3, k0, k1)
    k0, k1 = _add(k0, _W0_HI, _W0_LO), _add(k1, _W1_HI, _W1_LO)
    return _round(c0, c1, c2, c3, k0, k1)


def philox_stream(key, stream, offset=0):
    """The state of stream ``stream`` of key ``key``, ``offset`` blocks of four
    words in (integers in ``[0, 2**64)``): NumPy's
    ``Philox(key=key, counter=(stream << 128) + offset)`` before its first draw
    (the same as ``Philox(key=key, counter=stream << 128).advance(offset)``)."""
    prims.need_int64("philox_stream")
    if key < 0:
        raise ValueError("philox_stream(): key must be in [0, 2**64)")
    if stream < 0:
        raise ValueError("philox_stream(): stream must be in [0, 2**64)")
    if offset < 0:
        raise ValueError("philox_stream(): offset must be in [0, 2**64)")
    z = np.uint64(0)
    return (np.uint64(key), z, np.uint64(offset), z, np.uint64(stream), z, z, z, z,
            z, np.uint64(4), z, z)


def philox_uint64(state):
    """``(next_uint64, new_state)``: the next word of the block buffer, or the
    first of a new block after incrementing the counter (``philox_next``).

    Shaped for GPU structurisers: one ``if`` without ``else`` around the block,
    the rest conditional expressions (selects) and one ``return`` of a tuple
    built from scalars -- a tuple returned from two places becomes a phi of
    aggregates after inlining, which LLVM's SPIR-V backend rejects."""
    k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32 = state
    if pos >= np.uint64(4):
        # the 256-bit counter + 1, carrying, on 32-bit halves (``_add``): an
        # ``x + 1`` tested against ``2**64 - 1`` becomes LLVM's add-with-carry,
        # which the SPIR-V translator of the OpenCL route cannot read
        z = np.uint64(0)
        c0 = _add(c0, 0, 1)
        carry = c0 == z
        c1 = _add(c1, 0, 1) if carry else c1
        carry = carry & (c1 == z)
        c2 = _add(c2, 0, 1) if carry else c2
        carry = carry & (c2 == z)
        c3 = _add(c3, 0, 1) if carry else c3
        b0, b1, b2, b3 = philox_block(c0, c1, c2, c3, k0, k1)
        pos = np.uint64(0)
    w = b0 if pos == np.uint64(0) else (
        b1 if pos == np.uint64(1) else (b2 if pos == np.uint64(2) else b3))
    return w, (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos + np.uint64(1), has32, u32)


def philox_uint32(state):
    """``(next_uint32, new_state)``: the low half of a new word, the saved high
    half on the next call (``philox_next32``; as there, the saved half stays in
    the state once used)."""
    k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32 = state
    out = np.uint32(u32)
    if has32 == np.uint64(0):
        w, after = philox_uint64(state)
        k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32 = after
        out = np.uint32(w & np.uint64(0xFFFFFFFF))
        u32 = w >> np.uint64(32)
        has32 = np.uint64(1)
    else:
        has32 = np.uint64(0)
    return out, (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32)


def philox_random(state):
    """``(double in [0, 1), new_state)``: ``Generator.random()``, 53 bits of one
    uint64."""
    w, state = philox_uint64(state)
    return float(w >> np.uint64(11)) * (1.0 / 9007199254740992.0), state


def philox_random_float32(state):
    """``(float32 in [0, 1), new_state)``: ``Generator.random(dtype=np.float32)``,
    24 bits of one uint32."""
    u, state = philox_uint32(state)
    return np.float32(u >> np.uint32(8)) * np.float32(1.0 / 16777216.0), state


def philox_normal(state):
    """``(standard normal double, new_state)``: ``Generator.standard_normal()``,
    NumPy's 256-layer ziggurat (``random_standard_normal``) on the stream's
    uint64 and double draws, in the same order.  Its rejection tests call
    ``exp`` and, in the tail, ``log1p``: on a device whose math library differs
    from the host's in the last bit, a draw can (rarely) be accepted
    differently.

    NumPy's nested loops (the tail's own rejection loop) are one loop here, with
    ``tail`` saying which of them runs, and one exit; the state crosses the loop
    as 13 scalars, never as a tuple value: LLVM's SPIR-V backend rejects the
    nested form (Vulkan) and a loop-carried aggregate (OpenCL)."""
    k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32 = state
    result = 0.0
    done = False
    tail = False
    rabs = 0
    while not done:
        if tail:
            u, (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32,
                u32) = philox_random(
                (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32))
            xx = -NOR_INV_R * prims.log1p(-u)
            v, (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32,
                u32) = philox_random(
                (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32))
            yy = -prims.log1p(-v)
            if yy + yy > xx * xx:
                result = NOR_R + xx
                if (rabs >> 8) & 1 == 1:
                    result = -result
                done = True
        else:
            r, (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32,
                u32) = philox_uint64(
                (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32))
            idx = prims.as_int64(r & np.uint64(0xFF))
            r = r >> np.uint64(8)
            sign = prims.as_int64(r & np.uint64(1))
            rabs = prims.as_int64((r >> np.uint64(1)) & np.uint64(0x000FFFFFFFFFFFFF))
            x = float(rabs) * WI[idx]
            if sign == 1:
                x = -x
            if rabs < KI[idx]:
                result = x
                done = True
            elif idx == 0:
                tail = True
            else:
                u, (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32,
                    u32) = philox_random(
                    (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32))
                if (FI[idx - 1] - FI[idx]) * u + FI[idx] < prims.exp(-0.5 * x * x):
                    result = x
                    done = True
    return result, (k0, k1, c0, c1, c2, c3, b0, b1, b2, b3, pos, has32, u32)
