"""``np.argmax``/``np.argmin`` (and the methods) of a whole C-contiguous real
array run as vector code (``lib/arrays/arg_lanes.arg_max``/``arg_min``):
sixteen lanes, each keeping its extreme and where it first met it, then the
first position among the lanes that hold the extreme; a NaN anywhere gives the
first NaN's position, as NumPy's loop does.  Checked against NumPy on the cases
where lanes and order could differ: ties (``0.0`` and ``-0.0`` are equal),
infinities, NaNs in the first block, the lanes and the tail, integer extremes."""
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.jitted import jitted


def argmax(a):
    return np.argmax(a)


def argmin(a):
    return np.argmin(a)


def methods(a):
    return a.argmax(), a.argmin()


def kept(a):
    return np.argmax(a, keepdims=True), np.argmin(a, keepdims=True)


SIZES = [1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 100, 257, 1000, 4099]


def samples(dtype, n, rng):
    if np.dtype(dtype).kind == "f":
        pools = [np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf]),
                 np.array([0.0, -0.0]), np.array([1.0, np.nan, 2.0]),
                 np.array([np.inf, -np.inf, 3.0])]
        out = [rng.choice(p, n).astype(dtype) for p in pools]
        out.append(rng.standard_normal(n).astype(dtype))
        for at in {0, n // 2, n - 1, min(n - 1, 16), min(n - 1, 40)}:
            a = rng.standard_normal(n).astype(dtype)
            a[at] = np.nan
            out.append(a)
            b = a.copy()
            b[n - 1] = np.nan                    # a later NaN too: the first one
            out.append(b)
        return out
    info = np.iinfo(dtype)
    return [rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True),
            rng.integers(0, 3, n).astype(dtype), np.full(n, info.max, dtype),
            np.full(n, info.min, dtype)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32,
                                   np.uint64, np.uint8, np.int8, np.int16])
def test_matches_numpy(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    fmax, fmin = jit(argmax, fallback=False), jit(argmin, fallback=False)
    fm, fk = jit(methods, fallback=False), jit(kept, fallback=False)
    for n in SIZES:
        for a in samples(dtype, n, rng):
            assert fmax(a) == np.argmax(a), (n, a)
            assert fmin(a) == np.argmin(a), (n, a)
            assert fm(a) == methods(a)
            m = a[: n - n % 3].reshape(-1, 3)
            if m.size:
                assert (fmax(m), fmin(m)) == (np.argmax(m), np.argmin(m))
                got, want = fk(m), kept(m)
                for g, w in zip(got, want):
                    assert g.shape == w.shape and np.array_equal(g, w)


def test_runs_as_vector_code_and_raises_numpys_error():
    g = jit(argmax, fallback=False)
    g(np.zeros(40))
    assert "hj_arg_blocks" in g.ir_module().functions
    with pytest.raises(ValueError, match="empty"):
        g(np.zeros(0))
    h = jit(argmin, fallback=False)
    h(np.zeros(40, np.int32))
    assert "hj_arg_int" in h.ir_module().functions
    s = np.arange(100.0)[::-2]                    # not contiguous: NumPy's loop
    assert h(s) == np.argmin(s) and g(s) == np.argmax(s)


def argmax_rows(m):
    return np.argmax(m, axis=-1)


def argmin_rows(m):
    return np.argmin(m, axis=1)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint16])
def test_along_the_last_axis(dtype):
    """Along the last axis of a C-contiguous array each row runs the lanes
    (``arg_lanes.arg_rows``); rows shorter than two blocks in order."""
    rng = np.random.default_rng(np.dtype(dtype).num + 1)
    fmax, fmin = jitted(argmax_rows, fallback=False), jitted(argmin_rows, fallback=False)
    for shape in [(3, 1), (5, 16), (4, 33), (2, 100), (0, 5), (3, 4, 40), (1, 1), (7, 65)]:
        if np.dtype(dtype).kind == "f":
            pool = np.array([0.0, -0.0, 1.0, np.inf, -np.inf, np.nan, 2.0])
            m = rng.choice(pool, shape).astype(dtype)
        else:
            m = rng.integers(0, 5, shape).astype(dtype)
        for f, g in ((argmax_rows, fmax), (argmin_rows, fmin)):
            got, want = g(m), f(m)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(got, want), (shape, m)
    with pytest.raises(ValueError):
        fmax(np.zeros((3, 0), dtype))


def test_positions_and_their_limit():
    """The float lanes keep positions in int32 beside 32-bit data; a lane of
    more than ``limit`` values (2**31 - 1 of them: 8 GiB of float32, not made
    here) is searched in pieces of ``limit`` values, the first NaN or the first
    of the pieces' largest taken.  The library source run by CPython with small
    limits takes that path, and gives NumPy's positions on both."""
    from hanajit.lib.arrays import arg_lanes

    rng = np.random.default_rng(5)
    for n in (33, 100, 257):
        a = rng.standard_normal(n).astype(np.float32)
        a[rng.integers(0, n, 5)] = a.max()          # ties: the first wins
        a[rng.integers(0, n, 5)] = a.min()
        b = a.copy()
        b[rng.integers(0, n, 2)] = np.nan
        for limit in (2, 33, 40, 2**31 - 1):
            pos = np.int32(0)
            for v in (a, b):        # (a whole array: blocks, whatever the limit)
                assert arg_lanes.arg_blocks(v, True) == np.argmax(v)
                assert arg_lanes.arg_blocks(v, False) == np.argmin(v)
            out = np.empty(3, np.int64)
            m = np.concatenate([a, b, a[::-1].copy()])
            for big, ref in ((True, np.argmax), (False, np.argmin)):
                arg_lanes.arg_rows(m, n, out, big, pos, limit)
                assert np.array_equal(out, ref(m.reshape(3, n), axis=1))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([np.float64, np.float32]), st.integers(1, 40), st.integers(16, 300),
       st.sampled_from(["normal", "few", "zeros", "inf", "nan"]), st.integers(0, 2**32 - 1))
