"""Inputs for differential tests: edge values and hypothesis strategies.

Every strategy mixes the edge values (0, -1, the int64 limits, NaN, the
infinities, -0.0, 2**53 + 1 ...) with random draws, so each property test sees
the cases where Python's semantics differ from C's.
"""
from __future__ import annotations

import math

from hypothesis import strategies as st

from .reference import INT64_MAX, INT64_MIN

EDGE_INTS = (0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 63, 64, -64, 255, 2**31, -(2**31),
             2**53, 2**53 + 1, -(2**53) - 1, INT64_MAX, INT64_MIN, INT64_MIN + 1)
EDGE_FLOATS = (0.0, -0.0, 1.0, -1.0, 0.1, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.0,
               1e16, 2.0**53, 9007199254740993.0, 2.0**63, -(2.0**63), 1e300, -1e300,
               5e-324, 2.2250738585072014e-308, math.pi, math.inf, -math.inf, math.nan)
SMALL_INTS = (0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 10, 100)


def int64s() -> st.SearchStrategy:
    """int64 values, edges first."""
    return st.one_of(st.sampled_from(EDGE_INTS),
                     st.integers(min_value=-1000, max_value=1000),
                     st.integers(min_value=INT64_MIN, max_value=INT64_MAX))


def small_ints(lo=-100, hi=100) -> st.SearchStrategy:
    return st.integers(min_value=lo, max_value=hi)


def floats() -> st.SearchStrategy:
    """Any float64, NaN, infinities and -0.0 included."""
    return st.one_of(st.sampled_from(EDGE_FLOATS), st.floats(allow_nan=True,
                                                            allow_infinity=True))


def finite_floats(bound=1e6) -> st.SearchStrategy:
    return st.floats(min_value=-bound, max_value=bound, allow_nan=False,
                     allow_infinity=False)


def numbers() -> st.SearchStrategy:
    """An int64, a float or a bool."""
    return st.one_of(int64s(), floats(), st.booleans())


def reals_grid() -> list:
    """Every edge int and float (for exhaustive pair grids)."""
    return list(EDGE_INTS) + list(EDGE_FLOATS)
