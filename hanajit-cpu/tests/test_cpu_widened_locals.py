"""A local that holds a Python number of one type and NumPy scalars of a wider
one -- ``s = 0`` (an int) that becomes an ``np.float64`` at ``s = s + a[i]`` --
reads as the interpreter's in both states (infer/widened_locals.py).

Before the loop runs, ``return s`` gives the Python int ``0`` (not ``0.0``), an
int beyond 2**53 comes back exact, ``s * 2`` is int arithmetic: the result flags
box the Python state as its own number, and other reads in that state re-run
the call in the interpreter.  Each kernel runs through both dispatchers and is
compared with the interpreter: value, type, and the type of each tuple item.
"""
from __future__ import annotations

import warnings

import numpy as np

from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.compare import check_fallback
from hanajit.testing.dispatch_modes import jitted


def int_then_float(a, n):
    s = 0
    for i in range(n):
        s = s + a[i]
    return s


def big_int_start(a, n, start):
    s = start
    for i in range(n):
        s += a[i]
    return s, n


def int_read_by_int_arithmetic(a, n):
    t = 3
    for i in range(n):
        t = a[i]
    return t * 2


def float_then_complex(z, n):
    t = 0.0
    for i in range(n):
        t = t + z[i]
    return t


def bool_then_int(a, n):
    s = False
    for i in range(n):
        s = s + a[i]
    return s


def float_then_float(a, n):        # the same type: result flags alone
    t = 0.0
    for i in range(n):
        t = t * 2 + a[i]
    return t


def writes_and_sums(a, out):
    s = 0
    for v in a:
        s += v
        out[0] = s
    return s


def compared_and_divided(a, n):
    s = 0
    for i in range(n):
        s = s + a[i]
    if s > 2:
        return s * 2
    return s / 2


def same(got, want) -> bool:
    if isinstance(want, tuple):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return type(got) is type(want) and repr(got) == repr(want)


def check(py, *args):
    jf = jitted(py)
    want = py(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        for _ in range(3):
            got = jf(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
            assert same(got, want), (py.__name__, args, got, want)


def test_python_state_reads_as_the_interpreter(mode):
    a, z, i = np.arange(1.0, 5.0), np.arange(3.0) + 1j, np.arange(1, 5)
    for n in (0, 1, 3):
        check(int_then_float, a, n)
        check(int_read_by_int_arithmetic, a, n)
        check(float_then_complex, z, n)
        check(bool_then_int, i, n)
        check(float_then_float, a, n)
        for start in (5, -7, 2**53 - 1, 2**53 + 1, 2**60 + 1, -(2**62)):
            check(big_int_start, a, n, start)
    for x in (a, a[:0]):
        check(writes_and_sums, x, np.zeros(1))


def test_int_or_float_results_fall_back():
    """``return s * 2`` and ``return s / 2`` of the Python int: an int on one
    path, a float on the other -- one compiled type cannot say which."""
    for n in (0, 3):
        check_fallback(compared_and_divided, (np.arange(1.0, 5.0), n), "variable type change")


def read_after_a_write(out, x):
    s = 0
    for v in x:
        s = s + v
    out[0] = 1.0
    return s * 2


def read_after_a_print(out, x):
    s = 0
    for v in x:
        s = s + v
    print("n", len(x))
    out[0] = s * 2
    return out


def read_then_written(out, x):
    s = 0
    for v in x:
        s = s + v
    out[0] = s * 2
    return out


def test_a_read_after_a_write_falls_back(capsys):
    """Reading the Python state re-runs the call in the interpreter, which a call
    that has written into an array or printed cannot (it raised UnsupportedError
    when the loop had not run): such a function falls back."""
    for f in (read_after_a_write, read_after_a_print):
        for x in (np.zeros(0), np.ones(2)):
            check_fallback(f, (np.arange(3.0), x), "variable type change")
    capsys.readouterr()


def test_a_read_before_any_write_re_runs(mode):
    """... but a read that nothing written, printed or drawn precedes re-runs,
    even where the function writes later (errors.CLEAN)."""
    for x in (np.zeros(0), np.ones(2), np.zeros(0), np.arange(4.0)):
        check(read_then_written, np.arange(3.0), x)


def divmod_returned(a):
    t = 0
    for v in a:
        t += v
    return divmod(t, 3)


def divmod_unpacked(a):
    t = 0.0
    for v in a:
        t += v
    q, r = divmod(t, 3)
    return q, r


def divmod_item(a):
    t = 0
    for v in a:
        t += v
    return divmod(7, t + 2)[1]


def tuple_in_a_name(a):
    t = 0
    for v in a:
        t += v
    w = (t, 1)
    return w


def divmod_quotient_grows(a):
    t = 0
    for v in a:
        t += v
    q, r = divmod(t + 2**61, 1)
    return int(q * 8)


def test_divmod_and_held_tuples_of_either_kind_fall_back():
    """``divmod`` of a local that is a Python int or an np.int64 is a pair of
    either (no flag follows it), and so is a tuple held in a name: they fall back
    (they came back as np.int64 pairs, ``(np.int64(0), 1)``, where the loop had
    not run); ``divmod(t + 2**61, 1)[0] * 8`` grows as a Python int (it wrapped
    to 0)."""
    for f in (divmod_returned, divmod_unpacked, divmod_item, tuple_in_a_name):
        for x in (np.arange(0), np.arange(3)):
            check_fallback(f, (x,), "variable type change")
    for x in (np.arange(0), np.arange(3)):
        check(divmod_quotient_grows, x)
