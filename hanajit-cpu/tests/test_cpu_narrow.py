"""f.narrow(*args, confirmed=True): integer reductions added in narrow blocks, exact.

The accumulators start as ``np.int64(0)``: ``acc = 0; acc += x[i]`` over int8 data
adds in int8 under NumPy 2's promotion (the 0 is a weak Python int), as the
interpreter does, and there is nothing to narrow.

Every result is compared with the ordinary compiled function and with NumPy over
int8/int16/int32/uint arrays (extremes, empty, strided, reversed, misaligned views),
for bodies that are not plain sums, with block lengths shortened so that small
hypothesis arrays cross many block boundaries.
"""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hanajit import jit
from hanajit.errors import HanaJitNarrowWarning
from hanajit.typing_rules import typeof
from hanajit.narrow import narrow_spec
from hanajit.passes import narrow_reductions as nr

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("error::hanajit.errors.HanaJitNarrowWarning")]

NARROW = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32]


# ------------------------------------------------------------------ kernels
def loop_sum(x):
    acc = np.int64(0)
    for i in range(len(x)):
        acc += x[i]
    return acc


def np_sum(x):
    return np.sum(x)


def cond_sum(x):
    acc = np.int64(0)
    for i in range(len(x)):
        if x[i] > 3:
            acc += x[i]
    return acc


def count_big(x):
    acc = np.int64(0)
    for i in range(len(x)):
        acc += x[i] > 3
    return acc


def square_wrapping(x):          # x[i] * x[i] wraps in the element type (NumPy)
    acc = np.int64(0)
    for i in range(len(x)):
        acc += x[i] * x[i]
    return acc


def two_accumulators(x, out):
    s = np.int64(0)
    q = np.int64(0)
    for i in range(len(x)):
        v = x[i]
        s += v
        q -= (v & 7) * 3 - 5
        out[i] = v                # a store in the loop: iterations keep their order
    return s, q


def wraps_around(x):
    acc = np.int64(9223372036854775000)    # wraps past the maximum, as NumPy's int64
    for i in range(len(x)):
        acc += x[i]
    return acc


def as_int64(a):
    return a.astype(np.int64)


REFERENCES = {
    loop_sum: lambda a: int(as_int64(a).sum()),
    np_sum: lambda a: int(np.sum(a, dtype=np.uint64 if a.dtype.kind == "u" else np.int64)),
    cond_sum: lambda a: int(as_int64(a)[as_int64(a) > 3].sum()),
    count_big: lambda a: int((a > 3).sum()),
    square_wrapping: lambda a: int(as_int64(a * a).sum()),
    wraps_around: lambda a: (9223372036854775000 + int(as_int64(a).sum()) + 2**63)
    % 2**64 - 2**63,
}


def fresh(fn):
    return jit(fn, fallback=False)


@pytest.fixture
def short_blocks(monkeypatch):
    """Blocks of 16 terms, so small arrays cross many block boundaries."""
    monkeypatch.setattr(nr, "MIN_BLOCK", 4)
    monkeypatch.setattr(nr, "MIN_BLOCK_CHECKED", 4)
    monkeypatch.setattr(nr, "MAX_BLOCK", 16)


def check(fn, a, f=None):
    """``f`` (a fresh jitted ``fn`` when None) narrow, compiled and NumPy agree."""
    f = f or fresh(fn)
    got = f.narrow(a, confirmed=True)
    assert got == f(np.ascontiguousarray(a)) == REFERENCES[fn](a)
    blocks = [r.blocks for r in narrow_spec(f, (typeof(a),)).report]
    if a.dtype.itemsize < 4 or fn is count_big:      # not vacuous: blocks are used
        assert any(b not in (None, nr.AS_COMPILED) for b in blocks), blocks
    return f


def views(a):
    return [a, a[1::3], a[::-1], a[::-2], a[:0]]


