"""``Generator.integers(..., dtype=)`` of every integer dtype and bool, and
``Generator.random(dtype=np.float32)``: compiled draws equal the interpreter's.

NumPy draws the narrow dtypes from 32-bit words it splits (two 16-bit values
a word, four 8-bit ones, 32 bools), each fill call starting a fresh word, so a
scalar draw and a sized one consume different words: both forms are checked
with the bit generator's state afterwards, for bit generators with a native
32-bit draw (MT19937) and with a buffered one (PCG64).  Result types follow
NumPy: ``np.int8`` ... for the NumPy dtypes, a Python bool for ``dtype=bool``
and a Python float for ``random(dtype=np.float32)``.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import check_fallback, strict_jit
from hanajit.testing.random_pairs import pair, same_state

KINDS = ("PCG64", "MT19937", "SFC64")


def draws_int8(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=n, endpoint=end, dtype=np.int8),
            rng.integers(lo, hi, endpoint=end, dtype=np.int8),
            rng.integers(lo, hi, endpoint=end, dtype=np.int8))


def draws_uint8(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=n, endpoint=end, dtype="uint8"),
            rng.integers(lo, hi, endpoint=end, dtype=np.uint8),
            rng.integers(lo, hi, endpoint=end, dtype=np.uint8))


def draws_int16(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=n, endpoint=end, dtype=np.int16),
            rng.integers(lo, hi, endpoint=end, dtype=np.int16), 0)


def draws_uint16(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=(2, n), endpoint=end, dtype=np.uint16),
            rng.integers(lo, hi, endpoint=end, dtype="u2"), 0)


def draws_int32(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=n, endpoint=end, dtype=np.int32),
            rng.integers(lo, hi, endpoint=end, dtype=np.int32), 0)


def draws_uint32(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=n, endpoint=end, dtype=np.uint32),
            rng.integers(lo, hi, endpoint=end, dtype=np.uint32), 0)


def draws_uint64(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=n, endpoint=end, dtype=np.uint64),
            rng.integers(lo, hi, endpoint=end, dtype=np.uint64), 0)


def draws_bool(rng, lo, hi, n, end):
    return (rng.integers(lo, hi, size=n, endpoint=end, dtype=bool),
            rng.integers(lo, hi, endpoint=end, dtype=bool),
            rng.integers(lo, hi, endpoint=end, dtype=np.bool_))


# dtype's kernel, and (low, high) pairs: full ranges, ranges of the full width
# minus one (Lemire on the width), small ones, single values, negative lows
CASES = {
    "int8": (draws_int8, [(-128, 128), (-128, 127), (-3, 100), (5, 6), (-1, 3)]),
    "uint8": (draws_uint8, [(0, 256), (0, 255), (7, 9), (0, 200)]),
    "int16": (draws_int16, [(-2**15, 2**15), (-5, 1000), (0, 1)]),
    "uint16": (draws_uint16, [(0, 2**16), (0, 40000)]),
    "int32": (draws_int32, [(-2**31, 2**31), (-5, 10**9)]),
    "uint32": (draws_uint32, [(0, 2**32), (0, 2**32 - 1), (5, 6)]),
    "uint64": (draws_uint64, [(0, 2**62), (0, 10), (3, 2**40)]),
    "bool": (draws_bool, [(0, 2), (0, 1), (1, 2)]),
}
COMPILED = {}


def compiled(name):
    if name not in COMPILED:
        COMPILED[name] = strict_jit(CASES[name][0])
    return COMPILED[name]


def same(got, want):
    """Equal values of equal types, arrays bit for bit with the dtype."""
    if isinstance(want, np.ndarray):
        return isinstance(got, np.ndarray) and got.dtype == want.dtype and \
            got.shape == want.shape and got.tobytes() == want.tobytes()
    if isinstance(want, tuple):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return type(got) is type(want) and got == want


def outcome(f, *args):
    try:
        return ("ok", f(*args))
    except ValueError as e:
        return ("raise", type(e), str(e))


def check(name, kind, seed, lo, hi, n, end):
    py = CASES[name][0]
    a, b = pair(kind, seed)
    got, want = outcome(compiled(name), a, lo, hi, n, end), outcome(py, b, lo, hi, n, end)
    assert got[0] == want[0], (name, kind, lo, hi, n, end, got, want)
    assert same(got[1], want[1]) if got[0] == "ok" else got == want, (name, lo, hi, n, end)
    assert same_state(a.bit_generator.state, b.bit_generator.state), (name, kind, lo, hi, n, end)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_dtype_as_numpy_draws_it(name):
    for kind in KINDS:
        for lo, hi in CASES[name][1]:
            for end in (False, True):
                for n in (0, 1, 7, 33):
                    check(name, kind, n + 3, lo, hi - end, n, end)


@pytest.mark.parametrize("name, lo, hi, end", [
    ("uint8", 0, 257, False), ("uint8", 0, 256, True), ("uint8", -1, 5, False),
    ("int8", -129, 0, False), ("int8", 0, 129, False), ("int8", 0, 128, True),
    ("uint8", 3, 3, False), ("uint8", 3, 2, True), ("int16", 0, 0, False),
    ("int16", 0, -1, True), ("bool", 0, 3, False), ("bool", 0, 2, True),
    ("uint64", -1, 3, False), ("uint32", 0, 2**32 + 1, False)])
def test_bounds_errors_are_numpys(name, lo, hi, end):
    """``low``/``high`` out of the dtype's bounds, ``low >= high``, with NumPy's
    messages; with ``size`` 0 NumPy checks nothing."""
    for n in (0, 3):
        check(name, "PCG64", 1, lo, hi, n, end)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(CASES)), st.integers(0, 2**32), st.integers(0, 2**32),
       st.integers(0, 40), st.booleans(), st.integers(0, 2**32))
def test_random_bounds(name, x, y, n, end, seed):
    """Any bounds inside the dtype, in order or not."""
    info = np.iinfo(name) if name != "bool" else np.iinfo(np.uint8)
    span = 2 if name == "bool" else int(info.max) - int(info.min) + 1
    lo, hi = int(info.min) + x % span, int(info.min) + y % span + 1 - end
    check(name, "PCG64", seed, lo, hi, n, end)


def random_f32(rng, n):
    return rng.random(n, dtype=np.float32), rng.random(dtype=np.float32), \
        rng.random((2, n), np.float32), rng.random(dtype="f")


def test_random_float32():
    jf = strict_jit(random_f32)
    for kind in KINDS:
        for n in (0, 1, 5, 64):
            a, b = pair(kind, n)
            got, want = jf(a, n), random_f32(b, n)
            assert same(got, want)
            assert same_state(a.bit_generator.state, b.bit_generator.state)


def local_draws(seed, n):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 10, size=n, dtype=np.uint8), rng.random(n, dtype=np.float32), \
        rng.integers(-5, 5, dtype=np.int16)


def test_generator_made_inside():
    jf = strict_jit(local_draws)
    for seed in (0, 7, 2**40):
        assert same(jf(seed, 9), local_draws(seed, 9))


def normal_f16(seed):
    return np.random.default_rng(seed).standard_normal(dtype=np.float16)


def integers_f8(seed):
    return np.random.default_rng(seed).integers(0, 5, dtype=np.float64)


def test_what_still_falls_back():
    """A float16 ``standard_normal`` and a float dtype of ``integers`` are NumPy's
    TypeError (float32 ``standard_normal``: test_cpu_random_generator_more.py)."""
    check_fallback(normal_f16, (1,), "dtype float16")
    check_fallback(integers_f8, (1,), "dtype float64")


def legacy_all(seed, n):
    np.random.seed(seed)
    return (np.random.randint(-128, 128, size=n, dtype=np.int8),
            np.random.randint(0, 200, dtype=np.uint8),
            np.random.randint(5, size=(n, 2), dtype=np.uint16),
            np.random.randint(-3, 10**9, size=n, dtype=np.int32),
            np.random.randint(0, 2**32, dtype=np.uint32),
            np.random.randint(0, 2**40, size=n, dtype=np.uint64),
            np.random.randint(3, 2**40, dtype=np.uint64),
            np.random.randint(0, 2, size=n, dtype=bool),
            np.random.randint(0, 2, dtype=bool), np.random.randint(0, 2, dtype=np.bool_),
            np.random.randint(0, 5, dtype=np.int64), np.random.randint(0, 5, dtype=int),
            np.random.randint(1, 7, size=n, dtype="i2"), np.random.randint(0, 77))


def legacy_uint8(lo, hi, n):
    np.random.seed(5)
    return np.random.randint(lo, hi, size=n, dtype=np.uint8), \
        np.random.randint(lo, hi, dtype=np.uint8)


def test_legacy_randint_dtypes():
    """``np.random.randint(..., dtype=)``: NumPy's masked draws from the global
    ``RandomState``, NumPy's types (a Python int for ``int`` and no dtype, a
    Python bool for ``bool``, ``np.int64`` for ``np.int64``), its bound errors."""
    jf = strict_jit(legacy_all)
    for seed in (0, 1, 12345):
        for n in (0, 1, 9, 40):
            want = legacy_all(seed, n)
            state = np.random.get_state()
            assert same(jf(seed, n), want)
            assert same_state(np.random.get_state(), state)
    jf = strict_jit(legacy_uint8)
    for lo, hi in ((0, 256), (0, 255), (9, 10), (0, 257), (-1, 5), (3, 3), (0, 0)):
        for n in (0, 5):
            got, want = outcome(jf, lo, hi, n), outcome(legacy_uint8, lo, hi, n)
            assert got[0] == want[0]
            assert same(got[1], want[1]) if got[0] == "ok" else got == want, (lo, hi, n)


def narrow_fills(rng, rs, lo, hi, n):
    return (rng.integers(lo, hi, n, dtype=np.uint8), rng.integers(lo, hi, n, dtype=np.int16),
            rng.integers(lo - 128, hi - 128, n, dtype=np.int8),
            rng.integers(lo * 200, hi * 200, n, dtype=np.uint16),
            rs.randint(lo, hi, n, dtype=np.uint16), rs.randint(lo - 128, hi - 128, n, "i1"),
            rs.randint(lo * 100 - 20000, hi * 100 - 20000, n, dtype=np.int16),
            rng.integers(lo, hi, n, dtype=np.uint32), rs.randint(lo, hi * 9, n, dtype=np.int32),
            rs.randint(0, 2, n, dtype=bool), rng.integers(0, 2, n, dtype=bool))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(KINDS), st.integers(0, 2**32 - 1), st.integers(0, 255),
       st.sampled_from([1, 2, 3, 64, 65, 100, 129, 200, 256]),
       st.one_of(st.integers(0, 12), st.integers(13, 1300)))
def test_block_fills(kind, seed, lo, width, n):
    """The 8- and 16-bit rejection fills draw the words they certainly take a
    block at a time, then pack the kept candidates; the last values one at a
    time (``narrow_draws.fill_bounded``): spans of every rejection rate (just
    above a power of two: about half the candidates rejected; a power of two
    masked: none), sizes below a word's values and over several blocks,
    Lemire (``Generator``) and masked (``RandomState``) draws alike, and the
    bit generators' states after."""
    hi = min(lo + width, 256)
    a, b = pair(kind, seed)
    ra, rb = np.random.RandomState(seed), np.random.RandomState(seed)
    got = outcome(NARROW.setdefault("f", strict_jit(narrow_fills)), a, ra, lo, hi, n)
    want = outcome(narrow_fills, b, rb, lo, hi, n)
    assert got[0] == want[0] and (same(got[1], want[1]) if got[0] == "ok" else got == want)
    assert same_state(a.bit_generator.state, b.bit_generator.state)
    assert same_state(ra.get_state(), rb.get_state())


NARROW: dict = {}
