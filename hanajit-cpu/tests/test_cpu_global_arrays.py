"""Arrays read through global and closure names (``lib/arrays/global_arrays.py``):
compiled, with the interpreter's results, the array's memory read and written in
place, never written to the disk cache."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning

TABLE = np.array([3.0, -1.5, 0.25, 8.0, -0.0])
GRID = np.arange(24.0).reshape(4, 6)
FGRID = np.asfortranarray(GRID)
BACK = np.arange(10, dtype=np.int32)[::-3]
COUNTS = np.zeros(5, np.int64)
FROZEN = np.arange(4.0)
FROZEN.flags.writeable = False
HALF = np.ones(3, np.float16)


def table_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += TABLE[i % 5] * x[i]
    return s


def weighted(x):
    return x * TABLE + GRID[1, :5]


def grid_stats(k):
    return GRID[k].sum(), FGRID[:, k].max(), BACK.sum(), np.dot(GRID[0], GRID[1])


def count(x):
    for v in x:
        COUNTS[v % 5] += 1
    return COUNTS.sum()


def frozen_write(i):
    FROZEN[i] = 1.0
    return 0


def view_of_table():
    return TABLE[1:4]


def whole_table():
    return TABLE


def half_sum():
    return HALF.sum()


def _strict(fn):
    f = jit(fn)

    def call(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return f(*args)
    return call


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("fn,args", [
    (table_sum, (np.linspace(-3, 3, 13),)),
    (weighted, (np.arange(5.0),)),
    (grid_stats, (2,)),
])
def test_reads_give_the_interpreters_values(fn, args):
    got = _strict(fn)(*args)
    want = fn(*args)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert type(g) is type(w)
            _same(g, w)
    else:
        assert type(got) is type(want)
        _same(got, want)


def test_the_array_is_read_live_and_written_in_place():
    f = _strict(table_sum)
    x = np.ones(5)
    before = f(x)
    old = TABLE.copy()
    try:
        TABLE[0] = 100.0            # Python writes after compilation: compiled code reads it
        assert f(x) == table_sum(x) != before
    finally:
        TABLE[:] = old
    COUNTS[:] = 0
    g = _strict(count)
    assert g(np.arange(12)) == 12
    assert COUNTS.tolist() == [3, 3, 2, 2, 2]       # compiled code wrote the global array
    COUNTS[:] = 0


def test_a_read_only_global_array_refuses_writes_as_numpy_does():
    f = _strict(frozen_write)
    with pytest.raises(ValueError, match="read-only"):
        f(1)
    with pytest.raises(ValueError, match="read-only"):
        frozen_write(1)


def test_returned_views_have_the_global_array_as_base():
    v = _strict(view_of_table)()
    _same(v, view_of_table())
    assert v.base is TABLE or v.base.base is TABLE or np.shares_memory(v, TABLE)
    w = _strict(whole_table)()
    _same(w, TABLE)
    assert np.shares_memory(w, TABLE)


def test_closure_arrays_and_rebinding():
    def make(weights):
        def dot(x):
            return (x * weights).sum()
        return dot
    for w in (np.arange(3.0), np.array([0.5, -2.0, 4.0])):
        fn = make(w)
        _same(_strict(fn)(np.ones(3)), fn(np.ones(3)))


def test_unsupported_dtypes_fall_back_naming_the_array():
    f = jit(half_sum)
    with pytest.warns(HanaJitFallbackWarning, match="HALF"):
        assert f() == half_sum()


def test_functions_reading_global_arrays_are_not_cached(tmp_path, monkeypatch):
    from hanajit import cache
    from hanajit.cache import deps
    assert deps.record(table_sum) is None
    assert deps.record(frozen_write) is None
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path))
    before = cache.stats["writes"]
    x = np.arange(7.0)
    assert jit(table_sum, cache=True)(x) == table_sum(x)
    assert cache.stats["writes"] == before


def _kernel_reading_table(out):
    out[0] = TABLE[0]


def test_targets_whose_code_runs_elsewhere_refuse_with_the_reason():
    from hanajit.errors import UnsupportedError
    from hanajit import plugins
    if "cuda" not in plugins.target_classes():
        pytest.skip("the cuda target is not installed")
    with pytest.raises(UnsupportedError, match="TABLE.*pass it as an argument"):
        jit(_kernel_reading_table, target="cuda", signature="f64[:]", fallback=False)


def test_helpers_loops_and_parallel_loops_read_it():
    from hanajit import prange

    @jit
    def helper(a, i):
        return a[i] * 2

    def loops(n):
        s = 0.0
        for v in GRID[1]:
            s += v
        return s + helper(TABLE, 2) + len(GRID) + GRID.shape[1] + GRID.size

    def parallel(n):
        out = np.empty(n)
        for i in prange(n):
            out[i] = TABLE[i % 5] * i
        return out
    assert _strict(loops)(1) == loops(1)
    _same(jit(parallel, parallel=True)(40), parallel(40))