# -------------------------------------------------------------------- tests
@settings(max_examples=25, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(NARROW),
       fn=st.sampled_from(sorted(REFERENCES, key=lambda f: f.__name__)),
       variable=st.booleans())
def test_narrow_equals_compiled_and_numpy(data, dtype, fn, variable):
    a = data.draw(hnp.arrays(dtype, st.integers(0, 200),
                             elements=hnp.from_dtype(np.dtype(dtype))))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(nr, "MIN_BLOCK", 4)
        mp.setattr(nr, "MIN_BLOCK_CHECKED", 4)
        mp.setattr(nr, "MAX_BLOCK", 16)
        if variable:          # the form of loops with checks: blocks of min(L, rest)
            mp.setattr(nr, "_can_raise", lambda body: True)
        for v in views(a):
            check(fn, v)


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("fn", [loop_sum, np_sum, cond_sum, count_big, square_wrapping,
                                wraps_around])
def test_extremes_at_real_block_lengths(dtype, fn):
    info = np.iinfo(dtype)
    n = 3 * (1 << 16) + 17          # past a whole int32 block of int16 terms
    # one jitted function for the case (its narrow code kept per argument type:
    # the C-ordered arrays share one, the strided views another), made here, with
    # the real block lengths
    f = fresh(fn)
    for fill in (info.min, info.max):
        check(fn, np.full(n, fill, dtype), f)
    a = np.resize(np.array([info.min, info.max, info.max, -1 % (info.max + 1)], dtype), n)
    for v in views(a):
        check(fn, v, f)


def _sum_sq(a):
    return np.sum(a * a)


def _count(a):
    return np.sum(a > 3)


def _method(a):
    return a.sum()


def _diffs(a):
    return np.sum(a[1:] - a[:-1])


def _abs(a):
    return np.sum(np.abs(a))


def _dot(a):
    return np.dot(a, a)


@pytest.mark.parametrize("fn", [_sum_sq, _count, _method, _diffs, _abs, _dot])
@pytest.mark.parametrize("dtype", NARROW)
def test_numpy_reductions_equal_numpy(fn, dtype):
    info = np.iinfo(dtype)
    a = np.resize(np.array([info.min, info.max, 3, 4, -1 % (info.max + 1)], dtype),
                  70_001)
    for v in (a, a[::-3]):
        f = fresh(fn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)     # NumPy's own overflow
            want = fn(v)
        assert f.narrow(v, confirmed=True) == f(v) == want


def test_uses_16_and_32_bit_blocks():
    a = np.full(1000, -128, np.int8)
    f = fresh(np_sum)
    assert f.narrow(a, confirmed=True) == -128000
    spec = narrow_spec(f, (typeof(a),))
    assert {r.blocks for r in spec.report} == {"int16 x 256"}    # -128 * 256 fits
    assert "x i16>" in spec.artifact.stages["llvm"]               # 16-bit lanes
    g = fresh(loop_sum)          # a loop with an index check: long int32 blocks
    assert g.narrow(a, confirmed=True) == -128000
    assert "int32 x 1048576" in [r.blocks for r in narrow_spec(g, (typeof(a),)).report]
    u = np.full(1000, 255, np.uint8)
    assert fresh(np_sum).narrow(u, confirmed=True) == 255000    # uint16 x 257 -> 256


def test_int32_terms_keep_64_bit_lanes_without_warning():
    a = np.array([2**31 - 1] * 5 + [-2**31] * 3, np.int32)
    f = fresh(loop_sum)
    assert f.narrow(a, confirmed=True) == 5 * (2**31 - 1) - 3 * 2**31
    assert {r.blocks for r in narrow_spec(f, (typeof(a),)).report} == {nr.AS_COMPILED}


