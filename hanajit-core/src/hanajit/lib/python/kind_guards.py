"""Guards for operations on locals that are a Python number on some runs and a
NumPy scalar of the same type on others (``infer/uncertain_kinds.py`` marks
them ``python_check``).  The operation keeps NumPy's semantics, which give the
interpreter's value in both states except on the operands where Python's and
NumPy's rules differ; there the call re-runs in the interpreter (a deopt), which
gives whichever answer the run's state gives: an int64 overflow (Python's int
grows, NumPy's wraps), a zero divisor (Python raises, NumPy gives inf or 0),
``int ** negative``, shifts by a negative count or past 63 bits, ``-(-2**63)``,
and a float ``**`` whose result is not finite from finite operands (Python
raises or gives a complex, NumPy gives inf or nan)."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from . import helpers
from .int_overflow import MIN, active
from .operators import C, band, bor, convert, inexact_int_division

_B = T.BOOL
_WHY = "an operation on a local that is a Python number on some runs and a NumPy " \
    "scalar on others, where the two differ"


def _deopt(L, cond):
    L.raise_if(cond, helpers.Deopt, _WHY)


def _finite(x):
    return N.Cmp("lt", N.Intrinsic("fabs", [x], T.FLOAT64), C(float("inf"), T.FLOAT64), _B)


def before(L, op, a, b, t):
    """Guards before NumPy's ``a op b`` of result type ``t``; returns (a, b)."""
    if not active(L):
        return a, b
    a, b = L.let(a), L.let(b)
    if op in ("truediv", "floordiv", "mod"):
        _deopt(L, N.Cmp("eq", b, C(0, b.type) if not b.type.is_bool else C(False, _B), _B))
        if op == "truediv" and a.type.is_int and b.type.is_int:
            inexact_int_division(L, a, b)
    if not (isinstance(t, T.Scalar) and t == T.INT64):
        return a, b
    x, y = convert(L, a, t), convert(L, b, t)
    x, y = L.let(x), L.let(y)
    if op in ("add", "sub", "mul"):
        _deopt(L, N.Intrinsic(f"s{op}_overflow", [x, y], _B))
    elif op == "floordiv":
        _deopt(L, band(N.Cmp("eq", x, C(MIN, t), _B), N.Cmp("eq", y, C(-1, t), _B)))
    elif op in ("lshift", "rshift"):
        bad = bor(N.Cmp("lt", y, C(0, t), _B), N.Cmp("gt", y, C(63, t), _B))
        if op == "lshift":           # bits leave int64: (x << y) >> y != x
            s = N.BinOp("shl", x, N.Select(bad, C(0, t), y, t), t)
            back = N.BinOp("ashr", s, N.Select(bad, C(0, t), y, t), t)
            bad = bor(bad, N.Cmp("ne", back, x, _B))
        _deopt(L, bad)
    elif op == "pow":
        _deopt(L, N.Cmp("lt", y, C(0, t), _B))
        return x, y
    return x, y


def pow_result(L, a, b, r, t):
    """``r = a ** b`` of NumPy's rule: int64 overflow (Python's exact power
    differs) or a float result that is not finite from finite operands
    re-runs the call."""
    if not active(L):
        return r
    r = L.let(r)
    if t == T.INT64:
        return L.let(L.call_helper(helpers.py_int_pow, [a, b]))    # (deopts past int64)
    if t.is_float:
        fa, fb, fr = (convert(L, x, T.FLOAT64) for x in (a, b, r))
        _deopt(L, band(N.Cmp("eq", _finite(fr), C(False, _B), _B),
                       band(_finite(fa), _finite(fb))))
    return r


def neg(L, a, t):
    """``-a``: ``-(-2**63)`` re-runs the call (Python's int grows)."""
    if active(L) and t == T.INT64:
        a = L.let(a)
        _deopt(L, N.Cmp("eq", a, C(MIN, t), _B))
    return a


def exact_compare(L, a, b):
    """An int compared with a float, one of them a local of either kind: Python
    compares exactly where NumPy converts the int to float64, so an int beyond
    2**53 re-runs the call."""
    if not active(L):
        return a, b
    out = []
    for x in (a, b):
        if isinstance(x.type, T.Scalar) and x.type.is_int and not x.type.is_bool:
            x = L.let(x)
            big = bor(N.Cmp("gt", convert(L, x, T.INT64), C(2**53, T.INT64), _B),
                      N.Cmp("lt", convert(L, x, T.INT64), C(-2**53, T.INT64), _B))
            if x.type == T.UINT64:
                big = N.Cmp("gt", x, C(2**53, T.UINT64), _B)
            _deopt(L, big)
        out.append(x)
    return out[0], out[1]
