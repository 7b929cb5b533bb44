"""References a compiler temporary hands over (``lowering/llvm_memory.py``:
``moved_temps``, ``moved_items``): ``x, y = f(...)`` takes each array of the
call's tuple without counting it in and out, and the tuple keeps none.  Every
array stays alive while a name holds it (aliases, swaps, loops rebinding the
names, a tuple still held by a name) and is freed once none does, against the
interpreter."""
import resource

import numpy as np
import pytest

from hanajit.testing.jitted import jitted


def _pair(n):
    a = np.arange(n * 1.0)
    return a, a * 2.0


def _three(n):
    a, b = _pair(n)
    return b, a, b + 1.0


def unpacked(n, k):
    total = 0.0
    for i in range(k):
        x, y = _pair(n + i)             # items moved, the names rebound per loop
        total += x.sum() + y[-1]
    p, q = _pair(n)
    r = p                               # an alias of a moved item
    p, q = q, p                         # a swap of moved items
    u, v, w = _three(n)
    t = _pair(n + 1)                    # a tuple a name keeps
    e, f = t
    e = e + 1.0
    return total + r[0] + p[-1] + q.sum() + u[0] + v[-1] + w.sum() + t[0][-1] + e[0] + f[1]


def unpacked_raising(n, k):
    x, y = _pair(n)
    a, b, c = _three(n)
    if k > 2:
        raise ValueError("after the unpacking")
    return x[k] + y[k] + a[k] + b[k] + c[k]


@pytest.mark.parametrize("n, k", [(1, 0), (3, 2), (40, 5)])
def test_moved_items_against_the_interpreter(n, k):
    assert jitted(unpacked, fallback=False)(n, k) == unpacked(n, k)


@pytest.mark.parametrize("k", range(5))
def test_moved_items_at_a_raise(k):
    f = jitted(unpacked_raising, fallback=False)
    try:
        want = unpacked_raising(4, k)
    except Exception as e:              # (the interpreter's outcome)
        want = (type(e).__name__, str(e))
    try:
        got = f(4, k)
    except Exception as e:
        got = (type(e).__name__, str(e))
    assert got == want


def test_moved_items_leave_no_memory():
    """Each call makes ~30 arrays of 64 kB: 1.5 GB over 800 calls if kept."""
    f = jitted(unpacked, fallback=False)
    g = jitted(unpacked_raising, fallback=False)
    f(1 << 13, 3)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for i in range(800):
        f(1 << 13, 3)
        try:
            g(1 << 13, 3 + i % 2)
        except ValueError:
            pass
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 96 * 1024, grown                 # KiB