def test_body_with_stores_and_two_accumulators():
    rng = np.random.default_rng(3)
    for dtype in NARROW:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, 70_001, endpoint=True).astype(dtype)
        f = fresh(two_accumulators)
        out, ref = np.zeros_like(a), np.zeros_like(a)
        assert f.narrow(a, out, confirmed=True) == f(a, ref)
        assert np.array_equal(out, a) and np.array_equal(ref, a)
        a64 = as_int64(a)
        assert f(a, ref)[0] == a64.sum()


def test_two_dimensional_sums(short_blocks):
    a = np.arange(-600, 600, dtype=np.int16).reshape(30, 40)
    for v in (a, a.T, a[:, ::3], a[::-1, 1::2], np.asfortranarray(a)):
        f = fresh(np_sum)
        assert f.narrow(v, confirmed=True) == f(v) == int(v.sum())


def _helper(v):
    if v > 0:
        return v * 3
    return -v


def through_helper(x):
    acc = np.int64(0)
    for i in range(len(x)):
        acc += HELPER(x[i])
    return acc


HELPER = jit(_helper)


def parallel_sum(x):
    acc = np.int64(0)
    for i in range(len(x)):
        acc += x[i] * 2
    return acc


def test_helpers_and_parallel_loops():
    a = np.resize(np.array([-128, 127, 5, -3], np.int8), 300_001)
    f = fresh(through_helper)
    with np.errstate(over="ignore"):          # v * 3 and -v wrap in int8, as NumPy's
        want = int(as_int64(np.where(a > 0, a * np.int8(3), -a)).sum())
    assert f.narrow(a, confirmed=True) == f(a) == want
    p = jit(parallel_sum, parallel=True, fallback=False)
    assert p.narrow(a, confirmed=True) == p(a) == int(as_int64(a * 2).sum())


def test_misaligned_views():
    for dtype in (np.int16, np.uint16, np.int32, np.uint32):
        size = np.dtype(dtype).itemsize
        raw = np.arange(1 + size * 5001, dtype=np.uint8)
        v = raw[1:].view(dtype)
        assert not v.flags.aligned
        for w in (v, v[::-3]):
            f = fresh(loop_sum)
            assert f.narrow(w, confirmed=True) == f(w.copy()) == int(as_int64(w).sum())
            assert f.narrow(w, confirmed=True) == int(as_int64(w).sum())    # again


def test_misaligned_output_is_written_back():
    raw = np.zeros(1 + 2 * 100, np.uint8)
    out = raw[1:].view(np.int16)
    a = np.arange(100, dtype=np.int16)
    f = fresh(two_accumulators)
    s, _ = f.narrow(a, out, confirmed=True)
    assert s == 4950 and np.array_equal(out, a)


def test_errors_in_the_loop_are_raised():
    def off_by_one(x):
        acc = np.int64(0)
        for i in range(len(x)):
            acc += x[i + 1]
        return acc
    f = fresh(off_by_one)
    with pytest.raises(IndexError):
        f.narrow(np.arange(300, dtype=np.int8), confirmed=True)


def test_keywords_and_the_ordinary_function_stay_apart():
    f = fresh(two_accumulators)
    a = np.arange(-50, 50, dtype=np.int8)
    out = np.zeros_like(a)
    assert f.narrow(out=out, x=a, confirmed=True) == (-50, f(a, out)[1])
    assert np.array_equal(out, a)
    assert f.signatures == [(typeof(a), typeof(out))]     # only the ordinary call's
    assert "i64" in f.inspect_llvm() and "x i16>" not in f.inspect_llvm()


def test_target_auto():
    f = jit(loop_sum, target="auto", fallback=False)
    if f._target().kind != "host":
        pytest.skip("target='auto' chose a GPU target here")
    a = np.arange(-100, 1000, dtype=np.int16)
    assert f.narrow(a, confirmed=True) == f.narrow(a, confirmed=True) == f(a)


def test_confirmed_is_required():
    f = fresh(loop_sum)
    a = np.arange(10, dtype=np.int8)
    for kw in ({}, {"confirmed": False}, {"confirmed": 1}):
        with pytest.raises(ValueError, match="confirmed=True"):
            f.narrow(a, **kw)


