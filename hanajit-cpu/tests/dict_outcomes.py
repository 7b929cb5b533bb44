"""Helpers of the dict tests (test_cpu_dicts.py, test_cpu_dict_copies.py): a
result's shape with every number's type, and a call's outcome (a result or an
exception's class and message), compared with the interpreter's."""
from __future__ import annotations

import math

from hanajit.testing.jitted import jitted


def shape(x):
    """``x`` with every number as (repr, type name), a dict's items in order."""
    if isinstance(x, dict):
        return ("dict", [(shape(k), shape(v)) for k, v in x.items()])
    if isinstance(x, tuple):
        return tuple(shape(i) for i in x)
    if isinstance(x, float) and math.isnan(x):
        return ("nan", type(x).__name__)
    return (repr(x), type(x).__name__)


def outcome(f, *args):
    try:
        return shape(f(*args))
    except Exception as e:          # (compared with the interpreter's)
        return (type(e).__name__, str(e))


def same(f, *args):
    got = outcome(jitted(f, fallback=False), *args)
    want = outcome(f, *args)
    assert got == want
