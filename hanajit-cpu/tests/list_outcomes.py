"""Helpers of the growable-list tests (test_cpu_growable_lists.py,
test_cpu_growable_list_uses.py): results compared with the interpreter's --
values, item types, floats bit for bit -- and a kernel checked on several calls."""
import numpy as np

from hanajit import jit


def same(got, want) -> bool:
    """Equal values of the same types, floats bit for bit, lists item by item."""
    if type(got) is not type(want):
        return False
    if isinstance(want, (list, tuple)):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, np.ndarray):
        return got.dtype == want.dtype and got.shape == want.shape and \
            got.tobytes() == want.tobytes()
    if isinstance(want, (float, complex, np.floating, np.complexfloating)):
        return np.asarray(got).tobytes() == np.asarray(want).tobytes()
    return got == want


def outcome(f, *args):
    try:
        return "ok", f(*args)
    except Exception as e:              # (the exception's type and message)
        return type(e), str(e)


def check(f, *calls):
    jf = jit(f, fallback=False)
    for args in calls:
        got, want = outcome(jf, *args), outcome(f, *args)
        assert got[0] is want[0] and same(got[1], want[1]), (f.__name__, args, got, want)
    return jf