def float_sum(x):
    acc = 0.0
    for i in range(len(x)):
        acc += x[i]
    return acc


def prefix(x, out):
    acc = np.int64(0)
    for i in range(len(x)):
        acc += x[i]
        out[i] = acc
    return acc


def early_exit(x):
    acc = np.int64(0)
    for i in range(len(x)):
        if x[i] == 0:
            break
        acc += x[i]
    return acc


@pytest.mark.parametrize("fn, args, why", [
    (float_sum, (np.arange(9, dtype=np.int8),), "'acc' is float64"),
    (loop_sum, (np.arange(9),), "no bound narrower than 64 bits"),
    (prefix, (np.arange(9, dtype=np.int8), np.zeros(9, np.int64)), "used elsewhere"),
    (early_exit, (np.arange(1, 9, dtype=np.int8),), "contains a break"),
])
def test_bodies_it_cannot_narrow_run_compiled_with_one_warning(fn, args, why):
    f = fresh(fn)
    expected = f(*[np.copy(a) for a in args])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert f.narrow(*args, confirmed=True) == expected
        assert f.narrow(*args, confirmed=True) == expected
    mine = [w for w in caught if w.category is HanaJitNarrowWarning]
    assert len(mine) == 1, [str(w.message) for w in mine]
    assert fn.__name__ in str(mine[0].message) and why in str(mine[0].message)
    assert mine[0].filename == __file__           # points at the caller


# ------------------------------------------------- generated accumulator terms
LEAVES = ["v", "w", "np.int64(v)", "1", "3", "7"]


def _terms():
    leaf = st.sampled_from(LEAVES)

    def grow(sub):
        pair = st.tuples(sub, sub)
        return st.one_of(
            st.builds(lambda p, op: f"({p[0]} {op} {p[1]})", pair,
                      st.sampled_from(["+", "-", "*", "&", "|", "^"])),
            st.builds(lambda a, op, k: f"({a} {op} {k})", sub,
                      st.sampled_from([">>", "<<", "//", "%"]), st.integers(1, 3)),
            st.builds(lambda p, op: f"({p[0]} {op} {p[1]})", pair,
                      st.sampled_from([">", "<=", "=="])),
            st.builds(lambda p, f: f"{f}({p[0]}, {p[1]})", pair,
                      st.sampled_from(["min", "max"])),
            st.builds(lambda p, c: f"({p[0]} if {c} > 0 else {p[1]})", pair, sub),
            st.builds(lambda a: f"abs({a})", sub))
    return st.recursive(leaf, grow, max_leaves=6)


def _outcome(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except Exception as exc:          # both must raise alike
        return type(exc)


@settings(max_examples=25, deadline=None)
@given(term=_terms(), dtype=st.sampled_from(NARROW), data=st.data())
def test_generated_terms_match_the_compiled_function(term, dtype, data):
    from hanajit.testing.sourcefile import load_module
    info = np.iinfo(dtype)
    pattern = data.draw(st.lists(st.sampled_from(
        [info.min, info.max, info.min + 1, info.max - 1, 0, 1, -1 % (info.max + 1)])
        | st.integers(info.min, info.max), min_size=1, max_size=8))
    a = np.resize(np.array(pattern, dtype), data.draw(st.integers(0, 1500)))
    mod = load_module(
        "import numpy as np\n\n\ndef k(x):\n    acc = 0\n    for i in range(len(x)):\n"
        f"        v = x[i]\n        w = x[len(x) - 1 - i]\n        acc += {term}\n"
        "    return acc\n", "narrow")
    f = fresh(mod.k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # both paths may warn (NumPy, narrow)
        want = _outcome(f, a)
        if f._fallback_reasons:
            return                          # not compiled: nothing to compare
        assert _outcome(f.narrow, a, confirmed=True) == want, term