def test_rows_of_every_length(dtype, rows, m, kind, seed):
    """Rows of any length: the last step of the lanes moved back to end at the
    row's last value, ties (the first wins), zeros of both signs (equal),
    infinities and NaNs (the first wins)."""
    rng = np.random.default_rng(seed)
    if kind == "normal":
        x = rng.standard_normal((rows, m))
    elif kind == "few":
        x = rng.integers(-2, 3, (rows, m)).astype(float)
    elif kind == "zeros":
        x = rng.choice(np.array([0.0, -0.0, -1.0]), (rows, m))
    elif kind == "inf":
        x = rng.choice(np.array([np.inf, -np.inf, 0.0, 1.0]), (rows, m))
    else:
        x = rng.standard_normal((rows, m))
        x[rng.random((rows, m)) < 0.02] = np.nan
    x = x.astype(dtype)
    fmax, fmin = jitted(argmax_rows, fallback=False), jitted(argmin_rows, fallback=False)
    assert np.array_equal(fmax(x), np.argmax(x, axis=1))
    assert np.array_equal(fmin(x), np.argmin(x, axis=1))
    flat = x.reshape(-1)
    assert jitted(argmax, fallback=False)(flat) == np.argmax(flat)


def test_positions_beside_32_bit_data_are_32_bit_vectors(monkeypatch):
    """Beside float32 values the lanes keep their positions in int32: the
    vector selects of positions are of int32 (as wide as the values'), none of
    int64.  (The library piece inlined, so that its IR is the function's.)"""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")
    g = jit(argmax, fallback=False)
    a = np.random.default_rng(2).standard_normal(300).astype(np.float32)
    assert g(a) == np.argmax(a)
    kinds = set(re.findall(r"select <\d+ x i1> %[^,]*, <\d+ x (\w+)>", g.inspect_llvm()))
    assert "i32" in kinds and "i64" not in kinds, kinds


INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(INT_DTYPES),
       st.one_of(st.integers(1, 300), st.integers(1, 3 * 2048 + 40)),   # short lanes, blocks
       st.lists(st.integers(-2, 2), min_size=1, max_size=4),
       st.lists(st.integers(0, 200), min_size=1, max_size=4), st.integers(0, 2**32 - 1))
def test_integer_blocks_and_ties(dtype, n, shifts, edges, seed):
    """Integers take the largest of each block of ``arg_lanes.BLOCK`` bytes, then
    the first position of the largest in its block, in pieces of ``CHUNK``
    (lanes shorter than ``SHORT``: the largest, then the least position holding
    it): the extremes (several, tied) put next to the edges of blocks and
    pieces, in the last partial block, at the first and last value; along rows
    too."""
    from hanajit.lib.arrays import arg_lanes

    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    block = arg_lanes.BLOCK // np.dtype(dtype).itemsize
    a = rng.integers(info.min // 2, info.max // 2, n, dtype=dtype, endpoint=True)
    b = a.copy()
    for k, (e, s) in enumerate(zip(edges, shifts)):
        unit = block if k % 2 == 0 else arg_lanes.CHUNK
        at = min(max(e * unit + s, 0), n - 1)
        a[at] = info.max
        b[at] = info.min
    for x in (a, b):
        assert argmax_jit(x) == np.argmax(x) and argmin_jit(x) == np.argmin(x)
        for rows in (1, 2, 3, 7):
            if n % rows == 0:
                m = x.reshape(rows, -1)
                assert np.array_equal(argmax_rows_jit(m), np.argmax(m, axis=-1))
                assert np.array_equal(argmin_rows_jit(m), np.argmin(m, axis=1))


argmax_jit, argmin_jit = jit(argmax, fallback=False), jit(argmin, fallback=False)
argmax_rows_jit = jit(argmax_rows, fallback=False)
argmin_rows_jit = jit(argmin_rows, fallback=False)


def test_integers_run_as_vector_code(monkeypatch):
    """The largest of each block of integers is vector code whatever the width
    of the integers (a vector max or compare-and-select of that type)."""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")
    for dtype, ty in ((np.int8, "i8"), (np.uint16, "i16"), (np.int64, "i64")):
        g = jit(argmax, fallback=False)
        a = np.arange(5000).astype(dtype)
        assert g(a) == np.argmax(a)
        ir = g.inspect_llvm()
        assert re.search(rf"(max\.v\d+{ty}|select <\d+ x i1> %[^,]*, <\d+ x {ty}>)", ir), dtype
