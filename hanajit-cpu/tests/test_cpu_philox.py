"""``hanajit.philox`` on the CPU target: every draw equals NumPy's own
``np.random.Philox`` stream, compiled and in the interpreter.

Stream ``s`` of key ``k`` at block offset ``o`` is
``np.random.Philox(key=k, counter=(s << 128) + o)``; hypothesis picks keys,
streams, offsets (near ``2**64`` too, so the counter carries into word 1) and a
sequence of draw kinds, and the reference draws the same sequence from NumPy's
bit generator (``random_raw``, its C ``next_uint32``, ``Generator.random`` in
float64 and float32, ``standard_normal``).
"""
from __future__ import annotations

import ctypes
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.lib.random.philox import philox_block
from hanajit.philox import (philox_normal, philox_random, philox_random_float32,
                            philox_stream, philox_uint32, philox_uint64)

U64 = (1 << 64) - 1


def draws(words, values, key, stream, offset, kinds):
    """Draw ``kinds[j]`` (0 uint64, 1 uint32, 2 random, 3 float32, 4 normal)
    from one stream: uint64 words into ``words``, the rest into ``values``."""
    s = philox_stream(key, stream, offset)
    for j in range(kinds.shape[0]):
        k = kinds[j]
        if k == 0:
            w, s = philox_uint64(s)
            words[j] = w
        elif k == 1:
            u, s = philox_uint32(s)
            values[j] = u
        elif k == 2:
            x, s = philox_random(s)
            values[j] = x
        elif k == 3:
            f, s = philox_random_float32(s)
            values[j] = f
        else:
            x, s = philox_normal(s)
            values[j] = x


compiled = jit(draws, fallback=False)


def run(f, key, stream, offset, kinds):
    words, values = np.zeros(len(kinds), np.uint64), np.zeros(len(kinds))
    f(words, values, np.uint64(key), np.uint64(stream), np.uint64(offset),
      np.asarray(kinds, np.int64))
    return words, values


def reference(key, stream, offset, kinds):
    bits = np.random.Philox(key=key, counter=(stream << 128) + offset)
    g = np.random.Generator(bits)
    c = bits.ctypes
    next32 = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p)(
        ctypes.cast(c.next_uint32, ctypes.c_void_p).value)
    words, values = np.zeros(len(kinds), np.uint64), np.zeros(len(kinds))
    for j, k in enumerate(kinds):
        if k == 0:
            words[j] = bits.random_raw()
        elif k == 1:
            values[j] = next32(c.state_address)
        elif k == 2:
            values[j] = g.random()
        elif k == 3:
            values[j] = g.random(dtype=np.float32)
        else:
            values[j] = g.standard_normal()
    return words, values


def same(got, want):
    assert np.array_equal(got[0], want[0])
    assert np.array_equal(got[1].view(np.uint64), want[1].view(np.uint64))


@settings(max_examples=60, deadline=None)
@given(key=st.integers(0, U64), stream=st.integers(0, U64),
       offset=st.one_of(st.integers(0, U64), st.integers(U64 - 3, U64)),
       kinds=st.lists(st.integers(0, 4), min_size=1, max_size=40))
def test_draws_equal_numpys_philox(key, stream, offset, kinds):
    want = reference(key, stream, offset, kinds)
    same(run(compiled, key, stream, offset, kinds), want)


@settings(max_examples=15, deadline=None)
@given(key=st.integers(0, U64), stream=st.integers(0, U64),
       offset=st.integers(U64 - 2, U64),
       kinds=st.lists(st.integers(0, 4), min_size=1, max_size=20))
def test_the_interpreter_draws_the_same(key, stream, offset, kinds):
    want = reference(key, stream, offset, kinds)
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # no overflow warning either
        same(run(draws, key, stream, offset, kinds), want)


@pytest.mark.parametrize("stream", [0, 1, 12345, U64])
def test_many_normals_cover_the_tail_and_the_wedges(stream):
    """20,000 normals: the ziggurat's wedges and its tail (idx 0) both run."""
    kinds = [4] * 20000
    got = run(compiled, 7, stream, 0, kinds)
    want = np.random.Generator(
        np.random.Philox(key=7, counter=stream << 128)).standard_normal(20000)
    assert np.array_equal(got[1].view(np.uint64), want.view(np.uint64))
    assert np.abs(want).max() > 3.4           # the tail begins at r = 3.654...


def block(c0, c1, c2, c3, k0, k1, n):
    """``n`` words after setting the 256-bit counter to ``(c0, c1, c2, c3)``."""
    out = np.zeros(n, np.uint64)
    s = (k0, k1, c0, c1, c2, c3, c0, c0, c0, c0, np.uint64(4), np.uint64(0),
         np.uint64(0))
    for j in range(n):
        w, s = philox_uint64(s)
        out[j] = w
    return out


@pytest.mark.parametrize("counter", [
    [U64, 0, 5, 0], [U64, U64, 5, 0], [U64, U64, U64, 0], [U64, U64, U64, U64],
    [U64 - 1, U64, U64, 7]])
def test_the_counter_carries_through_every_word(counter):
    """NumPy increments word 0 and carries into 1, 2 and 3 (wrapping at
    ``2**256``); the state's counter set directly."""
    want = np.random.Philox(key=np.array([3, 9], np.uint64),
                            counter=np.array(counter, np.uint64)).random_raw(9)
    args = [np.uint64(c) for c in counter] + [np.uint64(3), np.uint64(9), 9]
    assert np.array_equal(jit(block, fallback=False)(*args), want)
    assert np.array_equal(block(*args), want)


def test_block_is_philox_4x64_10():
    """Random123's known-answer vector for philox4x64_10 (counter and key all
    ones in every bit)."""
    m = np.uint64(U64)
    got = philox_block(m, m, m, m, m, m)
    assert [int(w) for w in got] == [0x87b092c3013fe90b, 0x438c3c67be8d0224,
                                     0x9cc7d7c69cd777b6, 0xa09caebf594f0ba0]


def bad_stream(key, stream):
    s = philox_stream(key, stream)
    x, s = philox_random(s)
    return x


@pytest.mark.parametrize("key, stream, what", [(-1, 0, "key"), (0, -5, "stream")])
def test_negative_key_or_stream_is_a_value_error(key, stream, what):
    msg = f"philox_stream\\(\\): {what} must be in \\[0, 2\\*\\*64\\)"
    with pytest.raises(ValueError, match=msg):
        jit(bad_stream, fallback=False)(key, stream)
    with pytest.raises(ValueError, match=msg):
        bad_stream(key, stream)
