"""A scalar stored into an integer array converts as NumPy's setitem converts it,
which depends on what the scalar is and how it is stored:

* a Python int must fit the dtype (NumPy 2: "Python integer 300 out of bounds
  for int8"); a Python float is truncated, then must fit;
* a NumPy scalar stored into one element, a slice or by ``fill``: into a signed
  array it goes through a Python int (the same errors; a uint64 past int64 is
  "Python int too large to convert to C long"), into an unsigned one it is cast
  as arrays are (``np.float64(-1.5)`` gives 255 in uint8);
* a NumPy scalar stored through index arrays or a mask: cast as arrays are;
* ``np.array([...], dtype=)`` of a display: each element as one setitem.

Every form, value and dtype against the interpreter, error words included."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from hanajit.testing.jitted import jitted


def element(a, v):
    a[0] = v
    return a


def sliced(a, v):
    a[1:] = v
    return a


def indexed(a, v):
    a[np.array([0, 1])] = v
    return a


def masked(a, v):
    a[a == 0] = v
    return a


def filled(a, v):
    a.fill(v)
    return a


def row(a, v):
    b = np.zeros((2, 2), a.dtype)
    b[0] = v
    return b


VALUES = [np.int64(300), np.int16(-1), np.float64(300.7), np.uint64(2**63),
          np.float32(-1.5), np.int64(2**40), np.float64(3e9), 300, -1, 300.7, -1.5, 2**40,
          float("nan")]
DTYPES = [np.int8, np.int32, np.uint8, np.int64, np.uint64]


def outcome(f, dtype, v):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # NumPy's cast warnings
        try:
            return "ok", f(np.zeros(3, dtype), v).tolist()
        except (OverflowError, ValueError) as exc:
            return type(exc), str(exc)


@pytest.mark.parametrize("f", [element, sliced, indexed, masked, filled, row],
                         ids=lambda f: f.__name__)
def test_every_value_and_dtype_as_numpy(f):
    for v, dtype in itertools.product(VALUES, DTYPES):
        assert outcome(jitted(f, fallback=False), dtype, v) == outcome(f, dtype, v), \
            (type(v).__name__, v, np.dtype(dtype).name)


def put_one(a, v):
    np.put(a, np.array([0]), v)
    return a


def diagonal(a, v):
    b = np.zeros((2, 2), a.dtype)
    np.fill_diagonal(b, v)
    return b


@pytest.mark.parametrize("f", [put_one, diagonal], ids=lambda f: f.__name__)
def test_put_and_fill_diagonal_convert_as_flat_assignment(f):
    """``np.put`` and ``np.fill_diagonal`` assign through a flat selection: a Python
    number as setitem converts it, a NumPy scalar cast as arrays are."""
    for v, dtype in itertools.product(VALUES, DTYPES):
        assert outcome(jitted(f, fallback=False), dtype, v) == outcome(f, dtype, v), \
            (type(v).__name__, v, np.dtype(dtype).name)
