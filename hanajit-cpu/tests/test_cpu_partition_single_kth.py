"""np.partition / np.argpartition / a.partition() at a single kth, against NumPy
byte for byte.  Where NumPy takes its SIMD quickselect (x86-simd-sort on
AVX-512/AVX2 hosts: ``simd_single_kth``), the compiled code calls NumPy back on
its contiguous lanes (``lib/sorting/numpy_partition.py``: NumPy's own selection
function where ``numpy_select`` finds it, else a Python callback); elsewhere hanajit's
port of ``introselect_`` runs: the same assertions hold on either host.  Every
dtype NumPy routes to SIMD that hanajit compiles (float16 is not one), NaNs,
ties and signed zeros, axis=0/-1/None, C/Fortran/strided/reversed layouts,
negative kth, kth arrays of run-time length 1 (and 2: the port), in place,
inside a prange loop, NumPy's ValueError, and no memory kept per call."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit, prange
from hanajit.lib.sorting import numpy_select
from hanajit.lib.sorting.numpy_partition import SYMBOL
from hanajit.lib.sorting.partition import simd_single_kth
from hanajit.testing.compare import same_arrays
from hanajit.testing.jitted import jitted
from hanajit.testing.probe import outcome

SIMD_DTYPES = [np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
               np.float32, np.float64]


def single_2d(a, k):
    return (np.partition(a, k), np.partition(a, k, axis=0), np.partition(a, k, axis=None),
            np.argpartition(a, k), np.argpartition(a, k, axis=0),
            np.argpartition(a, k, axis=None), a.argpartition(k, axis=-2))


def single_1d(a, k):
    return np.partition(a, k), np.argpartition(a, k), np.partition(a, -1 - k)


def kth_array(a, kth):
    return np.partition(a, kth, axis=0), np.argpartition(a, kth)


def in_place(a, k):
    a.partition(k)
    return a


def in_place_axis0(a, k):
    a.partition(k, axis=0)
    return a


def rows(a, k):
    out = np.empty_like(a)
    pos = np.empty(a.shape, np.int64)
    for i in prange(a.shape[0]):
        out[i] = np.partition(a[i], k)
        pos[i] = np.argpartition(a[i], k)
    return out, pos


def _bits(x):
    return np.ascontiguousarray(x).tobytes()


same = same_arrays


def check(fn, a, *rest, **options):
    want = outcome(fn, [a.copy(), *rest])
    before = _bits(a)
    got = outcome(jitted(fn, fallback=False, **options), [a, *rest])
    assert _bits(a) == before
    if want[0] == "raise" or got[0] == "raise":
        assert got == want
    else:
        assert same(got[1], want[1])


def check_writes(fn, make, k):
    theirs, mine = make(), make()
    fn(theirs, k)
    jitted(fn, fallback=False)(mine, k)
    assert _bits(mine) == _bits(theirs) and mine.dtype == theirs.dtype


def _nan(bits):
    return np.array([bits], np.uint64).view(np.float64)[0]


FLOATS = np.array([0.0, -0.0, 1.0, -1.5, 2.0, 2.0, np.nan, -np.nan,
                   _nan(0x7FF0000000000123), np.inf, -np.inf, 3.25, -7.0])


def _values(rng, dtype, shape, spread=1000):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = rng.standard_normal(shape).astype(dt)
        special = rng.random(shape) < 0.3      # NaNs, signed zeros, infinities, ties
        with np.errstate(all="ignore"):
            a[special] = rng.choice(FLOATS, int(special.sum())).astype(dt)
        return a
    lo = -spread if dt.kind == "i" else 0
    return rng.integers(lo, spread, shape).astype(dt)


def _calls_numpy(fn, dtype):
    # where NumPy's SIMD order is not the port's: NumPy's selection function
    # itself where found (numpy_select), else the callback; elsewhere the port
    text = jitted(fn, fallback=False).inspect_llvm()
    name = np.dtype(dtype).name
    simd = simd_single_kth(name, False) or simd_single_kth(name, True)
    direct = numpy_select.checked(name) is not None
    return (f"hj.host.{SYMBOL}" in text) == (simd and not direct) \
        and ("hj.host.numpy_select_" in text) == (simd and direct)


@pytest.mark.parametrize("dtype", SIMD_DTYPES)
def test_dtypes_axes(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    for shape in [(40, 30), (3, 300), (1, 5), (7, 1), (2, 2)]:
        a = _values(rng, dtype, shape)
        m = min(shape)
        for k in {0, m // 2, m - 1, -1, -m}:
            check(single_2d, a, k)
    a = _values(rng, dtype, (64, 9), spread=3)             # many ties
    check(single_2d, a, 4)
    for n in (2, 17, 129, 1000, 4099):
        a = _values(rng, dtype, (n,))
        check(single_1d, a, n // 3)
    assert _calls_numpy(single_1d, dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_layouts(dtype):
    rng = np.random.default_rng(5)
    base = _values(rng, dtype, (60, 80))
    for a in (base.T, np.asfortranarray(base), base[::-1, ::3], base[1::2, ::-1]):
        check(single_2d, a, 7)
        check(single_2d, a, -3)
    b = _values(rng, dtype, (500,))
    for a in (b[::-2], b[::3]):
        check(single_1d, a, 50)


def test_signed_zeros_and_nans_only():
    rng = np.random.default_rng(8)
    for vals in ([0.0, -0.0], [np.nan, 0.0, -0.0, np.nan], [1.0, np.nan]):
        for dtype in (np.float32, np.float64):
            a = rng.choice(np.array(vals), (30, 200)).astype(dtype)
            check(single_2d, a, 17)


def test_in_place():
    rng = np.random.default_rng(12)
    for dtype in (np.float64, np.uint16):
        a = _values(rng, dtype, (30, 50))
        check_writes(in_place, a.copy, 10)
        check_writes(in_place, a.copy, -5)
        check_writes(in_place, lambda: np.asfortranarray(a), 3)
        check_writes(in_place, lambda: a.copy()[::-1, 1::2], 2)
        check_writes(in_place_axis0, a.copy, 4)
        check_writes(in_place_axis0, lambda: a.copy()[::2], -1)


def test_kth_arrays():
    # run-time length 1: NumPy's SIMD quickselect (the callback); 2: the port
    rng = np.random.default_rng(13)
    for dtype in (np.float64, np.int64, np.float32):
        a = _values(rng, dtype, (50, 40))
        for kth in ([5], [-1], [0, 3], [39, -40]):
            check(kth_array, a, np.array(kth))
        check(kth_array, a, np.array(7))                   # a 0-d kth array


def test_small_and_empty():
    for a in (np.zeros(0), np.ones(1), np.array([-0.0, 0.0])):
        check(single_1d, a, 0)
    for shape in [(0, 4), (4, 0), (1, 1)]:
        check(single_2d, np.zeros(shape), 0)


def test_out_of_bounds():
    a = np.arange(12.0).reshape(3, 4)
    for k in (4, -5, 100):
        check(single_2d, a, k)
    check(single_1d, np.arange(5.0), 5)
    check(kth_array, a, np.array([3]))                     # 3 out of axis 0's 3
    check(single_1d, np.zeros(0), 9)                       # empty: nothing checked


def test_prange():
    rng = np.random.default_rng(14)
    for dtype in (np.float64, np.int32):
        a = _values(rng, dtype, (48, 700))
        check(rows, a, 100, parallel=True)
        check(rows, a, -1, parallel=True)


def _rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 // 1024


def test_no_leak():
    f = jitted(single_1d, fallback=False)
    a = np.random.default_rng(2).standard_normal(1000)
    for _ in range(1000):
        f(a, 300)
    before = _rss_kib()
    for _ in range(10_000):
        f(a, 300)
    assert _rss_kib() - before < 2048       # 10^4 calls of 3 results of 8 KB each


def test_no_fallback_warning():
    # a single kth compiles (no HanaJitFallbackWarning) whatever the host
    import warnings
    from hanajit import HanaJitFallbackWarning

    def f(a):
        return np.partition(a, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        a = np.array([3.0, -0.0, 0.0, 1.0, np.nan])
        assert same(jit(f)(a), f(a))


def test_code_outside_this_process_refuses():
    # an exporter's module (no host calls) cannot call NumPy back: where NumPy's
    # order is the SIMD one, the single kth is refused, naming it
    from hanajit.errors import UnsupportedError

    def f(a):
        return np.partition(a, 3)
    j = jit(f, fallback=False)
    j(np.arange(8.0))
    if simd_single_kth("float64", False):
        with pytest.raises(UnsupportedError, match="single kth"):
            j.ir_module()
    else:
        j.ir_module()


def test_callback_reports_a_status():
    # the callback never raises into C: NumPy's exception becomes a status the
    # compiled code raises (MemoryError 1, ValueError 2, TypeError 3, other 4)
    from hanajit.lib.sorting import numpy_partition as hp
    a = np.array([3.0, 1.0, 2.0])
    code = 2 * hp.DTYPES.index("float64")
    assert hp.host_partition(a.ctypes.data, 0, 1, 3, 1, code) == 0
    assert a.tobytes() == np.partition(np.array([3.0, 1.0, 2.0]), 1).tobytes()
    assert hp.host_partition(a.ctypes.data, 0, 1, 3, 7, code) == 2   # kth beyond
    assert hp.host_partition(a.ctypes.data, 0, 1, 3, 1, 999) == 4    # no such dtype


@pytest.mark.parametrize("dtype", SIMD_DTYPES)
def test_sizes_of_the_benchmark(dtype):
    # 100, 10^4 and 10^5 values (x86-simd-sort's sorting network on short lanes,
    # its quickselect on long ones), kth's at both ends and inside
    rng = np.random.default_rng(40 + np.dtype(dtype).num)
    for n in (100, 10_000, 100_001):
        a = _values(rng, dtype, (n,))
        for k in (0, 50, n // 2, n - 1):
            check(single_1d, a, k)
        check(single_1d, a[::-3], 20)


def test_selection_functions_found_and_checked():
    # NumPy's wheels keep the symbol table: every dtype the callback knows is found
    # and checked here (another build may lack it: then the callback is used)
    from hanajit.lib.sorting import numpy_partition as hp
    found = [numpy_select.checked(name) is not None for name in hp.DTYPES]
    assert all(found) or not any(found)
    assert numpy_select.address("numpy_select_float64") == \
        (numpy_select.checked("float64") or (None,))[0]
    assert numpy_select.address("numpy_argselect_complex128") is None
    assert numpy_select.address("numpy_sort_quick_float64") is None
    assert numpy_select.elf_symbols(__file__, {"x"}) == {}          # not an ELF file


def test_callback_where_the_functions_are_missing(monkeypatch):
    # a NumPy without its symbol table: the Python callback gives the same result
    def f(a, k):
        return np.partition(a, k), np.argpartition(a, k), np.argpartition(a.T, k)
    monkeypatch.setattr(numpy_select, "checked", lambda name: None)
    j = jit(f, fallback=False)
    rng = np.random.default_rng(3)
    for dtype in (np.float64, np.int32):
        a = _values(rng, dtype, (20, 30))
        assert same(j(a, 7), f(a, 7))
    if simd_single_kth("float64", False):
        text = j.inspect_llvm()
        assert f"hj.host.{SYMBOL}" in text and "numpy_select_" not in text
