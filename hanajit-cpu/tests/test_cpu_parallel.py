"""prange / parallel=True: parallel results equal serial results (exactly for
integers, within reassociation tolerance for floats), every dependence kind is
refused with a message naming it, errors propagate once and the pool stays usable."""
import contextlib
import math
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import hanajit
from hanajit import jit, prange
from hanajit.errors import HanaJitParallelWarning, UnsupportedError
from hanajit.testing.jitted import jitted

SIZES = [0, 1, 2, 3, 7, 64, 1001]


@contextlib.contextmanager
def _quiet():
    """Every loop in the block must run in parallel (a refusal is an error)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitParallelWarning)
        yield


# ------------------------------------------------------------------ kernels
def saxpy(y, x, a):
    for i in prange(len(y)):
        y[i] = a * x[i] + y[i]


def isum(x):
    s = 0
    for i in prange(len(x)):
        s += x[i] * 3 - 1
    return s


def fsum(x):
    s = 0.0
    for i in prange(x.shape[0]):
        s += math.sqrt(abs(x[i]))
    return s


def prod_min_max(x):
    p = 1
    lo = x[0]
    hi = x[0]
    for i in prange(len(x)):
        p *= 1 + (x[i] % 7 == 0)
        lo = min(lo, x[i])
        hi = max(hi, x[i])
    return p, lo, hi


def rows(a, out):
    n, m = a.shape
    for i in prange(n):
        acc = 0.0
        for j in range(m):
            acc += a[i, j] * (j + 1)
        out[i] = acc
        out2 = a[i, :] * 2.0
        a[i, :] = out2


def cols(a):
    n, m = a.shape
    for j in prange(m):
        for i in range(1, n):
            a[i, j] = a[i - 1, j] + a[i, j]
    return a


def nested(a):
    n, m = a.shape
    s = 0
    for i in prange(n):
        for j in prange(m):
            s += a[i, j]
    return s


def stepped(x, start, stop, step):
    s = 0
    for i in prange(start, stop, step):
        s += x[i] * i
    return s


def conditional(x, out):
    for i in prange(len(x)):
        if x[i] > 0:
            v = x[i]
        else:
            v = -2 * x[i]
        out[i] = v


def subtract(x):
    s = 100
    for i in prange(len(x)):
        s -= x[i]
    return s


@pytest.mark.parametrize("n", SIZES)
def test_saxpy_and_integer_reductions_exact(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n)
    y = rng.standard_normal(n)
    expect = 2.5 * x + y
    saxpy_j = jitted(saxpy)
    saxpy_j(y, x, 2.5)
    np.testing.assert_array_equal(y, expect)
    xi = rng.integers(-10**6, 10**6, n)
    assert jitted(isum)(xi) == isum(xi)
    assert jitted(subtract)(xi) == subtract(xi)


@pytest.mark.parametrize("n", SIZES)
def test_float_reduction_close(n):
    x = np.random.default_rng(1).standard_normal(n)
    assert math.isclose(jitted(fsum)(x), fsum(x), rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 5, 300])
def test_product_min_max_exact(n):
    x = np.random.default_rng(n).integers(-50, 50, n)
    assert jitted(prod_min_max)(x) == prod_min_max(x)
    xf = np.random.default_rng(n).standard_normal(n)
    xf[::3] = np.nan               # Python's min/max skip a NaN after the first value
    got = jitted(prod_min_max)(xf)
    want = prod_min_max(xf)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        assert (math.isnan(g) and math.isnan(w)) or g == w


@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (5, 4), (33, 7)])
def test_rows_private_arrays_and_inner_loops(shape):
    a = np.random.default_rng(3).standard_normal(shape)
    a1, a2 = a.copy(), a.copy()
    o1, o2 = np.zeros(shape[0]), np.zeros(shape[0])
    jitted(rows)(a1, o1)
    rows(a2, o2)
    np.testing.assert_array_equal(a1, a2)
    np.testing.assert_allclose(o1, o2, rtol=0, atol=0)


def test_column_scan_parallel_over_columns():
    a = np.arange(60).reshape(6, 10)
    np.testing.assert_array_equal(jit(cols)(a.copy()), cols(a.copy()))


def test_nested_prange_and_steps():
    a = np.arange(35).reshape(5, 7)
    assert jit(nested)(a) == nested(a)
    x = np.arange(50)
    for args in [(0, 50, 1), (3, 50, 4), (49, -1, -3), (10, 0, 1), (0, 50, 100)]:
        assert jitted(stepped)(x, *args) == stepped(x, *args)
    with pytest.raises(ValueError, match="must not be zero"):
        jitted(stepped)(x, 0, 10, 0)


def test_branch_assigned_private():
    x = np.random.default_rng(0).standard_normal(101)
    o1, o2 = np.empty(101), np.empty(101)
    jit(conditional)(x, o1)
    conditional(x, o2)
    np.testing.assert_array_equal(o1, o2)


def test_workers_option_and_set_num_threads():
    x = np.arange(1000)
    assert jit(isum, workers=1)(x) == isum(x)
    assert jit(isum, workers=3)(x) == isum(x)
    old = hanajit.get_num_threads()
    try:
        hanajit.set_num_threads(1)
        assert jit(isum)(x) == isum(x)
        with pytest.raises(ValueError):
            hanajit.set_num_threads(0)
    finally:
        hanajit.set_num_threads(old)


# ------------------------------------------------------------- exceptions
def gather(x, idx):
    s = 0
    for i in prange(len(idx)):
        s += x[idx[i]]
    return s


def test_exception_propagates_once_and_pool_stays_usable():
    f = jit(gather)
    x = np.arange(10)
    assert f(x, np.array([1, 2, 3])) == 6
    for _ in range(3):
        with pytest.raises(IndexError, match="index 30 is out of bounds"):
            f(x, np.array([1, 2, 30, 3, 50, 4, 2, 1, 1, 1]))
    assert f(x, np.arange(10)) == 45


# ------------------------------------------------------------- dependences
def prefix(x):
    for i in prange(1, len(x)):
        x[i] = x[i - 1] + x[i]
    return x


def carried(x):
    t = 0.0
    for i in prange(len(x)):
        t = t * 0.5 + x[i]
    return t


def last_value(x):
    for i in prange(len(x)):
        v = x[i] * 2
    return v


def indirect(x, idx):
    for i in prange(len(idx)):
        x[idx[i]] = i
    return x


def whole(x):
    for i in prange(len(x)):
        x[i] = np.sum(x)
    return x


def view_write(a):
    for i in prange(a.shape[0]):
        r = a[0]
        r[i] = i
    return a


def breaks(x):
    for i in prange(len(x)):
        if x[i] < 0:
            break
        x[i] = 1
    return x


def mixed_ops(x):
    s = 0
    for i in prange(len(x)):
        s += x[i]
        s *= 2
    return s


def helper_write(out, i):
    out[i] = i


helper_write_j = jit(helper_write)


def passes_array(out):
    for i in prange(len(out)):
        helper_write_j(out, i)
    return out


def widens(x):
    s = 0
    for i in prange(len(x)):
        s += x[i] * 0.5
    return s


DEPENDENCES = [
    (prefix, (np.arange(6.0),), "'x' is written at an index"),
    (carried, (np.arange(6.0),), "'t' carries a value"),
    (last_value, (np.arange(6.0),), "read after it"),
    (indirect, (np.zeros(5), np.array([0, 1, 1, 2])), "'x' is written at an index"),
    (whole, (np.arange(4.0),), "used as a whole"),
    (view_write, (np.zeros((3, 3)),), "may be a view"),
    (breaks, (np.arange(4.0),), "'break' leaves the loop"),
    (mixed_ops, (np.arange(4),), "used otherwise"),
    (passes_array, (np.zeros(4),), "passed to a function"),
    (widens, (np.arange(5),), "changes type"),
]


@pytest.mark.parametrize("func,args,why", DEPENDENCES, ids=[d[0].__name__ for d in DEPENDENCES])
def test_dependence_runs_serially_with_warning(func, args, why):
    expect = func(*[a.copy() for a in args])
    with pytest.warns(HanaJitParallelWarning, match=why):
        got = jit(func)(*[a.copy() for a in args])
    if isinstance(expect, np.ndarray):
        np.testing.assert_array_equal(got, expect)
    else:
        assert got == expect


@pytest.mark.parametrize("func,args,why", DEPENDENCES[:3], ids=["prefix", "carried", "last"])
def test_dependence_is_an_error_without_fallback(func, args, why):
    with pytest.raises(UnsupportedError, match=why):
        jitted(func, fallback=False)(*[a.copy() for a in args])


def test_aliased_arguments_run_serially_with_the_serial_answer():
    def shift(dst, src):
        for i in prange(len(dst)):
            dst[i] = src[i] + 1.0
        return dst

    b = np.arange(10.0)
    serial = b.copy()
    shift(serial[1:], serial[:-1])             # the interpreter, in order
    got = jit(shift)(b[1:], b[:-1])            # overlapping views: one chunk
    np.testing.assert_array_equal(b, serial)
    assert got.shape == (9,)


# ---------------------------------------------------------- parallel=True
def auto(x, y):
    for i in range(len(x)):
        y[i] = x[i] * x[i]
    s = 0.0
    for i in range(len(x)):
        s += y[i]
    for i in range(1, len(x)):
        y[i] = y[i] + y[i - 1]
    return s


def test_parallel_true_promotes_eligible_loops_and_warns_on_the_rest():
    x = np.arange(20.0)
    y1, y2 = np.zeros(20), np.zeros(20)
    with pytest.warns(HanaJitParallelWarning, match="line") as rec:
        got = jit(auto, parallel=True)(x, y1)
    assert len(rec) == 1                      # only the prefix-sum loop
    assert got == auto(x, y2)
    np.testing.assert_array_equal(y1, y2)


def test_prange_outside_jit_is_range():
    assert list(prange(3)) == [0, 1, 2]
    assert list(prange(1, 7, 2)) == [1, 3, 5]


def test_uses_threads_and_survives_fork(tmp_path):
    script = tmp_path / "k.py"
    script.write_text(textwrap.dedent("""
        import os, sys, numpy as np
        from hanajit import jit, prange
        @jit
        def f(x):
            s = 0
            for i in prange(len(x)):
                s += x[i]
            return s
        x = np.arange(100000)
        assert f(x) == x.sum()
        pid = os.fork()
        if pid == 0:
            os._exit(0 if f(x) == x.sum() else 3)
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0, status
        print("ok")
    """))
    env = dict(os.environ, HANAJIT_NUM_THREADS="2")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "ok" in r.stdout


# ------------------------------------------------------- array reductions
def histogram(x, nbins):
    h = np.zeros(nbins, dtype=np.int64)
    for i in prange(len(x)):
        k = int(x[i] * nbins)
        if k >= nbins:
            k = nbins - 1
        h[k] += 1
    return h


def scatter_add(idx, w, out):
    for i in prange(len(idx)):
        out[idx[i]] += w[i]
    return out


def grid2d(ii, jj, out):
    for k in prange(len(ii)):
        out[ii[k], jj[k]] = out[ii[k], jj[k]] + 2
        out[ii[k], 0] -= 1
    return out


def scale_by(idx, f, out):
    for i in prange(len(idx)):
        out[idx[i]] *= f[i]
    return out


@pytest.mark.parametrize("n", SIZES)
def test_array_reductions_exact_for_integers(n):
    rng = np.random.default_rng(n)
    x = rng.random(n)
    with _quiet():
        np.testing.assert_array_equal(jitted(histogram)(x, 7), histogram(x, 7))
        ii, jj = rng.integers(0, 3, n), rng.integers(0, 4, n)
        np.testing.assert_array_equal(jitted(grid2d)(ii, jj, np.zeros((3, 4), np.int64)),
                                      grid2d(ii, jj, np.zeros((3, 4), np.int64)))
        idx = rng.integers(0, 5, n)
        f = rng.integers(-2, 3, n)
        np.testing.assert_array_equal(jitted(scale_by)(idx, f, np.ones(5, np.int64)),
                                      scale_by(idx, f, np.ones(5, np.int64)))


def test_array_reduction_floats_close_and_aliasing_serial():
    rng = np.random.default_rng(5)
    idx, w = rng.integers(0, 5, 1000), rng.random(1000)
    with _quiet():
        np.testing.assert_allclose(jit(scatter_add)(idx, w, np.ones(5)),
                                   scatter_add(idx, w, np.ones(5)), rtol=1e-12)
        b, c = np.arange(6.0), np.arange(6.0)
        jit(scatter_add)(np.array([0, 1, 2]), b[1:4], b)     # reads what it updates
        scatter_add(np.array([0, 1, 2]), c[1:4], c)
        np.testing.assert_array_equal(b, c)


def test_array_reduction_rounded_each_step_is_serial():
    idx, w = np.array([0, 1, 0, 2]), np.array([0.5, 0.7, 0.6, 2.5])
    with pytest.warns(HanaJitParallelWarning, match="rounded at every step"):
        got = jit(scatter_add)(idx, w, np.zeros(3, np.int64))
    np.testing.assert_array_equal(got, scatter_add(idx, w, np.zeros(3, np.int64)))


def test_pool_many_regions_and_concurrent_callers():
    import threading
    f = jitted(isum)
    x = np.arange(257)
    want = isum(x)
    assert all(f(x) == want for _ in range(2000))
    bad = []

    def worker():
        for _ in range(200):
            if f(x) != want:
                bad.append(1)
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not bad and not any(t.is_alive() for t in threads)


def checked_total(x, j):
    """Sums x, reading x[j] in the chunk holding index 0: IndexError when j is out
    of range."""
    t = 0
    for i in prange(x.shape[0]):
        t += x[i]
        if i == 0:
            t += x[j] * 0
    return t


def test_pool_claims_chunks_under_contention_with_errors():
    """Chunks are claimed by whichever thread gets there first: 4 Python threads
    calling a nogil kernel over 8 pool workers (more than the cores), many sizes
    (smaller than the worker count included), some calls raising from a chunk:
    every result right, every error the right one, the pool still usable."""
    import threading
    f = jit(checked_total, nogil=True, workers=8)
    bad = []

    def caller(seed):
        rng = np.random.default_rng(seed)
        for _ in range(300):
            n = int(rng.integers(0, 40))
            x = rng.integers(-50, 50, n)
            j = int(rng.integers(-3, 3)) if n else 0
            try:
                got = f(x, j)
            except IndexError:
                got = "IndexError"
            try:
                want = checked_total(x, j) if -n <= j < n or n == 0 else "IndexError"
            except IndexError:
                want = "IndexError"
            if got != want:
                bad.append((n, j, got, want))
    threads = [threading.Thread(target=caller, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert not bad, bad[:5]
    x = np.arange(1000)
    assert f(x, 5) == x.sum()
