"""The exporter case list: each case is exported once, the artifact is run on every
argument tuple (an executable, a WebAssembly module under node, an HLS C
simulation ...) and what it prints is compared with CPython.

A subclass names its ``target`` (for the declared capabilities and ``status()``)
and implements :meth:`ExporterConformance.run_export`, which exports a function
and returns one outcome per argument tuple: ``("ok", value)`` -- the value as the
artifact printed it, decoded (a JSON number for an int is fine: it is compared by
CPython's result type) -- or ``("raise", exception name, message)``, or ``None``
when the artifact only says the result matched (a self-checking testbench).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from .base import ConformanceBase
from .reference import interpreted, outcome, same_value


def int_divmod(a, b):
    return a // b, a % b, a > b


def compound(x, years):
    for _ in range(years):
        x *= 1.05
    return x


def float_ops(x, y):
    return x / y + x % y - x // y


def flags(a, b):
    if a:
        return a and not b
    return b or a


def exact_math(x):
    return math.sqrt(abs(x)) + math.floor(x) - math.fabs(x) * 0.5


def triangle(n):
    t = 0
    i = 0
    while True:
        i += 1
        if i % 4 == 0:
            continue
        t += i
        if i >= n:
            break
    return t


def unsigned_message(n):
    u = np.uint64(n) * np.uint64(3)          # a uint64 field is printed unsigned
    if n > 5:
        raise ValueError(f"{n} gives {u}, not {{u}}")
    return n


def float_message(x, n):
    y = x * 3.0                              # float fields print as repr(float)
    if y > 1.0:
        raise ValueError(f"{y} from {np.float32(x)} and {n}, not {{f}}")
    return y


# name -> (function, signature, argument tuples)
EXPORT_CASES = {
    "int_divmod": (int_divmod, "i64, i64",
                   [(-7, 2), (7, -2), (0, 5), (9007199254740000, -3), (1, 0)]),
    "compound": (compound, "f64, i64", [(1000.0, 10), (-0.5, 3), (1e300, 40), (2.0, 0)]),
    "float_ops": (float_ops, "f64, f64",
                  [(7.5, -2.0), (-0.0, 3.0), (1.0, 0.0), (math.inf, 2.0), (5.0, math.nan),
                   (1e308, 1e-308)]),
    "flags": (flags, "b1, b1", [(True, False), (False, False), (True, True), (False, True)]),
    "exact_math": (exact_math, "f64", [(2.25,), (-3.5,), (0.0,), (math.inf,), (1e-310,)]),
    "triangle": (triangle, "i64", [(1,), (10,), (1000,)]),
    "unsigned_message": (unsigned_message, "i64", [(3,), (7,), (2**62,)]),
    "float_message": (float_message, "f64, i64",
                      [(0.1, 2), (0.5, 7), (1e30, 1), (math.inf, -3), (3.4e15, 0),
                       (0.4, 1), (-2.0, 5), (4e-5 + 1, 9)]),
}


def _like(got, want):
    """``got`` as the type of ``want`` where a printed form cannot tell them apart
    (a JSON int for a float, a list for a tuple, a text for a 64-bit int)."""
    if isinstance(want, tuple) and isinstance(got, (list, tuple)):
        return tuple(_like(g, w) for g, w in zip(got, want))
    if type(want) is float and isinstance(got, (int, str)) and not isinstance(got, bool):
        return float(got)
    if type(want) is int and isinstance(got, str):
        return int(got)
    return got


class ExporterConformance(ConformanceBase):
    """Exporters: subclass with ``target`` and :meth:`run_export`."""

    def jit(self, func, **options):
        """``func`` jitted for the host (exporters take a host ``@jit`` function)."""
        from ..api import jit
        key = ("export", func)
        if key not in self._jitted:
            self._jitted[key] = jit(func, fallback=False)
        return self._jitted[key]

    def run_export(self, func, signature: str, argsets: list, tmp_path) -> list:
        """Export ``func`` for ``signature`` under ``tmp_path``, run the artifact on
        each argument tuple; return one outcome per tuple (see the module doc)."""
        raise NotImplementedError

    @pytest.mark.parametrize("name", sorted(EXPORT_CASES))
    def test_export(self, name, tmp_path):
        func, sig, argsets = EXPORT_CASES[name]
        got = self.run_export(self.jit(func), sig, argsets, tmp_path)
        errors = []
        for args, g in zip(argsets, got):
            want = outcome(interpreted(self.jit(func)), args)
            if g is None:
                continue
            if want[0] == "raise":
                ok = g[0] == "raise" and g[1] == want[1].__name__ and g[2] == want[2]
            else:
                ok = g[0] == "ok" and same_value(_like(g[1], want[1]), want[1])
            if not ok:
                errors.append(f"{name}{args}: exported {g}, CPython {want}")
        assert len(got) == len(argsets) and not errors, "\n".join(errors)
