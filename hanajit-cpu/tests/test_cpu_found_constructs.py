"""Constructs found in real kernels that used to fall back (issue: "never wrong on
what users actually write"): ``float("inf")``, imports at the top of a function,
``for``/``while`` ... ``else`` whose every path returns.  Each compiles with
``fallback=False`` and returns what CPython returns."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.jitted import jitted


def infinities(x):
    lo = float("inf")
    hi = float("-inf")
    for v in x:
        lo = min(lo, v)
        hi = max(hi, v)
    return lo, hi, float("nan") != float("nan"), float(" 1e3 ") + float("-0")


def local_imports(x):
    """A docstring first."""
    import numpy as np
    from math import sqrt as root
    import math
    return np.sum(x) + root(2.0) + math.pi


def found(a, t):
    for v in a:
        if v > t:
            return 1
    else:
        return 0


def counted(n):
    i = 0
    while i < n:
        i += 1
    else:
        i += 100
    return i


def broken(a, t):
    s = 0
    for v in a:
        if v > t:
            break
        s += 1
    else:
        s = -1
    return s


def _same(a, b):
    if isinstance(a, tuple):
        return all(map(_same, a, b))
    return a == b or (a != a and b != b) or (math.copysign(1, a) == math.copysign(1, b)
                                              if a == 0 else False)


@pytest.mark.parametrize("f, args", [
    (infinities, (np.array([3.0, -2.0, 7.5]),)),
    (infinities, (np.zeros(0),)),
    (local_imports, (np.arange(5.0),)),
    (found, (np.arange(4.0), 2.0)), (found, (np.arange(4.0), 9.0)),
    (counted, (5,)), (counted, (0,)),
    (broken, (np.arange(4.0), 2.0)), (broken, (np.arange(4.0), 9.0)),
])
def test_compiles_and_matches_cpython(f, args):
    got = jitted(f, fallback=False)(*args)
    want = f(*args)
    assert _same(got, want), (got, want)      # (NumPy scalars come back as numbers)


def late_import(x):
    y = x + 1
    import math
    return math.sqrt(y)


def bad_float(x):
    return x + float("one")


def test_what_still_falls_back_says_why():
    with pytest.warns(UserWarning, match="only imports at the top"):
        assert jit(late_import)(3.0) == 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError):        # as CPython, at run time
            jit(bad_float)(1.0)
