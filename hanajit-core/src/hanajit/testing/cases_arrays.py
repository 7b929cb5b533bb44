"""Array cases of the host conformance list: arrays passed in, read and written in
place, strided views, out-of-bounds indices; results and the arrays' contents after
the call are compared with CPython + NumPy running the same function."""
from __future__ import annotations

import numpy as np

from .base import ConformanceBase
from .reference import interpreted, outcome, same_outcome


def total(a):
    t = 0.0
    for i in range(a.shape[0]):
        t += a[i]
    return t


def scale_in_place(a, k):
    for i in range(a.shape[0]):
        a[i] = a[i] * k


def rowsum_into(m, out):
    for i in range(m.shape[0]):
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        out[i] = s
    return m.shape[0] * m.shape[1]


def floordiv_into(a, k, out):
    for i in range(a.shape[0]):
        out[i] = a[i] // k


def threshold(x, flags, level):
    n = 0
    for i in range(x.shape[0]):
        flags[i] = x[i] > level
        if flags[i]:
            n += 1
    return n


def pick(a, i):
    return a[i] * 2


def _same_array(got, want) -> bool:
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind == "f":          # bit for bit: NaNs, signed zeros
        return bool(np.all((got == want) | (np.isnan(got) & np.isnan(want))))
    return bool(np.array_equal(got, want))


class ArrayCases(ConformanceBase):
    """NumPy arrays passed to compiled functions (no array the code allocates)."""

    def check_arrays(self, func, *args):
        """Run the compiled and the interpreted ``func`` on copies of ``args``;
        assert the same outcome and the same array contents afterwards."""
        compiled = self.jit(func)
        mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        got = outcome(compiled, mine)
        with np.errstate(all="ignore"):        # NumPy's warnings are no outcome
            want = outcome(interpreted(compiled), ref)
        assert same_outcome(got, want), f"{func.__name__}{tuple(args)!r}: {got} != {want}"
        for k, (g, w) in enumerate(zip(mine, ref)):
            if isinstance(w, np.ndarray):
                assert _same_array(g, w), f"{func.__name__}: argument {k}: {g} != {w}"

    def test_read_array(self):
        for a in (np.array([1.5, -0.0, 1e308, 1e308, -1e308]), np.zeros(0),
                  np.arange(10.0)[::3], np.array([np.nan, 1.0])):
            self.check_arrays(total, a)

    def test_write_in_place(self):
        self.check_arrays(scale_in_place, np.array([1.5, np.nan, -0.0, np.inf]), -2.0)
        self.check_arrays(scale_in_place, np.arange(7, dtype=np.int64), 3)
        self.check_arrays(scale_in_place, np.arange(6.0)[::-2], 0.5)

    def test_two_dimensions(self):
        m = np.arange(12.0).reshape(3, 4)
        self.check_arrays(rowsum_into, m, np.zeros(3))
        self.check_arrays(rowsum_into, np.asfortranarray(m), np.zeros(3))
        self.check_arrays(rowsum_into, m, np.zeros(2))          # IndexError

    def test_integer_semantics_in_arrays(self):
        a = np.array([-7, 7, -(1 << 63), (1 << 63) - 1, 0], dtype=np.int64)
        for k in (-2, 3, 0):
            self.check_arrays(floordiv_into, a, k, np.zeros(5, dtype=np.int64))

    def test_bool_and_float32_arrays(self):
        x = np.array([0.5, -1.0, 2.0, np.nan], dtype=np.float32)
        self.check_arrays(threshold, x, np.zeros(4, dtype=bool), np.float32(0.25))

    def test_negative_and_out_of_bounds_indices(self):
        a = np.array([1.0, 2.0, 3.0])
        for i in (0, 2, -1, -3, 3, -4):
            self.check_arrays(pick, a, i)
