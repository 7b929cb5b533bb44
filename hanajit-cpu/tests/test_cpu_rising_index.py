"""Indices of an int local that only counts up from a non-negative start (a search
index ``j = 0 ... j += 1``) skip the negative-index wrap
(``int_overflow.Facts.rising``); bounds checks and every result, IndexError and
wrap of the interpreter stay."""
import numpy as np
import pytest

from hanajit import jit
from hanajit.ir import nodes as N


def search(xp, v):
    j = 0
    while j < xp.shape[0] - 1 and xp[j + 1] <= v:
        j += 1
    return xp[j]


def interp(xp, fp, x):
    out = np.empty_like(x)
    j = 0
    n = xp.shape[0]
    for i in range(x.shape[0]):
        xi = x[i]
        while j < n - 2 and xp[j + 1] < xi:
            j += 1
        t = (xi - xp[j]) / (xp[j + 1] - xp[j])
        out[i] = fp[j] + t * (fp[j + 1] - fp[j])
    return out


def runs_past(x, k):
    j = 0
    s = 0.0
    while j < k:
        s += x[j]
        j += 2
    return s


def starts_negative(x):
    j = -1
    s = 0.0
    while j < 2:
        s += x[j]
        j += 1
    return s


def counts_down(x):
    j = 2
    s = 0.0
    while j > -3:
        s += x[j]
        j -= 1
    return s


KERNELS = {f: jit(f, fallback=False)
           for f in (search, interp, runs_past, starts_negative, counts_down)}


def _outcome(f, *args):
    try:
        return "ok", f(*args)
    except IndexError as exc:
        return "IndexError", str(exc)


def _same(fn, *args):
    want, got = _outcome(fn, *args), _outcome(KERNELS[fn], *args)
    assert got[0] == want[0]
    if want[0] == "ok":
        g, w = np.asarray(got[1]), np.asarray(want[1])
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes()
    else:
        assert got[1] == want[1]


@pytest.mark.parametrize("v", [-1.0, 0.3, 0.75, 2.0])
def test_search(v):
    _same(search, np.linspace(0.0, 1.0, 9), v)
    _same(search, np.array([0.5]), v)              # j + 1 out of bounds: IndexError


def test_interp():
    rng = np.random.default_rng(4)
    xp = np.sort(rng.random(40))
    x = np.sort(rng.uniform(xp[0], xp[-1], 200))
    _same(interp, xp, np.sin(xp), x)
    _same(interp, xp, np.sin(xp)[:5], x)            # fp too short: IndexError
    _same(interp, xp[:1], np.sin(xp[:1]), x[:3])     # xp[j + 1] of one point


@pytest.mark.parametrize("k", [0, 3, 8, 9, 20])
def test_runs_past_and_others_keep_wrap(k):
    x = np.arange(8.0)
    _same(runs_past, x, k)
    _same(starts_negative, x)
    _same(counts_down, x)
    _same(counts_down, x[:2])


def test_search_index_is_not_wrapped():
    KERNELS[search](np.linspace(0.0, 1.0, 5), 0.5)
    fn = KERNELS[search].ir_module().functions[KERNELS[search].ir_module().entry]
    wraps = [s for s in N.walk_stmts(fn.body) if isinstance(s, N.Assign)
             and isinstance(s.value, N.Select) and isinstance(s.value.cond, N.Cmp)
             and s.value.cond.op == "lt" and isinstance(s.value.cond.right, N.Const)
             and s.value.cond.right.value == 0]
    assert not wraps
