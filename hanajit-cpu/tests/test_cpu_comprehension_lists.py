"""A list comprehension assigned to a name that is only read compiles, built as an
array (``frontend/comprehension_lists.py``).

Each case is compared with CPython running the same function: the value (floats
bit for bit), the type (a NumPy scalar result comes back as the Python number of
the same value, ``docs/semantics.md``) and the exception with its message.  Reads
that a list answers otherwise than an array (``in``, slices, changes, aliases)
keep the function in the interpreter, naming the comprehension.
"""
import math
import struct
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit
from hanajit.errors import UnsupportedError
from hanajit.testing.jitted import jitted


def squares_summed(n):
    xs = [i * i for i in range(n)]
    return sum(xs)


def first_and_last(a):
    ys = [v * 2.0 for v in a]
    return ys[0] + ys[-1], len(ys)


def weak_items(n, x32):
    zs = [0.5 * i for i in range(n)]        # Python floats: float32 stays float32
    return zs[1] * x32


def strong_items(a):
    ys = [v * 2.0 for v in a]               # np.float64 items: float64 wins
    return ys[1] * np.float32(1.5)


def iterated(n):
    xs = [i * 0.1 for i in range(n)]
    t = 0.0
    for x in xs:
        t += x
    return t, max(xs), min(xs)


def handed_to_numpy(n):
    xs = [i * 0.1 for i in range(n)]
    return np.mean(xs), np.array(xs).sum()


def returned(n):
    xs = [i + 1 for i in range(n) if i % 2]
    return xs


def out_of_range(n):
    xs = [i for i in range(n)]
    return xs[n]


def negative_index(n):
    xs = [i * 3 for i in range(n)]
    return xs[-2]


def enumerated(a):
    ws = [x * x for x in a]
    s = 0.0
    for i, w in enumerate(ws):
        s += i * w
    return s


def zipped(a, b):
    ps = [x * y for x, y in zip(a, b)]
    return sum(p for p, x in zip(ps, a) if x > 0)


def index_array(a, n):
    idx = [i for i in range(n) if i % 2 == 0]
    return a[idx]


def in_a_generator(a):
    ws = [x + 1.0 for x in a]
    return sum(ws[k] * a[k] for k in range(len(a)))


def bools(a):
    flags = [x > 0 for x in a]
    n = 0
    for f in flags:
        if f:
            n += 1
    return n, flags[0]


def truth(n):
    xs = [i * 2 for i in range(n)]
    if not xs:
        return -1
    while xs:
        return xs[-1]
    return 0


A = np.array([0.5, -1.25, 3.0, 0.1, -0.0])

CASES = [
    (squares_summed, (5,)), (squares_summed, (0,)), (first_and_last, (A,)),
    (weak_items, (4, np.float32(3.0))), (strong_items, (A,)), (iterated, (10,)),
    (iterated, (0,)), (handed_to_numpy, (7,)), (handed_to_numpy, (0,)),
    (returned, (7,)), (returned, (1,)), (out_of_range, (3,)), (negative_index, (4,)),
    (negative_index, (1,)), (enumerated, (A,)), (zipped, (A, A[::-1].copy())),
    (index_array, (A, 5)), (in_a_generator, (A,)), (bools, (A,)), (bools, (-A[:1],)),
    (truth, (0,)), (truth, (3,)),
]


def same(got, exp):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp), (got, exp)
        for g, e in zip(got, exp):
            same(g, e)
        return
    if isinstance(exp, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == exp.dtype
        assert np.array_equal(got, exp)
        return
    if isinstance(exp, np.generic) and not isinstance(got, np.generic):
        exp = exp.item()
    assert type(got) is type(exp), (got, exp)
    if isinstance(got, float):
        assert struct.pack("<d", got) == struct.pack("<d", exp), (got, exp)
    else:
        assert got == exp, (got, exp)


def outcome(f, args):
    try:
        return "ok", f(*args)
    except Exception as exc:        # noqa: BLE001 - compared below
        return "raise", (type(exc), str(exc))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")     # np.mean of no items
@pytest.mark.parametrize("fn,args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_like_cpython(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = outcome(jit(fn), args)
    exp = outcome(fn, args)
    assert got[0] == exp[0], (got, exp)
    if exp[0] == "raise":
        assert got[1] == exp[1]
    else:
        same(got[1], exp[1])


def checked_in(n, v):
    xs = [i * 0.5 for i in range(n)]
    return v in xs


def appended(n):
    xs = [i for i in range(n)]
    xs.append(1)
    return len(xs)


def sliced(n):
    xs = [i for i in range(n)]
    return sum(xs[1:])


def aliased(n):
    xs = [i for i in range(n)]
    ys = xs if n else None          # (ys = xs compiles: test_cpu_list_rebinding)
    return len(ys)


def nested(n):
    xs = [[i, i + 1] for i in range(n)]
    return xs[0][1]


@pytest.mark.parametrize("fn", [checked_in, appended, sliced], ids=lambda f: f.__name__)
def test_changed_ones_are_growable_lists(fn):
    # (frontend/growable_lists.py; test_cpu_growable_lists.py)
    args = (3, 1.0) if fn is checked_in else (3,)
    got, want = jit(fn, fallback=False)(*args), fn(*args)
    assert got == want and type(got) is type(want)


def test_nested_is_a_table():
    # (a list of lists: frontend/list_tables.py, test_cpu_list_of_lists.py)
    assert jit(nested, fallback=False)(3) == nested(3)


@pytest.mark.parametrize("fn", [aliased], ids=lambda f: f.__name__)
def test_other_uses_fall_back_naming_the_list(fn):
    args = (3,)
    with pytest.raises(UnsupportedError, match="list") as info:
        jit(fn, fallback=False)(*args)
    assert "internal" not in str(info.value)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert jit(fn)(*args) == fn(*args)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)


def scaled(a, k):
    xs = [x * k for x in a if x == x]
    # (an np.float64 default: "xs[...] if xs else 0.0" is a NumPy scalar or the
    # Python 0.0 by the run, which falls back -- infer/uncertain_kinds.py)
    return sum(xs), xs[len(xs) // 2] if xs else np.float64(0.0), len(xs)


floats = st.floats(allow_nan=True, allow_infinity=True, width=64)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(floats, max_size=12), st.floats(-4, 4))
def test_fuzz(xs, k):
    a = np.array(xs, dtype=np.float64)
    f = jitted(scaled, fallback=False)
    got, exp = f(a, k), scaled(a, k)
    assert got[2] == exp[2]
    for g, e in zip(got[:2], exp[:2]):
        if isinstance(e, int) and isinstance(g, float):     # no items: int 0 (semantics.md)
            assert g == e
        else:
            assert struct.pack("<d", float(g)) == struct.pack("<d", float(e)) or (
                math.isnan(g) and math.isnan(e))
