"""Tuple targets of ``for`` loops over tuples of tuples keep each item's kind:
``for c, d in ((1, a[0]), (2, a[1]))`` gives a Python int ``c`` and an
``np.float64`` ``d``, as CPython does (``c`` had come back as ``np.int64``: the
pair's items were judged together)."""
import numpy as np
import pytest

from hanajit import jit


def pairs(a):
    t = 0.0
    for c, d in ((1, a[0]), (2, a[1])):
        t += c * d
    return c, d, t


def triples(a):
    for p, (q, r) in ((1, (a[0], 2)), (3, (a[1], 4))):
        pass
    return p, q, r


def constant_pick(a):
    t = ((1, a[0]), (2.5, a[1]))
    x, y = t[1]
    u, v = t[0]
    return x, y, u, v


def all_python(a):
    s = 0
    for c, d in ((1, 2), (3, 4)):
        s += c * d
    return s, c, d, a[0]


def same(r, e):
    assert type(r) is type(e), (r, e)
    if isinstance(e, tuple):
        for u, v in zip(r, e):
            same(u, v)
    else:
        assert np.asarray(r).tobytes() == np.asarray(e).tobytes()


@pytest.mark.parametrize("fn", [pairs, triples, constant_pick, all_python])
@pytest.mark.parametrize("a", [np.array([1.5, -2.0, 3.0]), np.array([4, 5, 6], np.int32),
                               np.array([0.25, 0.5], np.float32)], ids=["f8", "i4", "f4"])
def test_items_keep_their_kind(fn, a):
    same(jit(fn, fallback=False)(a), fn(a))
